package org.casebook.trails;

/** Which seed-004 design answers user-history queries (latest N, at a timestamp, all). */
public enum HistoryLayout {
  /** One row per record: {@code uid | MAX - ts | hash} (the 004 author's recommendation). */
  TALL,
  /** One row per user, one column per record: qualifier {@code MAX - ts | hash}. */
  WIDE
}
