package org.casebook.tsdb;

import java.util.Locale;
import org.casebook.core.InvalidInputException;

/**
 * A sub-query's {@code rollupUsage} (OpenTSDB 2.4): whether a query whose downsampling spans whole
 * hours reads the hourly rollups instead of every point.
 */
enum RollupUsage {
  /**
   * The field absent: rolled-up hours from the rollups, the hours not rolled up yet (the last hour
   * or two) from the points, so the answer is the points' answer.
   */
  AUTO,
  /** {@code ROLLUP_RAW}: the points only. */
  RAW,
  /** {@code ROLLUP_NOFALLBACK}: the rollups only; hours not rolled up yet are left out. */
  NOFALLBACK,
  /**
   * {@code ROLLUP_FALLBACK}: the rollups only, and the next finer resolution when they hold
   * nothing; with one rollup interval that is the points.
   */
  FALLBACK,
  /** {@code ROLLUP_FALLBACK_RAW}: the rollups only, and the points when they hold nothing. */
  FALLBACK_RAW;

  /**
   * OpenTSDB's names, in any case as OpenTSDB accepts them; an unknown name is refused (OpenTSDB
   * logs it and uses its default), naming {@code field}.
   */
  static RollupUsage parse(String text, String field) {
    if (text == null) {
      return AUTO;
    }
    return switch (text.toUpperCase(Locale.ROOT)) {
      case "ROLLUP_RAW" -> RAW;
      case "ROLLUP_NOFALLBACK" -> NOFALLBACK;
      case "ROLLUP_FALLBACK" -> FALLBACK;
      case "ROLLUP_FALLBACK_RAW" -> FALLBACK_RAW;
      default ->
          throw new InvalidInputException(
              field,
              "rollupUsage must be ROLLUP_RAW, ROLLUP_NOFALLBACK, ROLLUP_FALLBACK or"
                  + " ROLLUP_FALLBACK_RAW, got '"
                  + text
                  + "'");
    };
  }
}
