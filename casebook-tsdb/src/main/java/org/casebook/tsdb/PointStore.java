package org.casebook.tsdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every read and write of the data table: points in (gathered per row, then through a write
 * buffer), a metric's rows over a range of hours out, and the compaction of a row. Thread-safe.
 *
 * <p>Points are gathered per row before they reach HBase: a collector or a backfill sends the
 * points of many series at once, and the next batch carries the same series a step later. Points of
 * one series and hour arriving within a gathering period become one {@link Put}, so HBase does the
 * per-mutation work (row lock, region lookup, request entry) once per row instead of once per
 * point. Gathered points reach the table's write buffer every {@link #GATHER_PERIOD_MS} ms, or at
 * once when {@link #GATHER_CELLS} cells wait, or on {@link #flush}.
 */
final class PointStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PointStore.class);
  static final long GATHER_PERIOD_MS = 50;
  static final int GATHER_CELLS = 20_000;

  private final Connection connection;
  private final TsdbSchema schema;
  private final TsdbKeys.DataRows keys;
  private final DataRowStore rows;
  private final BufferedMutator data;
  private final AtomicLong asyncFailures = new AtomicLong();

  private final Object gatherLock = new Object();

  /*
   * Serialises hand-overs and flushes. Hand-overs in order, so an older gathering reaches the write
   * buffer before a newer one. Flushes one at a time, because the write buffer's flush sends what
   * is queued and waits for that alone: with two at once, the second found an empty queue and
   * returned while the first still sent its points (a synchronous put was acknowledged before it
   * was stored; found by TsdbChaosIT). Every way into the write buffer goes through this lock,
   * its own periodic flush included, which is why the store flushes on its own timer.
   */
  private final Object flushLock = new Object();
  private Map<ByteBuffer, Put> gathered = new LinkedHashMap<>();
  private int gatheredCells;
  private boolean closed;
  private final ScheduledFuture<?> periodicHandOver;

  /**
   * The data table of {@code schema}, whose whole rows {@code rows} reads and rewrites; {@code
   * timer} hands gathered points over periodically.
   */
  PointStore(
      Connection connection, TsdbSchema schema, DataRowStore rows, ScheduledExecutorService timer) {
    this.connection = connection;
    this.schema = schema;
    this.keys = rows.keys();
    this.rows = rows;
    try {
      this.data =
          connection.getBufferedMutator(
              new BufferedMutatorParams(schema.data())
                  // Telnet points are acknowledged when queued, as OpenTSDB's are: the store's
                  // periodic flush (every gathering period) bounds what a crash can lose; HTTP
                  // puts with ?sync flush before answering. The buffer's own periodic flush stays
                  // off: it would run outside the flush lock.
                  .writeBufferSize(4L << 20)
                  .listener(
                      (e, mutator) -> {
                        asyncFailures.addAndGet(e.getNumExceptions());
                        LOG.warn("{} buffered point write(s) failed", e.getNumExceptions(), e);
                      }));
    } catch (IOException e) {
      throw StorageException.of("open the data table", e);
    }
    this.periodicHandOver =
        timer.scheduleWithFixedDelay(
            this::flushQuietly, GATHER_PERIOD_MS, GATHER_PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  TsdbKeys.DataRows keys() {
    return keys;
  }

  long asyncFailures() {
    return asyncFailures.get();
  }

  // ---- writes ----

  /**
   * Queues one cell per point ({@code rows[i]}, {@code qualifiers[i]}, {@code values[i]}): durable
   * within the gathering period plus one flush, or once {@link #flush} returns.
   */
  void add(byte[][] rows, byte[][] qualifiers, byte[][] values) {
    boolean full;
    synchronized (gatherLock) {
      if (closed) {
        throw new IllegalStateException("the point store is closed");
      }
      for (int i = 0; i < rows.length; i++) {
        byte[] row = rows[i];
        // A later point for the same column is added after the earlier one; HBase keeps the last
        // cell of a mutation for a column, as it keeps the later of two puts.
        gathered
            .computeIfAbsent(ByteBuffer.wrap(row), k -> new Put(row))
            .addColumn(TsdbSchema.T, qualifiers[i], values[i]);
      }
      gatheredCells += rows.length;
      full = gatheredCells >= GATHER_CELLS;
    }
    if (full) {
      handOver();
    }
  }

  /**
   * Returns once every point added before the call is durable in HBase; throws if a write of this
   * flush failed after HBase's retries (the write buffer reports those to its listener, not to the
   * caller, and flushes are serialised, so any failure counted meanwhile is this flush's).
   */
  void flush() {
    synchronized (flushLock) {
      flush(asyncFailures.get());
    }
  }

  /**
   * The count of failed writes so far: taken before points are added, and given to {@link
   * #flush(long)}, it covers their writes whichever flush sent them.
   */
  long failureMark() {
    return asyncFailures.get();
  }

  /**
   * As {@link #flush()}, but throws if any write failed since {@code failedBefore} ({@link
   * #failureMark}): the periodic flush may have sent a caller's points, and lost them, before the
   * caller's own flush began (found by TsdbChaosIT on the cluster kit, with RegionServers killed).
   * A failure of other points fails the caller too; its points are sent again, which is harmless (a
   * point is a cell, written again the same).
   */
  void flush(long failedBefore) {
    synchronized (flushLock) {
      handOver();
      try {
        data.flush();
      } catch (IOException e) {
        // The buffer may have lost points of other callers, taken there by an earlier periodic
        // flush, without telling its listener: counted, so that their own flushes fail too.
        asyncFailures.incrementAndGet();
        throw StorageException.of("write points", e);
      }
      long failed = asyncFailures.get() - failedBefore;
      if (failed > 0) {
        throw StorageException.unavailable(
            failed + " point write(s) failed after HBase's retries; the points may be sent again");
      }
    }
  }

  /** Moves the gathered points into the table's write buffer. */
  private void handOver() {
    synchronized (flushLock) {
      List<Put> puts;
      synchronized (gatherLock) {
        if (gathered.isEmpty()) {
          return;
        }
        puts = new ArrayList<>(gathered.values());
        gathered = new LinkedHashMap<>();
        gatheredCells = 0;
      }
      try {
        data.mutate(puts);
      } catch (IOException e) {
        // These points left the gathering map and may not be in the buffer: a periodic flush
        // would otherwise lose them unnoticed by the callers whose points they are.
        asyncFailures.addAndGet(puts.size());
        throw StorageException.of("write points", e);
      }
    }
  }

  private void flushQuietly() {
    try {
      flush();
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule; failed writes are
      // counted in the system's health.
      LOG.warn("the periodic flush of gathered points failed", e);
    }
  }

  // ---- reads ----

  /**
   * The points in {@code [fromMs, toMs]} of {@code metric}'s rows of hours {@code [fromHour,
   * toHour]}, by tag run, series in order of first appearance; with a plan, only rows it keeps.
   * Each row that is more than one compacted cell is reported to {@code uncompacted} with its hour.
   */
  Map<ByteBuffer, List<DataPoint>> readPoints(
      byte[] metric,
      int fromHour,
      int toHour,
      long fromMs,
      long toMs,
      Optional<TagScanPlan> plan,
      ObjIntConsumer<byte[]> uncompacted,
      QueryBudget budget) {
    // A series' rows come in hour order (its hours are adjacent in the key, also in a salt
    // bucket) and a row's points are sorted and unique: appending keeps each series sorted.
    Map<ByteBuffer, List<DataPoint>> byTags = new LinkedHashMap<>();
    Filter filter = plan.map(p -> TagRowFilter.of(p, keys)).orElse(null);
    rows.scan(
        metric,
        fromHour,
        toHour,
        false,
        filter,
        r -> {
          TsdbKeys.DataRow row = keys.decode(r.getRow());
          Cell[] cells = r.rawCells();
          if (DataRowStore.needsCompaction(cells)) {
            uncompacted.accept(r.getRow(), row.hour());
          }
          ByteBuffer series = ByteBuffer.wrap(row.tags());
          List<DataPoint> points = byTags.get(series);
          boolean seen = points != null;
          if (!seen) {
            points = new ArrayList<>();
            byTags.put(series, points);
          }
          int before = points.size();
          if (cells.length == 1 && PointCodec.isCompacted(cells[0])) {
            PointCodec.expandInto(row.hour(), cells[0], fromMs, toMs, points);
          } else {
            for (DataPoint p : PointCodec.rowPoints(row.hour(), cells)) {
              if (p.timestampMs() >= fromMs && p.timestampMs() <= toMs) {
                points.add(p);
              }
            }
          }
          // Thrown out of the scan: the scanner closes, and nothing more is read.
          budget.row(series, seen, points.size() - before);
        });
    return byTags;
  }

  /**
   * The tag run of each of {@code metric}'s rows in hours {@code [fromHour, toHour]} (keys only).
   */
  void rowTags(byte[] metric, int fromHour, int toHour, Consumer<byte[]> tagRuns) {
    rows.scan(
        metric, fromHour, toHour, true, null, r -> tagRuns.accept(keys.decode(r.getRow()).tags()));
  }

  /** What {@link #latestRows} hands over per row. */
  interface LatestRow {
    /**
     * One row: its tag run, its hour and (decoded on request) its points in time order; false to
     * stop.
     */
    boolean row(byte[] tags, int hour, Supplier<List<DataPoint>> points);
  }

  /**
   * Rows of {@code metric} from hour {@code toHour} back to {@code fromHour}, newest hour first
   * (bucket by bucket), until {@code rows} returns false.
   */
  void latestRows(byte[] metric, int fromHour, int toHour, LatestRow rows) {
    try (Table t = connection.getTable(schema.data())) {
      for (int b = 0; b < keys.buckets(); b++) {
        // A reversed scan starts at its start row (inclusive) and walks down to its stop row.
        Scan scan =
            new Scan()
                .withStartRow(keys.start(b, metric, toHour + 1), false)
                .withStopRow(keys.start(b, metric, fromHour), true)
                .setReversed(true)
                .addFamily(TsdbSchema.T)
                .setCaching(64);
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            TsdbKeys.DataRow row = keys.decode(r.getRow());
            if (!rows.row(
                row.tags(), row.hour(), () -> PointCodec.rowPoints(row.hour(), r.rawCells()))) {
              break;
            }
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read the last points", e);
    }
  }

  /**
   * Deletes the points in {@code [fromMs, toMs]} of {@code metric}'s rows of hours {@code
   * [fromHour, toHour]} whose tag run {@code series} accepts (with {@code rowFilter}, only rows it
   * keeps are read): the number of points deleted. Each row is rewritten under the same check as a
   * compaction ({@link DataRowStore#compactRow}), so a compaction and a delete of one row never
   * undo each other; a point written into the range while this runs may stay. Rerun, it deletes
   * what is left. Each row rewritten is reported to {@code rewritten}.
   */
  long deletePoints(
      byte[] metric,
      int fromHour,
      int toHour,
      long fromMs,
      long toMs,
      Filter rowFilter,
      java.util.function.Predicate<ByteBuffer> series,
      Consumer<byte[]> rewritten) {
    flush();
    long[] deleted = {0};
    rows.scan(
        metric,
        fromHour,
        toHour,
        false,
        rowFilter,
        r -> {
          TsdbKeys.DataRow row = keys.decode(r.getRow());
          if (series.test(ByteBuffer.wrap(row.tags()))) {
            int points = rows.deleteInRow(r, row.hour(), fromMs, toMs);
            if (points > 0) {
              deleted[0] += points;
              rewritten.accept(r.getRow());
            }
          }
        });
    return deleted[0];
  }

  /**
   * Deletes every row of {@code metric} whose hour is before {@code beforeHour} (a bounded key
   * range per salt bucket, read keys only): the number of rows deleted.
   */
  long purgeBefore(byte[] metric, int beforeHour) {
    long deleted = 0;
    try (Table t = connection.getTable(schema.data())) {
      for (int b = 0; b < keys.buckets(); b++) {
        Scan scan =
            KeyRange.between(keys.start(b, metric, 0), keys.start(b, metric, beforeHour))
                .toScan()
                .addFamily(TsdbSchema.T)
                .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
                .setCaching(4096)
                .setCacheBlocks(false);
        List<Delete> batch = new ArrayList<>();
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            batch.add(new Delete(r.getRow()));
            if (batch.size() == 1000) {
              deleted += batch.size();
              t.delete(batch);
              batch = new ArrayList<>();
            }
          }
        }
        if (!batch.isEmpty()) {
          deleted += batch.size();
          t.delete(batch);
        }
      }
    } catch (IOException e) {
      throw StorageException.of("purge expired points", e);
    }
    return deleted;
  }

  /** Hands over what is gathered, stops the periodic hand-over and flushes; adds then fail. */
  @Override
  public void close() {
    periodicHandOver.cancel(false);
    try {
      synchronized (flushLock) {
        handOver();
        synchronized (gatherLock) {
          closed = true;
        }
      }
    } finally {
      try {
        data.close();
      } catch (IOException e) {
        throw StorageException.of("flush points at shutdown", e);
      }
    }
  }
}
