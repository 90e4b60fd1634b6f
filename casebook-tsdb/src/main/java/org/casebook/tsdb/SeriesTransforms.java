package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.List;

/**
 * The per-series steps before aggregation, each a list-to-list function with OpenTSDB 2.4's
 * semantics ({@code Downsampler}, {@code FillingDownsampler}, {@code RateSpan}).
 */
final class SeriesTransforms {
  private SeriesTransforms() {}

  /**
   * Downsamples one series' points (all inside {@code window}). Every output value is a double,
   * whatever the input, as in OpenTSDB.
   *
   * <ul>
   *   <li>"all": one point at the query start from the points in [queryStart, queryEnd) (end
   *       excluded, as OpenTSDB's run-all downsampler does), none if there are none.
   *   <li>Otherwise points before the first interval boundary at or after the window start are
   *       skipped (OpenTSDB seeks its downsampler there), then each interval {@code [t, t+i)} with
   *       data gives a point at {@code t}.
   *   <li>With a fill policy, every interval start from the window start (aligned down) to the
   *       window end (aligned down, excluded) gives a point, the fill value where there is no data;
   *       data in the last, partial interval is dropped as OpenTSDB does.
   * </ul>
   */
  static List<DataPoint> downsample(
      List<DataPoint> points,
      DownsampleSpec spec,
      ScanWindow window,
      long queryStartMs,
      long queryEndMs) {
    Aggregator function = spec.function();
    if (spec.runAll()) {
      double[] values = new double[points.size()];
      int n = 0;
      for (DataPoint p : points) {
        if (p.timestampMs() >= queryStartMs && p.timestampMs() < queryEndMs) {
          values[n++] = toDouble(p);
        }
      }
      return n == 0
          ? List.of()
          : List.of(DataPoint.ofDouble(queryStartMs, function.runDouble(values, n)));
    }
    long firstRead = spec.align(window.startMs() + spec.intervalMs() - 1);
    List<DataPoint> byInterval = new ArrayList<>();
    double[] values = new double[points.size()];
    int n = 0;
    long intervalStart = Long.MIN_VALUE;
    long intervalEnd = Long.MIN_VALUE; // points are ascending: align only on entering an interval
    for (DataPoint p : points) {
      long ts = p.timestampMs();
      if (ts < firstRead) {
        continue;
      }
      if (ts >= intervalEnd || ts < intervalStart) {
        if (n > 0) {
          byInterval.add(DataPoint.ofDouble(intervalStart, function.runDouble(values, n)));
          n = 0;
        }
        intervalStart = spec.align(ts);
        intervalEnd = intervalStart + spec.intervalMs();
      }
      values[n++] = toDouble(p);
    }
    if (n > 0) {
      byInterval.add(DataPoint.ofDouble(intervalStart, function.runDouble(values, n)));
    }
    return fill(byInterval, spec, window);
  }

  /**
   * Downsampled points (one per interval with data, ascending) with the spec's fill policy applied:
   * every interval start from the window start (aligned down) to the window end (aligned down,
   * excluded) gives a point, the fill value where there is no data.
   */
  static List<DataPoint> fill(List<DataPoint> byInterval, DownsampleSpec spec, ScanWindow window) {
    if (spec.fillPolicy() == FillPolicy.NONE) {
      return List.copyOf(byInterval);
    }
    List<DataPoint> filled = new ArrayList<>();
    int next = 0;
    for (long t = spec.align(window.startMs());
        t < spec.align(window.endMs());
        t += spec.intervalMs()) {
      while (next < byInterval.size() && byInterval.get(next).timestampMs() < t) {
        next++;
      }
      if (next < byInterval.size() && byInterval.get(next).timestampMs() == t) {
        filled.add(byInterval.get(next++));
      } else {
        filled.add(DataPoint.ofDouble(t, fillValue(spec.fillPolicy())));
      }
    }
    return List.copyOf(filled);
  }

  static double fillValue(FillPolicy policy) {
    return switch (policy) {
      case ZERO -> 0.0;
      case NAN, NULL -> Double.NaN;
      // OpenTSDB 2.4.1 parses "scalar" but its downsampler cannot fill with it (HTTP 500).
      case SCALAR, NONE ->
          throw new IllegalStateException("unhandled fill policy " + policy.text());
    };
  }

  /**
   * Per-second rates, each at the later point's time, as OpenTSDB's {@code RateSpan}: the first
   * rate is taken against a virtual integer 0 at time 0 (the group then uses it only as a previous
   * value), integer differences use {@code long} arithmetic, a counter that goes down is taken to
   * have rolled over at {@code counterMax} (or its point is dropped with {@code dropResets}), and a
   * counter rate above a positive {@code resetValue} becomes 0.
   */
  static List<DataPoint> rate(List<DataPoint> points, RateOptions options) {
    List<DataPoint> rates = new ArrayList<>(points.size());
    DataPoint previous = DataPoint.ofLong(0, 0);
    for (DataPoint next : points) {
      if (next.timestampMs() <= previous.timestampMs()) {
        throw new IllegalStateException(
            "Next timestamp ("
                + next.timestampMs()
                + ") is supposed to be strictly greater than the previous one ("
                + previous.timestampMs()
                + ")");
      }
      double seconds = (double) (next.timestampMs() - previous.timestampMs()) / 1000.0;
      boolean integers = previous.integer() && next.integer();
      double difference =
          integers ? next.longValue() - previous.longValue() : toDouble(next) - toDouble(previous);
      if (options.counter() && difference < 0) {
        if (options.dropResets()) {
          previous = next;
          continue;
        }
        difference =
            integers
                ? options.counterMax() - previous.longValue() + next.longValue()
                : options.counterMax() - toDouble(previous) + toDouble(next);
        double rate = difference / seconds;
        if (options.resetValue() > 0 && rate > options.resetValue()) {
          rate = 0.0;
        }
        rates.add(DataPoint.ofDouble(next.timestampMs(), rate));
      } else {
        rates.add(DataPoint.ofDouble(next.timestampMs(), difference / seconds));
      }
      previous = next;
    }
    return List.copyOf(rates);
  }

  static double toDouble(DataPoint p) {
    return p.integer() ? (double) p.longValue() : p.doubleValue();
  }
}
