package org.casebook.banknote;

import java.util.List;

/**
 * What an import did with one file: the notes stored, the records rejected (with the first reasons;
 * all of them are in {@code rejectsFile}), or why the whole file was quarantined.
 */
public record ImportReport(
    String file,
    String format,
    long records,
    long stored,
    long rejected,
    List<Reject> firstRejects,
    String rejectsFile,
    String quarantined) {
  public ImportReport {
    firstRejects = List.copyOf(firstRejects);
  }
}
