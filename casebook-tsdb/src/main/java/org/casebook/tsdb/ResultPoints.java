package org.casebook.tsdb;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A group's answer points held in arrays, read by position: an answer over a month holds tens of
 * thousands of points, which its writer reads without an object per point. As a list it is
 * immutable and gives each point as a {@link ResultPoint} equal to the one it was built from.
 */
public final class ResultPoints extends AbstractList<ResultPoint> implements RandomAccess {
  private final long[] times;
  private final ResultPoint.Kind[] kinds;
  private final long[] longValues;
  private final double[] doubleValues;
  private final int size;

  private ResultPoints(
      long[] times, ResultPoint.Kind[] kinds, long[] longValues, double[] doubleValues, int size) {
    this.times = times;
    this.kinds = kinds;
    this.longValues = longValues;
    this.doubleValues = doubleValues;
    this.size = size;
  }

  /** {@code points} as arrays: the same list when it is one already. */
  public static ResultPoints of(List<ResultPoint> points) {
    if (points instanceof ResultPoints held) {
      return held;
    }
    Builder b = new Builder(points.size());
    for (ResultPoint p : points) {
      b.add(p);
    }
    return b.build();
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public ResultPoint get(int i) {
    return new ResultPoint(timestampMs(i), kind(i), longValue(i), doubleValue(i));
  }

  /** The {@code i}th point's {@link ResultPoint#timestampMs()}. */
  public long timestampMs(int i) {
    return times[checked(i)];
  }

  /** The {@code i}th point's {@link ResultPoint#kind()}. */
  public ResultPoint.Kind kind(int i) {
    return kinds[checked(i)];
  }

  /** The {@code i}th point's {@link ResultPoint#longValue()}. */
  public long longValue(int i) {
    return longValues[checked(i)];
  }

  /** The {@code i}th point's {@link ResultPoint#doubleValue()}. */
  public double doubleValue(int i) {
    return doubleValues[checked(i)];
  }

  private int checked(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("point " + i + " of " + size);
    }
    return i;
  }

  /** Points added in order, then built once. */
  static final class Builder {
    private long[] times;
    private ResultPoint.Kind[] kinds;
    private long[] longValues;
    private double[] doubleValues;
    private int size;

    Builder(int capacity) {
      int c = Math.max(capacity, 4);
      times = new long[c];
      kinds = new ResultPoint.Kind[c];
      longValues = new long[c];
      doubleValues = new double[c];
    }

    void add(ResultPoint p) {
      add(p.timestampMs(), p.kind(), p.longValue(), p.doubleValue());
    }

    /** As {@link ResultPoint#ofLong}. */
    void addLong(long timestampMs, long value) {
      add(timestampMs, ResultPoint.Kind.INTEGER, value, value);
    }

    /** As {@link ResultPoint#ofDouble}. */
    void addDouble(long timestampMs, double value) {
      add(timestampMs, ResultPoint.Kind.DOUBLE, (long) value, value);
    }

    /** As {@link ResultPoint#ofNull}. */
    void addNull(long timestampMs) {
      add(timestampMs, ResultPoint.Kind.NULL, 0, Double.NaN);
    }

    private void add(long timestampMs, ResultPoint.Kind kind, long longValue, double doubleValue) {
      if (times == null) {
        throw new IllegalStateException("the points were built already");
      }
      if (size == times.length) {
        int grown = size * 2;
        times = Arrays.copyOf(times, grown);
        kinds = Arrays.copyOf(kinds, grown);
        longValues = Arrays.copyOf(longValues, grown);
        doubleValues = Arrays.copyOf(doubleValues, grown);
      }
      times[size] = timestampMs;
      kinds[size] = kind;
      longValues[size] = longValue;
      doubleValues[size] = doubleValue;
      size++;
    }

    ResultPoints build() {
      ResultPoints built = new ResultPoints(times, kinds, longValues, doubleValues, size);
      // The arrays now belong to the list: a later add must not change it.
      times = null;
      return built;
    }
  }
}
