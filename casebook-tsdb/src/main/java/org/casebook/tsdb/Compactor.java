package org.casebook.tsdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.client.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges a finished hour's point columns into one cell, as the seed recommends and OpenTSDB does:
 * rows written since start are remembered, and compacted once their hour has been over for the
 * configured delay; rows a query meets uncompacted (written before a restart, or late points) are
 * queued too. A late point after compaction is a raw column again until the next pass.
 */
final class Compactor {
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private final TsdbStore store;
  private final Clock clock;
  private final long delayMs;
  private final Map<ByteBuffer, Integer> pending = new ConcurrentHashMap<>();
  private final Counter compactedRows;
  private final Counter compactedPoints;

  Compactor(TsdbStore store, Clock clock, int delaySeconds, MeterRegistry metrics) {
    this.store = store;
    this.clock = clock;
    this.delayMs = delaySeconds * 1000L;
    this.compactedRows = metrics.counter("casebook.tsdb.compaction.rows");
    this.compactedPoints = metrics.counter("casebook.tsdb.compaction.points");
  }

  void touched(byte[] row, int hour) {
    pending.putIfAbsent(ByteBuffer.wrap(row), hour);
  }

  int pending() {
    return pending.size();
  }

  /** Compacts every remembered row whose hour ended at least the delay ago: rows rewritten. */
  int runDue() {
    long now = clock.millis();
    List<ByteBuffer> due = new ArrayList<>();
    for (Map.Entry<ByteBuffer, Integer> e : pending.entrySet()) {
      if (PointCodec.hourStartMs(e.getValue() + 1) + delayMs <= now) {
        due.add(e.getKey());
      }
    }
    int done = 0;
    for (ByteBuffer row : due) {
      pending.remove(row);
      if (compact(row.array())) {
        done++;
      }
    }
    return done;
  }

  /** Compacts every row of a finished hour in the table (after a restart, or on request). */
  int runAll() {
    int before = PointCodec.hourOf(clock.millis() - delayMs);
    List<byte[]> rows = new ArrayList<>();
    store.scanUncompacted(before, rows::add);
    int done = 0;
    for (byte[] row : rows) {
      if (compact(row)) {
        done++;
      }
    }
    return done;
  }

  /** Whether a row read by a query should be compacted: finished and not yet one cell. */
  void noticeRead(Result row, int hour) {
    if (TsdbStore.needsCompaction(row.rawCells())
        && PointCodec.hourStartMs(hour + 1) + delayMs <= clock.millis()) {
      touched(row.getRow(), hour);
    }
  }

  /** One row; retried once if another compactor changed it between read and write. */
  boolean compact(byte[] row) {
    for (int attempt = 0; attempt < 2; attempt++) {
      Result read = store.readRow(row);
      if (read.isEmpty() || !TsdbStore.needsCompaction(read.rawCells())) {
        return false;
      }
      int hour = store.decodeRow(row).hour();
      List<DataPoint> points;
      try {
        points = PointCodec.rowPoints(hour, read.rawCells());
      } catch (IllegalArgumentException e) {
        LOG.warn("row {} has a cell that is not a point; left as it is", store.describe(row), e);
        return false;
      }
      if (store.replaceWithCompacted(read, PointCodec.compact(hour, points))) {
        compactedRows.increment();
        compactedPoints.increment(points.size());
        return true;
      }
    }
    return false;
  }
}
