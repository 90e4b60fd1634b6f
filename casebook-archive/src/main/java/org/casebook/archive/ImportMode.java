package org.casebook.archive;

import org.casebook.core.Enums;

/** How an import writes: one MapReduce job and a bulk load of its HFiles, or puts. */
public enum ImportMode {
  BULKLOAD,
  PUT;

  /** The lower-case name used in the CLI, the REST body and the report. */
  public String label() {
    return Enums.label(this);
  }

  public static ImportMode parse(String value, String field) {
    return Enums.parse(ImportMode.class, value, field);
  }
}
