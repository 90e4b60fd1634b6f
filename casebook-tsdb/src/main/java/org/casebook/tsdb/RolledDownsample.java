package org.casebook.tsdb;

import java.util.List;

/**
 * Downsampling from hourly rollups: the answer {@link SeriesTransforms#downsample} gives from the
 * points, for intervals of whole hours and the functions a rollup holds. Within an hour the rollup
 * was computed as the downsampler computes (time order, NaN skipped), so an interval of one hour
 * gives the same double; a longer interval adds hourly sums, which may differ from adding every
 * point in the last bits of a double.
 */
final class RolledDownsample {
  private static final long HOUR_MS = 3_600_000L;

  private RolledDownsample() {}

  /** Whether hourly rollups can answer {@code sub}'s downsampling. */
  static boolean answers(SubQuery sub) {
    if (sub.downsample().isEmpty()) {
      return false;
    }
    DownsampleSpec spec = sub.downsample().get();
    return !spec.runAll()
        && spec.intervalMs() % HOUR_MS == 0
        && HourRollup.answers(spec.function().function());
  }

  /** Appends the rollups of {@code points} (ascending), one per hour holding any, to {@code to}. */
  static void addHours(List<DataPoint> points, RolledHours to) {
    int from = 0;
    while (from < points.size()) {
      int hour = TsdbKeys.hourOf(points.get(from).timestampMs());
      int end = from + 1;
      while (end < points.size() && TsdbKeys.hourOf(points.get(end).timestampMs()) == hour) {
        end++;
      }
      to.add(hour, HourRollup.of(points, from, end));
      from = end;
    }
  }

  /**
   * One series' downsampled points from its hourly rollups (ascending hours, all inside {@code
   * window}), the fill policy applied.
   */
  static List<DataPoint> downsample(RolledHours hours, DownsampleSpec spec, ScanWindow window) {
    Aggregator.Function function = spec.function().function();
    long[] times = new long[hours.size()];
    double[] values = new double[hours.size()];
    int n = 0;
    if (spec.intervalMs() == HOUR_MS) {
      // Each hour is its own interval: its rollup is the interval's, as the loop below would
      // find by adding it to an empty one.
      for (int i = 0; i < hours.size(); i++) {
        if (hours.points(i) > 0) {
          times[n] = TsdbKeys.hourStartMs(hours.hour(i));
          values[n++] = hours.value(i, function);
        }
      }
      return fill(times, values, n, spec, window);
    }
    HourRollup interval = HourRollup.EMPTY;
    long intervalStart = Long.MIN_VALUE;
    for (int i = 0; i < hours.size(); i++) {
      if (hours.points(i) == 0) {
        continue; // an hour whose points were all deleted
      }
      long start = spec.align(TsdbKeys.hourStartMs(hours.hour(i)));
      if (start != intervalStart) {
        if (interval.points() > 0) {
          times[n] = intervalStart;
          values[n++] = interval.value(function);
        }
        interval = HourRollup.EMPTY;
        intervalStart = start;
      }
      interval = interval.then(hours.rollup(i));
    }
    if (interval.points() > 0) {
      times[n] = intervalStart;
      values[n++] = interval.value(function);
    }
    return fill(times, values, n, spec, window);
  }

  /**
   * {@link SeriesTransforms#fill} of the first {@code n} points of the arrays, held in arrays: an
   * interval start from the window start (aligned down) to the window end (aligned down, excluded)
   * each, the fill value where there is no point; with fill policy {@code none}, the points.
   */
  private static List<DataPoint> fill(
      long[] times, double[] values, int n, DownsampleSpec spec, ScanWindow window) {
    if (spec.fillPolicy() == FillPolicy.NONE) {
      return new DataPoints(times, values, n);
    }
    long first = spec.align(window.startMs());
    long last = spec.align(window.endMs());
    int intervals = (int) Math.max(0, (last - first + spec.intervalMs() - 1) / spec.intervalMs());
    long[] filledTimes = new long[intervals];
    double[] filledValues = new double[intervals];
    int next = 0;
    int k = 0;
    for (long t = first; t < last; t += spec.intervalMs()) {
      while (next < n && times[next] < t) {
        next++;
      }
      filledTimes[k] = t;
      filledValues[k++] =
          next < n && times[next] == t
              ? values[next++]
              : SeriesTransforms.fillValue(spec.fillPolicy());
    }
    return new DataPoints(filledTimes, filledValues, k);
  }
}
