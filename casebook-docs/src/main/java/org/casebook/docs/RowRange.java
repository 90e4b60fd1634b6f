package org.casebook.docs;

import org.casebook.core.key.KeyRange;

/**
 * What a scan reads, as a value the stores turn into a scan: rows from {@code start} to {@code
 * stop} (each inclusive or not), backwards if {@code reversed} (then {@code start} is the higher
 * key), at most {@code limit} rows (0: all).
 */
@SuppressWarnings("ArrayRecordComponent") // keys: never compared with equals, never mutated
record RowRange(
    byte[] start,
    boolean startInclusive,
    byte[] stop,
    boolean stopInclusive,
    boolean reversed,
    int limit) {
  private static final byte[] OPEN = new byte[0];

  /** Every row of the table. */
  static RowRange all() {
    return new RowRange(OPEN, true, OPEN, false, false, 0);
  }

  /** The rows of {@code range}, oldest key first, at most {@code limit}. */
  static RowRange of(KeyRange range, int limit) {
    return new RowRange(range.start(), true, range.stop(), false, false, limit);
  }
}
