package org.casebook.docs;

/** Totals of a bulk request; {@code errors} is true if any action failed. */
public record BulkSummary(long actions, long stored, long deleted, long failed, long millis) {
  public boolean errors() {
    return failed > 0;
  }
}
