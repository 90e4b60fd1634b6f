package org.casebook.tsdb;

/**
 * One stored point. OpenTSDB keeps integers and floats apart (an integer sum stays an integer, a
 * float is printed as a float), so the value carries its kind; {@link #doubleValue()} is exact for
 * integers up to 2^53.
 *
 * @param timestampMs milliseconds since the epoch
 * @param integer whether the value was written as an integer
 * @param longValue the value when {@code integer}
 * @param doubleValue the value when not {@code integer} (and {@code longValue} widened otherwise)
 */
public record DataPoint(long timestampMs, boolean integer, long longValue, double doubleValue) {

  static DataPoint ofLong(long timestampMs, long value) {
    return new DataPoint(timestampMs, true, value, value);
  }

  static DataPoint ofDouble(long timestampMs, double value) {
    return new DataPoint(timestampMs, false, (long) value, value);
  }
}
