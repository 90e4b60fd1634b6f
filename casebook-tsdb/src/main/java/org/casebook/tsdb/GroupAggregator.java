package org.casebook.tsdb;

import java.util.List;

/**
 * Merges the (downsampled, rate) point lists of one group's series into one aggregated list, with
 * the rules of OpenTSDB 2.4's {@code AggregationIterator}:
 *
 * <ul>
 *   <li>One output point per distinct timestamp of any series, in time order, up to the window end.
 *   <li>At each, every series that has started and not yet ended contributes: its own value if it
 *       has a point there, else a value by the aggregator's {@link Interpolation} between its
 *       previous and next points. A series contributes nothing before its first point or after its
 *       last.
 *   <li>The integer path ({@link Aggregator#runLong}, long LERP) is used only when no rate is
 *       computed and no current or next point of ANY series of the group is a float.
 *   <li>With a rate, the first rate of each series (against time 0) is its starting previous value
 *       and is never output itself; a series with a single rate contributes nothing; a missing rate
 *       is the series' previous rate, never interpolated.
 * </ul>
 */
final class GroupAggregator {
  private static final long END = Long.MAX_VALUE;
  private static final long NO_CURRENT = 0;

  private final List<List<DataPoint>> series;
  private final Aggregator aggregator;
  private final boolean rate;
  private final long endMs;
  private final int[] position;
  private final long[] currentTs;
  private final DataPoint[] current;
  private final long[] nextTs;
  private final DataPoint[] next;
  // Reused for every output point: the aggregators read values[0..n) and copy before sorting.
  private final long[] longValues;
  private final double[] doubleValues;
  private int currentSeries;

  private GroupAggregator(
      List<List<DataPoint>> series, long startMs, long endMs, Aggregator aggregator, boolean rate) {
    this.series = series;
    this.aggregator = aggregator;
    this.rate = rate;
    this.endMs = endMs;
    int size = series.size();
    position = new int[size];
    currentTs = new long[size];
    current = new DataPoint[size];
    nextTs = new long[size];
    next = new DataPoint[size];
    longValues = new long[size];
    doubleValues = new double[size];
    for (int i = 0; i < size; i++) {
      List<DataPoint> points = series.get(i);
      int first = 0;
      while (first < points.size() && points.get(first).timestampMs() < startMs) {
        first++;
      }
      if (first == points.size()) {
        nextTs[i] = END;
        continue;
      }
      next[i] = points.get(first);
      nextTs[i] = next[i].timestampMs();
      position[i] = first + 1;
      if (rate) {
        if (position[i] < points.size()) {
          advance(i);
        } else {
          nextTs[i] = END;
        }
      }
    }
  }

  /** Takes the aggregated points in time order: each an integer or a double. */
  interface PointSink {
    void accept(long timestampMs, boolean integer, long longValue, double doubleValue);
  }

  /**
   * Aggregates the series (each in time order) over [startMs, endMs] into {@code sink}; its points
   * are integers only on the integer path.
   */
  static void aggregate(
      List<List<DataPoint>> series,
      long startMs,
      long endMs,
      Aggregator aggregator,
      boolean rate,
      PointSink sink) {
    // Time 0 is the merge's mark for "no current point": a range from 0 takes the merge's way.
    if (series.size() == 1 && !rate && startMs > 0) {
      alone(series.get(0), startMs, endMs, aggregator, sink);
      return;
    }
    GroupAggregator group = new GroupAggregator(series, startMs, endMs, aggregator, rate);
    while (group.hasNext()) {
      DataPoint p = group.next();
      sink.accept(p.timestampMs(), p.integer(), p.longValue(), p.doubleValue());
    }
  }

  /**
   * A group of one series without a rate, as the merge would give it: each point in [startMs,
   * endMs] aggregated alone, on the integer path when it and the point after it are integers.
   */
  private static void alone(
      List<DataPoint> points, long startMs, long endMs, Aggregator aggregator, PointSink sink) {
    long[] longValue = new long[1];
    double[] doubleValue = new double[1];
    if (points instanceof DataPoints doubles) {
      // Doubles only, read from their arrays: always the double path.
      for (int i = 0; i < doubles.size(); i++) {
        long x = doubles.timestampMs(i);
        if (x < startMs) {
          continue;
        }
        if (x > endMs) {
          break;
        }
        doubleValue[0] = doubles.value(i);
        double v = finite(aggregator.runDouble(doubleValue, 1), x);
        sink.accept(x, false, (long) v, v);
      }
      return;
    }
    int size = points.size();
    for (int i = 0; i < size; i++) {
      DataPoint p = points.get(i);
      long x = p.timestampMs();
      if (x < startMs) {
        continue;
      }
      if (x > endMs) {
        break;
      }
      boolean nextIsInteger = i + 1 == size || points.get(i + 1).integer();
      if (p.integer() && nextIsInteger) {
        longValue[0] = p.longValue();
        long v = aggregator.runLong(longValue, 1);
        sink.accept(x, true, v, v);
      } else {
        doubleValue[0] = SeriesTransforms.toDouble(p);
        double v = finite(aggregator.runDouble(doubleValue, 1), x);
        sink.accept(x, false, (long) v, v);
      }
    }
  }

