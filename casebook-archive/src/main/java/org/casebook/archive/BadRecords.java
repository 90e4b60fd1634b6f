package org.casebook.archive;

import org.casebook.core.Enums;

/**
 * What an import does with a file that holds bad records: quarantine the whole file (seed 001's
 * SK-bad, the default), or salvage it — load its good records and set the bad ones aside in a
 * {@code NAME.rejects} file in the quarantine. Either way a file whose records cannot be told apart
 * is quarantined whole.
 */
public enum BadRecords {
  QUARANTINE_FILE,
  SALVAGE;

  /** The name used in the CLI, the REST body and the report. */
  public String label() {
    return Enums.label(this);
  }

  public static BadRecords parse(String value, String field) {
    return Enums.parse(BadRecords.class, value, field);
  }
}
