package org.casebook.tsdb;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Double points in time order held in arrays: a series downsampled from its hourly rollups, read by
 * position without an object per point (a month by host is tens of thousands of them). As a list it
 * is immutable and gives each point as {@link DataPoint#ofDouble} would.
 */
final class DataPoints extends AbstractList<DataPoint> implements RandomAccess {
  private final long[] times;
  private final double[] values;
  private final int from;
  private final int size;

  /** Takes over the first {@code size} of each array: the caller must not change them. */
  DataPoints(long[] times, double[] values, int size) {
    this(times, values, 0, size);
  }

  private DataPoints(long[] times, double[] values, int from, int size) {
    if (from < 0 || size < 0 || from + size > times.length || from + size > values.length) {
      throw new IllegalArgumentException("points " + from + " + " + size + " out of the arrays");
    }
    this.times = times;
    this.values = values;
    this.from = from;
    this.size = size;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public DataPoint get(int i) {
    return DataPoint.ofDouble(timestampMs(i), value(i));
  }

  long timestampMs(int i) {
    return times[from + checked(i)];
  }

  double value(int i) {
    return values[from + checked(i)];
  }

  private int checked(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("point " + i + " of " + size);
    }
    return i;
  }

  @Override
  public List<DataPoint> subList(int fromIndex, int toIndex) {
    if (fromIndex < 0 || toIndex > size || fromIndex > toIndex) {
      throw new IndexOutOfBoundsException(fromIndex + ".." + toIndex + " of " + size);
    }
    return new DataPoints(times, values, from + fromIndex, toIndex - fromIndex);
  }
}