  private void advance(int i) {
    currentTs[i] = nextTs[i];
    current[i] = next[i];
    List<DataPoint> points = series.get(i);
    if (position[i] < points.size()) {
      next[i] = points.get(position[i]++);
      nextTs[i] = next[i].timestampMs();
    } else {
      nextTs[i] = END;
    }
  }

  private boolean hasNext() {
    for (long ts : nextTs) {
      if (ts <= endMs) {
        return true;
      }
    }
    return false;
  }

  private DataPoint next() {
    int size = series.size();
    // A series whose last point was consumed stops contributing. OpenTSDB only checks from the
    // previously chosen series on; the ones before it cannot have ended since, so this is exact.
    for (int i = currentSeries; i < size; i++) {
      if (nextTs[i] == END) {
        currentTs[i] = NO_CURRENT;
      }
    }
    long min = Long.MAX_VALUE;
    int chosen = -1;
    for (int i = 0; i < size; i++) {
      if (nextTs[i] <= endMs && nextTs[i] < min) {
        min = nextTs[i];
        chosen = i;
      }
    }
    currentSeries = chosen;
    advance(chosen);
    for (int i = chosen + 1; i < size; i++) {
      if (nextTs[i] == min) {
        advance(i);
      }
    }
    long x = currentTs[chosen];
    int n = 0;
    if (isInteger()) {
      long[] values = longValues;
      for (int i = 0; i < size; i++) {
        if (currentTs[i] != NO_CURRENT) {
          values[n++] = longAt(i, x);
        }
      }
      return DataPoint.ofLong(x, aggregator.runLong(values, n));
    }
    double[] values = doubleValues;
    for (int i = 0; i < size; i++) {
      if (currentTs[i] != NO_CURRENT) {
        values[n++] = doubleAt(i, x);
      }
    }
    return DataPoint.ofDouble(x, finite(aggregator.runDouble(values, n), x));
  }

  private static double finite(double value, long x) {
    if (Double.isInfinite(value)) {
      // OpenTSDB fails the query (HTTP 500) rather than print an infinite aggregate.
      throw new IllegalStateException("Got Infinity: " + value + " aggregating at " + x);
    }
    return value;
  }

  private boolean isInteger() {
    if (rate) {
      return false;
    }
    for (int i = 0; i < series.size(); i++) {
      if (currentTs[i] != NO_CURRENT && !current[i].integer()) {
        return false;
      }
      if (nextTs[i] != END && !next[i].integer()) {
        return false;
      }
    }
    return true;
  }

  private long longAt(int i, long x) {
    long y0 = current[i].longValue();
    long x0 = currentTs[i];
    if (i == currentSeries || x == x0) {
      return y0;
    }
    long x1 = nextTs[i];
    requireNextPoint(x1);
    long y1 = next[i].longValue();
    if (x == x1) {
      return y1;
    }
    return switch (aggregator.interpolation()) {
      case LERP -> y0 + (x - x0) * (y1 - y0) / (x1 - x0);
      case ZIM -> 0;
      case MAX -> Long.MAX_VALUE;
      case MIN -> Long.MIN_VALUE;
      case PREV -> y0;
    };
  }

  private double doubleAt(int i, long x) {
    double y0 = SeriesTransforms.toDouble(current[i]);
    long x0 = currentTs[i];
    if (i == currentSeries || rate || x == x0) {
      return y0;
    }
    long x1 = nextTs[i];
    requireNextPoint(x1);
    double y1 = SeriesTransforms.toDouble(next[i]);
    if (x == x1) {
      return y1;
    }
    return switch (aggregator.interpolation()) {
      case LERP -> y0 + (x - x0) * (y1 - y0) / (x1 - x0);
      case ZIM -> 0;
      case MAX -> Double.MAX_VALUE;
      case MIN -> -Double.MAX_VALUE;
      case PREV -> y0;
    };
  }

  // Unreachable while ended series are cleared before use; OpenTSDB asserts the same.
  private static void requireNextPoint(long x1) {
    if (x1 == END) {
      throw new IllegalStateException("interpolating towards a series' end");
    }
  }
}
