package org.casebook.tsdb;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * What one series' points of one hour (or of several, merged) come to: the downsampling functions a
 * rollup can answer ({@code sum}, {@code count}, {@code min}, {@code max}, {@code avg}) computed as
 * {@link Aggregator#runDouble} computes them over the same points in time order, NaN values
 * skipped.
 *
 * @param points points seen, NaN included (an interval with only NaN still gives a point)
 * @param counted points that are not NaN
 * @param sum their sum, added in time order from 0 (0 when none)
 * @param min their least (+Infinity when none)
 * @param max their greatest (-Infinity when none)
 */
record HourRollup(int points, int counted, double sum, double min, double max) {
  static final HourRollup EMPTY =
      new HourRollup(0, 0, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);

  /** Encoded width: two ints and three doubles. */
  static final int BYTES = 2 * Integer.BYTES + 3 * Double.BYTES;

  /** The rollup of {@code points[from, to)}, in time order. */
  static HourRollup of(List<DataPoint> points, int from, int to) {
    int counted = 0;
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double v = SeriesTransforms.toDouble(points.get(i));
      if (Double.isNaN(v)) {
        continue;
      }
      counted++;
      sum += v;
      // Comparisons, not Math.min: a later equal value (0.0 after -0.0) does not replace, as in
      // Aggregator.runDouble.
      min = v < min ? v : min;
      max = v > max ? v : max;
    }
    return new HourRollup(to - from, counted, sum, min, max);
  }

  /** This and a later hour together (sums added in that order). */
  HourRollup then(HourRollup later) {
    return new HourRollup(
        points + later.points,
        counted + later.counted,
        sum + later.sum,
        later.min < min ? later.min : min,
        later.max > max ? later.max : max);
  }

  /**
   * The value {@code function} gives over the points this rolls up, as {@link
   * Aggregator#runDouble}: NaN where it has no value that is not NaN ({@code count} gives 0).
   */
  double value(Aggregator.Function function) {
    return value(function, counted, sum, min, max);
  }

  /** {@link #value(Aggregator.Function)} of a rollup given by its fields. */
  static double value(
      Aggregator.Function function, int counted, double sum, double min, double max) {
    return switch (function) {
      case SUM -> counted == 0 ? Double.NaN : sum;
      case COUNT -> counted;
      case MIN -> counted == 0 ? Double.NaN : min;
      case MAX -> counted == 0 ? Double.NaN : max;
      case AVG -> counted == 0 ? Double.NaN : sum / counted;
      default -> throw new IllegalArgumentException("no rollup answers " + function);
    };
  }

  /** Whether a rollup answers downsampling with {@code function}. */
  static boolean answers(Aggregator.Function function) {
    return switch (function) {
      case SUM, COUNT, MIN, MAX, AVG -> true;
      default -> false;
    };
  }

  byte[] encode() {
    return ByteBuffer.allocate(BYTES)
        .putInt(points)
        .putInt(counted)
        .putDouble(sum)
        .putDouble(min)
        .putDouble(max)
        .array();
  }

  static HourRollup decode(byte[] cell) {
    if (cell.length != BYTES) {
      throw new IllegalArgumentException(
          "a rollup cell has " + BYTES + " bytes, not " + cell.length);
    }
    return read(ByteBuffer.wrap(cell));
  }

  /** Reads a rollup at {@code b}'s position, as {@link #encode} wrote it, and moves past it. */
  static HourRollup read(ByteBuffer b) {
    return new HourRollup(b.getInt(), b.getInt(), b.getDouble(), b.getDouble(), b.getDouble());
  }
}
