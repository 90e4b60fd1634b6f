package org.casebook.tsdb;

/**
 * One point of a query answer, typed as OpenTSDB 2.4.1 prints it in {@code dps}.
 *
 * <ul>
 *   <li>{@link Kind#INTEGER}: print {@link #longValue()} as a JSON integer ({@code Long.toString}).
 *       Only raw (not downsampled, not rate) integer points give integers, and an aggregated point
 *       is an integer only when every value it aggregated or interpolated from, and every series'
 *       next point, is an integer.
 *   <li>{@link Kind#DOUBLE}: print {@code Double.toString(doubleValue())} as a JSON number
 *       (Jackson's output: {@code 1.0}, {@code 0.1}, {@code 1.0E-4}, {@code 1.2345678E7}; Java 17's
 *       algorithm, the same as OpenTSDB's Java 8); NaN prints as the JSON string {@code "NaN"}.
 *   <li>{@link Kind#NULL}: print JSON {@code null}; a NaN of a query whose fill policy is "null".
 * </ul>
 *
 * <p>The key is {@code timestampMs / 1000} as a string unless the query asked for {@code
 * msResolution} (then {@code timestampMs}); OpenTSDB then writes several points of the same second
 * under the same key, repeated.
 *
 * @param timestampMs milliseconds since the epoch
 * @param kind how to print the value
 * @param longValue the value when INTEGER
 * @param doubleValue the value when DOUBLE (NaN when NULL)
 */
public record ResultPoint(long timestampMs, Kind kind, long longValue, double doubleValue) {

  /** How the value prints. */
  public enum Kind {
    INTEGER,
    DOUBLE,
    NULL
  }

  static ResultPoint ofLong(long timestampMs, long value) {
    return new ResultPoint(timestampMs, Kind.INTEGER, value, value);
  }

  static ResultPoint ofDouble(long timestampMs, double value) {
    return new ResultPoint(timestampMs, Kind.DOUBLE, (long) value, value);
  }

  static ResultPoint ofNull(long timestampMs) {
    return new ResultPoint(timestampMs, Kind.NULL, 0, Double.NaN);
  }
}
