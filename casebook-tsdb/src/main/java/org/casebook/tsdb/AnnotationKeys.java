package org.casebook.tsdb;

import java.util.Arrays;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.key.KeyRange;

/**
 * Row keys of the annotation table: global notes by start time, series notes by metric, start time
 * and tag run, so the notes of a query's metric over its range are one bounded scan and a note is
 * one get by its tsuid and start.
 *
 * <pre>
 * 0x00 | start ms                          a global annotation
 * 0x01 | metric id | start ms | tag run    a series annotation (the tsuid split at the metric)
 * </pre>
 */
final class AnnotationKeys {
  static final int GLOBAL_SPACE = 0;
  static final int SERIES_SPACE = 1;

  static final KeyLayout GLOBAL =
      KeyLayout.named("global annotation row")
          .part("space", PartType.BYTE)
          .part("start", PartType.LONG)
          .build();

  static final KeyLayout SERIES =
      KeyLayout.named("series annotation row")
          .part("space", PartType.BYTE)
          .fixed("metric", TsdbKeys.UID_WIDTH)
          .part("start", PartType.LONG)
          .part("tags", PartType.TAIL)
          .build();

  private AnnotationKeys() {}

  /** A tsuid's bytes split at the metric: {metric id, tag run}; errors name {@code field}. */
  static byte[][] parseTsuid(String tsuid, String field) {
    if (tsuid.length() % 2 != 0 || !tsuid.matches("[0-9A-Fa-f]+")) {
      throw new InvalidInputException(field, "Invalid tsuid (not hex bytes): '" + tsuid + "'");
    }
    byte[] b = new byte[tsuid.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(tsuid.substring(2 * i, 2 * i + 2), 16);
    }
    int tags = b.length - TsdbKeys.UID_WIDTH;
    if (tags < TsdbKeys.TAG_PAIR_WIDTH || tags % TsdbKeys.TAG_PAIR_WIDTH != 0) {
      throw new InvalidInputException(
          field,
          "Invalid tsuid '"
              + tsuid
              + "': a metric id of 3 bytes and one or more tag pairs of 6 bytes expected");
    }
    return new byte[][] {
      Arrays.copyOf(b, TsdbKeys.UID_WIDTH), Arrays.copyOfRange(b, TsdbKeys.UID_WIDTH, b.length)
    };
  }

  /** The row of the annotation of {@code tsuid} (empty: global) at {@code startMs}. */
  static byte[] row(String tsuid, long startMs) {
    if (tsuid.isEmpty()) {
      return GLOBAL.encode(GLOBAL_SPACE, startMs);
    }
    byte[][] parts = parseTsuid(tsuid, "tsuid");
    return SERIES.encode(SERIES_SPACE, parts[0], startMs, parts[1]);
  }

  /** Global annotations starting in {@code [fromMs, toMs]}. */
  static KeyRange globals(long fromMs, long toMs) {
    return KeyRange.between(
        GLOBAL.prefix(GLOBAL_SPACE, fromMs), GLOBAL.prefix(GLOBAL_SPACE, toMs + 1));
  }

  /** Annotations of {@code metric}'s series starting in {@code [fromMs, toMs]}. */
  static KeyRange series(byte[] metric, long fromMs, long toMs) {
    return KeyRange.between(
        SERIES.prefix(SERIES_SPACE, metric, fromMs), SERIES.prefix(SERIES_SPACE, metric, toMs + 1));
  }

  /** The tag run of a series annotation row. */
  static byte[] tags(byte[] row) {
    return (byte[]) SERIES.decode(row).get("tags");
  }
}
