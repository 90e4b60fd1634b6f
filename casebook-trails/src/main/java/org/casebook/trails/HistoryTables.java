package org.casebook.trails;

/** Which seed-004 history tables an ingest writes besides the events table. */
public enum HistoryTables {
  NONE,
  TALL,
  WIDE,
  BOTH;

  boolean tall() {
    return this == TALL || this == BOTH;
  }

  boolean wide() {
    return this == WIDE || this == BOTH;
  }
}
