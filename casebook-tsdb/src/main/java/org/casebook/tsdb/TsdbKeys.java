package org.casebook.tsdb;

import java.util.List;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;

/**
 * Row keys of the time-series tables, each a declared {@link KeyLayout}; the store builds and reads
 * every key through these.
 *
 * <pre>
 * uid   row 0x00 | kind                 the next id of a kind (an Increment counter)
 *       row 0x01 | kind | name          name → id (forward)
 *       row 0x02 | kind | id            id → name (reverse)
 * data  row [salt] | metric id | hour | tagk id tagv id …   one row per series and hour,
 *                                                           one column per point (or one
 *                                                           compacted cell)
 * </pre>
 *
 * Ids are {@value #UID_WIDTH} bytes, as OpenTSDB's: fixed width, so the tag pairs at the end of a
 * data row need no separators and a row key of a series with two tags is 3 + 4 + 12 bytes.
 */
final class TsdbKeys {
  static final int UID_WIDTH = 3;

  /** Largest id of a kind: 2^24 - 1. */
  static final long MAX_UID = (1L << (8 * UID_WIDTH)) - 1;

  static final int COUNTER_SPACE = 0;
  static final int FORWARD_SPACE = 1;
  static final int REVERSE_SPACE = 2;

  static final KeyLayout UID_COUNTER =
      KeyLayout.named("uid counter row")
          .part("space", PartType.BYTE)
          .part("kind", PartType.BYTE)
          .build();

  static final KeyLayout UID_FORWARD =
      KeyLayout.named("uid forward row")
          .part("space", PartType.BYTE)
          .part("kind", PartType.BYTE)
          .part("name", PartType.STRING)
          .build();

  static final KeyLayout UID_REVERSE =
      KeyLayout.named("uid reverse row")
          .part("space", PartType.BYTE)
          .part("kind", PartType.BYTE)
          .fixed("id", UID_WIDTH)
          .build();

  /**
   * A series' hour. {@code hour} is hours since the epoch (a signed int, order-preserving: good to
   * the year 240,000); {@code tags} is the run of (tagk id, tagv id) pairs sorted by tagk id.
   */
  static final KeyLayout DATA =
      KeyLayout.named("data row")
          .fixed("metric", UID_WIDTH)
          .part("hour", PartType.INT)
          .part("tags", PartType.TAIL)
          .build();

  /**
   * The salted form: a leading bucket computed from metric and tags (not the hour), so a series
   * stays in one bucket and its hours stay adjacent; a query scans every bucket.
   */
  static final KeyLayout SALTED_DATA =
      KeyLayout.named("salted data row")
          .part("salt", PartType.BYTE)
          .fixed("metric", UID_WIDTH)
          .part("hour", PartType.INT)
          .part("tags", PartType.TAIL)
          .build();

  static final List<KeyLayout> ALL =
      List.of(UID_COUNTER, UID_FORWARD, UID_REVERSE, DATA, SALTED_DATA);

  private TsdbKeys() {}
}
