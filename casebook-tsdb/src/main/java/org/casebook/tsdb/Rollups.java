package org.casebook.tsdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hourly rollups (count, sum, min, max of each series' hour), written beside the points so that a
 * long query downsampled by whole hours reads one cell per series and hour instead of every point.
 *
 * <ul>
 *   <li>A <b>rollup pass</b> walks each metric's finished hours in order (an hour is finished once
 *       it has been over for the compaction delay), writes their rollups and then records the hour
 *       before which the metric is rolled up. A pass after a restart, or over data written before
 *       rollups existed, starts at the metric's first hour and goes forward a week at a time.
 *   <li>A <b>late point</b> (one for an hour already rolled up) makes its row need compaction; the
 *       compaction rolls the row up again. Until then rollup answers miss it.
 *   <li>A <b>delete</b> of points rolls up again each row it rewrote; retention purges the rollups
 *       of the hours it purges.
 * </ul>
 */
final class Rollups {
  private static final Logger LOG = LoggerFactory.getLogger(Rollups.class);

  /** Hours a pass reads before it records its progress. */
  static final int HOURS_PER_STEP = 24 * 7;

  private static final int PUT_BATCH = 10_000;

  private final DataRowStore points;
  private final RollupStore store;
  private final Clock clock;
  private final long delayMs;
  private final Map<ByteBuffer, Integer> rolledBefore = new ConcurrentHashMap<>();
  private final Counter rolledRows;
  private final Object passLock = new Object();
  private int lastPassOpenHour = Integer.MIN_VALUE;

  Rollups(
      DataRowStore points,
      RollupStore store,
      Clock clock,
      int delaySeconds,
      MeterRegistry metrics) {
    this.points = points;
    this.store = store;
    this.clock = clock;
    this.delayMs = delaySeconds * 1000L;
    this.rolledRows = metrics.counter("casebook.tsdb.rollup.rows");
  }

  RollupStore store() {
    return store;
  }

  /** The first hour not finished: hours before it are over by the compaction delay. */
  int firstOpenHour() {
    return TsdbKeys.hourOf(clock.millis() - delayMs);
  }

  /**
   * Rolls up the finished hours of every metric {@code metrics} gives that are not rolled up yet:
   * rows rolled up. Without {@code force}, does nothing unless an hour finished since the last
   * pass.
   */
  long pass(Supplier<List<byte[]>> metrics, boolean force) {
    synchronized (passLock) {
      int open = firstOpenHour();
      if (!force && open == lastPassOpenHour) {
        return 0;
      }
      long rows = 0;
      for (byte[] metric : metrics.get()) {
        rows += rollMetric(metric, open);
      }
      lastPassOpenHour = open;
      return rows;
    }
  }

  private long rollMetric(byte[] metric, int open) {
    OptionalInt recorded = store.rolledBefore(metric);
    recorded.ifPresent(h -> rolledBefore.merge(ByteBuffer.wrap(metric), h, Math::max));
    int from = recorded.isPresent() ? recorded.getAsInt() : points.firstHour(metric).orElse(open);
    long rows = 0;
    while (from < open) {
      int to = Math.min(open, from + HOURS_PER_STEP);
      List<RollupStore.Rolled> rolled = new ArrayList<>();
      long[] read = {0};
      points.rows(
          metric,
          from,
          to - 1,
          row -> {
            rolled.add(rolledOf(row));
            read[0]++;
            // Rows come hour by hour: a batch of many holds several hours of each series' day.
            if (rolled.size() == PUT_BATCH) {
              store.put(rolled);
              rolled.clear();
            }
          });
      store.put(rolled);
      rows += read[0];
      if (!store.advanceRolled(metric, recorded, to)) {
        // Another pass recorded its progress meanwhile: go on from there.
        recorded = store.rolledBefore(metric);
        from = Math.max(to, recorded.orElse(to));
        LOG.debug("another rollup pass moved metric {} on to hour {}", metric, from);
      } else {
        recorded = OptionalInt.of(to);
        from = to;
      }
      rolledBefore.merge(ByteBuffer.wrap(metric), from, Math::max);
    }
    rolledRows.increment(rows);
    return rows;
  }

  /**
   * The hour before which {@code metric} is rolled up; none recorded: {@code Integer.MIN_VALUE}.
   */
  int rolledBefore(byte[] metric) {
    Integer known = rolledBefore.get(ByteBuffer.wrap(metric));
    if (known != null) {
      return known;
    }
    OptionalInt recorded = store.rolledBefore(metric);
    if (recorded.isEmpty()) {
      return Integer.MIN_VALUE;
    }
    return rolledBefore.merge(ByteBuffer.wrap(metric), recorded.getAsInt(), Math::max);
  }

  /** Rows a compaction just rewrote, as it read them: their rollups written again. */
  void compacted(List<DataRowStore.RowPoints> rows) {
    write(rows);
  }

  /** Rows whose points were deleted: each read again and its rollup rewritten. */
  void rewritten(List<byte[]> rows) {
    List<DataRowStore.RowPoints> read = new ArrayList<>(rows.size());
    rows.forEach(row -> points.readRow(row).ifPresent(read::add));
    write(read);
  }

  private void write(List<DataRowStore.RowPoints> rows) {
    List<RollupStore.Rolled> rolled = new ArrayList<>(rows.size());
    rows.forEach(r -> rolled.add(rolledOf(r)));
    store.put(rolled);
    rolledRows.increment(rolled.size());
  }

  /** Retention: the rollups of {@code metric}'s hours before {@code beforeHour} go. */
  void purgeBefore(byte[] metric, int beforeHour) {
    store.purgeBefore(metric, beforeHour);
  }

  private RollupStore.Rolled rolledOf(DataRowStore.RowPoints row) {
    TsdbKeys.DataRow key = points.keys().decode(row.row());
    List<DataPoint> p = row.points();
    return new RollupStore.Rolled(
        key.metric(), key.tags(), row.hour(), HourRollup.of(p, 0, p.size()), row.version());
  }
}
