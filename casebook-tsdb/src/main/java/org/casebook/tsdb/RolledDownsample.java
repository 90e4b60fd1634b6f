package org.casebook.tsdb;

import java.util.ArrayList;
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
  static void addHours(List<DataPoint> points, List<RollupStore.RolledHour> to) {
    int from = 0;
    while (from < points.size()) {
      int hour = TsdbKeys.hourOf(points.get(from).timestampMs());
      int end = from + 1;
      while (end < points.size() && TsdbKeys.hourOf(points.get(end).timestampMs()) == hour) {
        end++;
      }
      to.add(new RollupStore.RolledHour(hour, HourRollup.of(points, from, end)));
      from = end;
    }
  }

  /**
   * One series' downsampled points from its hourly rollups (ascending hours, all inside {@code
   * window}), the fill policy applied.
   */
  static List<DataPoint> downsample(
      List<RollupStore.RolledHour> hours, DownsampleSpec spec, ScanWindow window) {
    Aggregator.Function function = spec.function().function();
    List<DataPoint> byInterval = new ArrayList<>(hours.size());
    if (spec.intervalMs() == HOUR_MS) {
      // Each hour is its own interval: its rollup is the interval's, as the loop below would
      // find by adding it to an empty one.
      for (RollupStore.RolledHour h : hours) {
        if (h.rollup().points() > 0) {
          byInterval.add(
              DataPoint.ofDouble(TsdbKeys.hourStartMs(h.hour()), h.rollup().value(function)));
        }
      }
      return SeriesTransforms.fill(byInterval, spec, window);
    }
    HourRollup interval = HourRollup.EMPTY;
    long intervalStart = Long.MIN_VALUE;
    for (RollupStore.RolledHour h : hours) {
      if (h.rollup().points() == 0) {
        continue; // an hour whose points were all deleted
      }
      long start = spec.align(TsdbKeys.hourStartMs(h.hour()));
      if (start != intervalStart) {
        if (interval.points() > 0) {
          byInterval.add(DataPoint.ofDouble(intervalStart, interval.value(function)));
        }
        interval = HourRollup.EMPTY;
        intervalStart = start;
      }
      interval = interval.then(h.rollup());
    }
    if (interval.points() > 0) {
      byInterval.add(DataPoint.ofDouble(intervalStart, interval.value(function)));
    }
    return SeriesTransforms.fill(byInterval, spec, window);
  }
}
