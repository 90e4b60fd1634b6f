package org.casebook.tsdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Merges a finished hour's point columns into one cell, as the seed recommends and OpenTSDB does:
 * rows written since start are remembered, and compacted once their hour has been over for the
 * configured delay; rows a query meets uncompacted (written before a restart, or late points) are
 * queued too. A late point after compaction is a raw column again until the next pass. Without
 * background compaction nothing is remembered; {@link #runAll} still compacts on request. A row
 * compacted is rolled up again ({@link Rollups#compacted}): that is how a late point reaches the
 * rollups of an hour already rolled up.
 */
final class Compactor {
  private final DataRowStore store;
  private final Rollups rollups;
  private final Clock clock;
  private final long delayMs;
  private final boolean remember;
  private final Map<ByteBuffer, Integer> pending = new ConcurrentHashMap<>();
  private final Counter compactedRows;
  private final Counter compactedPoints;

  /** Rollups of compacted rows written per request. */
  private static final int ROLLUP_BATCH = 500;

  /**
   * @param background whether {@link #runDue} runs in the background (else rows written or read are
   *     not remembered for it)
   */
  Compactor(
      DataRowStore store,
      Rollups rollups,
      Clock clock,
      int delaySeconds,
      boolean background,
      MeterRegistry metrics) {
    this.store = store;
    this.rollups = rollups;
    this.clock = clock;
    this.delayMs = delaySeconds * 1000L;
    this.remember = background;
    this.compactedRows = metrics.counter("casebook.tsdb.compaction.rows");
    this.compactedPoints = metrics.counter("casebook.tsdb.compaction.points");
  }

  void touched(byte[] row, int hour) {
    if (remember) {
      pending.putIfAbsent(ByteBuffer.wrap(row), hour);
    }
  }

  int pending() {
    return pending.size();
  }

  /** Compacts every remembered row whose hour ended at least the delay ago: rows rewritten. */
  int runDue() {
    long now = clock.millis();
    List<ByteBuffer> due = new ArrayList<>();
    for (Map.Entry<ByteBuffer, Integer> e : pending.entrySet()) {
      if (TsdbKeys.hourStartMs(e.getValue() + 1) + delayMs <= now) {
        due.add(e.getKey());
      }
    }
    List<byte[]> rows = new ArrayList<>(due.size());
    for (ByteBuffer row : due) {
      pending.remove(row);
      rows.add(row.array());
    }
    return compact(rows);
  }

  /** Compacts every row of a finished hour in the table (after a restart, or on request). */
  int runAll() {
    int before = TsdbKeys.hourOf(clock.millis() - delayMs);
    List<byte[]> rows = new ArrayList<>();
    store.uncompactedRows(before, rows::add);
    return compact(rows);
  }

  /**
   * Compacts {@code rows}, their rollups written in batches (and those of the rows compacted before
   * a failure): rows rewritten.
   */
  private int compact(List<byte[]> rows) {
    List<DataRowStore.RowPoints> compacted = new ArrayList<>();
    int done = 0;
    try {
      for (byte[] row : rows) {
        Optional<DataRowStore.RowPoints> r = store.compactRow(row);
        if (r.isPresent()) {
          compacted.add(r.get());
          compactedRows.increment();
          compactedPoints.increment(r.get().points().size());
          done++;
        }
        if (compacted.size() == ROLLUP_BATCH) {
          rollups.compacted(compacted);
          compacted.clear();
        }
      }
    } finally {
      rollups.compacted(compacted);
    }
    return done;
  }

  /** A query read a row that is not one compacted cell: queued if its hour is finished. */
  void noticeUncompacted(byte[] row, int hour) {
    if (TsdbKeys.hourStartMs(hour + 1) + delayMs <= clock.millis()) {
      touched(row, hour);
    }
  }

  /** One row: true if it was rewritten. */
  boolean compact(byte[] row) {
    return compact(List.of(row)) == 1;
  }
}
