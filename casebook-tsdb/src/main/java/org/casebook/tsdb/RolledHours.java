package org.casebook.tsdb;

import java.util.Arrays;

/**
 * One series' hourly rollups, hours ascending, held in arrays: a month of a hundred series is tens
 * of thousands of hours per query, read without an object per hour. Not thread-safe: filled by one
 * reader, then read.
 */
final class RolledHours {
  private int[] hours;
  private int[] points;
  private int[] counted;
  private double[] sums;
  private double[] mins;
  private double[] maxes;
  private int size;

  RolledHours(int capacity) {
    int c = Math.max(capacity, 4);
    hours = new int[c];
    points = new int[c];
    counted = new int[c];
    sums = new double[c];
    mins = new double[c];
    maxes = new double[c];
  }

  /** Appends {@code hour}'s rollup; it must be later than the last hour added. */
  void add(int hour, HourRollup rollup) {
    add(hour, rollup.points(), rollup.counted(), rollup.sum(), rollup.min(), rollup.max());
  }

  /** Appends {@code hour}'s rollup given by its fields ({@link HourRollup}'s). */
  void add(int hour, int points, int counted, double sum, double min, double max) {
    if (size > 0 && hour <= hours[size - 1]) {
      throw new IllegalArgumentException(
          "hour " + hour + " is not after the last one, " + hours[size - 1]);
    }
    if (size == hours.length) {
      grow(size * 2);
    }
    hours[size] = hour;
    this.points[size] = points;
    this.counted[size] = counted;
    sums[size] = sum;
    mins[size] = min;
    maxes[size] = max;
    size++;
  }

  /** Appends every hour of {@code later}, all after this one's. */
  void addAll(RolledHours later) {
    if (size + later.size > hours.length) {
      grow(size + later.size);
    }
    for (int i = 0; i < later.size; i++) {
      add(
          later.hours[i],
          later.points[i],
          later.counted[i],
          later.sums[i],
          later.mins[i],
          later.maxes[i]);
    }
  }

  private void grow(int capacity) {
    hours = Arrays.copyOf(hours, capacity);
    points = Arrays.copyOf(points, capacity);
    counted = Arrays.copyOf(counted, capacity);
    sums = Arrays.copyOf(sums, capacity);
    mins = Arrays.copyOf(mins, capacity);
    maxes = Arrays.copyOf(maxes, capacity);
  }

  int size() {
    return size;
  }

  int hour(int i) {
    return hours[checked(i)];
  }

  /** The points the {@code i}th hour saw, NaN included (0: all were deleted). */
  int points(int i) {
    return points[checked(i)];
  }

  HourRollup rollup(int i) {
    checked(i);
    return new HourRollup(points[i], counted[i], sums[i], mins[i], maxes[i]);
  }

  /** {@link HourRollup#value} of the {@code i}th hour. */
  double value(int i, Aggregator.Function function) {
    checked(i);
    return HourRollup.value(function, counted[i], sums[i], mins[i], maxes[i]);
  }

  /** Whether any hour saw a point. */
  boolean anyPoints() {
    for (int i = 0; i < size; i++) {
      if (points[i] > 0) {
        return true;
      }
    }
    return false;
  }

  private int checked(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("hour " + i + " of " + size);
    }
    return i;
  }
}
