package org.casebook.tsdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns checked points into cells: ids for names, the row key, the column, the value.
 *
 * <p>Points are gathered per row before they reach HBase: a collector or a backfill sends the
 * points of many series at once, and the next batch carries the same series a step later. Points of
 * one series and hour arriving within a gathering period become one {@link Put}, so HBase does the
 * per-mutation work (row lock, region lookup, request entry) once per row instead of once per
 * point. Gathered points reach the table's write buffer every {@link #GATHER_PERIOD_MS} ms, or at
 * once when {@link #GATHER_CELLS} cells wait, or on {@link #flush}.
 */
final class PointWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PointWriter.class);
  static final long GATHER_PERIOD_MS = 50;
  static final int GATHER_CELLS = 20_000;

  private final TsdbStore store;
  private final Uids uids;
  private final Compactor compactor;
  private final Object gatherLock = new Object();
  // Serialises hand-overs, so an older gathering reaches the write buffer before a newer one.
  private final Object handOverLock = new Object();
  private Map<ByteBuffer, Put> gathered = new LinkedHashMap<>();
  private int gatheredCells;
  private boolean closed;
  private final ScheduledFuture<?> periodicHandOver;

  PointWriter(TsdbStore store, Uids uids, Compactor compactor, ScheduledExecutorService timer) {
    this.store = store;
    this.uids = uids;
    this.compactor = compactor;
    this.periodicHandOver =
        timer.scheduleWithFixedDelay(
            this::handOverQuietly, GATHER_PERIOD_MS, GATHER_PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  /**
   * Queues the points: durable within the gathering period plus the write buffer's flush period, or
   * once {@link #flush} returns.
   */
  void write(List<IncomingPoint> points) {
    // Ids and keys are worked out before taking the lock; only the map insertions hold it.
    int n = points.size();
    byte[][] rows = new byte[n][];
    byte[][] qualifiers = new byte[n][];
    byte[][] values = new byte[n][];
    for (int i = 0; i < n; i++) {
      IncomingPoint p = points.get(i);
      byte[] metric = uids.getOrAssign(UidKind.METRIC, p.metric());
      int hour = PointCodec.hourOf(p.timestampMs());
      rows[i] = store.rowKey(metric, hour, tagBytes(p.tags()));
      values[i] = PointCodec.value(p.value(), p.narrowFloat());
      qualifiers[i] =
          PointCodec.qualifier(
              p.timestampMs(), p.millis(), PointCodec.flags(p.value().integer(), values[i].length));
      compactor.touched(rows[i], hour);
    }
    boolean full;
    synchronized (gatherLock) {
      if (closed) {
        throw new IllegalStateException("the point writer is closed");
      }
      for (int i = 0; i < n; i++) {
        byte[] row = rows[i];
        // A later point for the same column is added after the earlier one; HBase keeps the last
        // cell of a mutation for a column, as it keeps the later of two puts.
        gathered
            .computeIfAbsent(ByteBuffer.wrap(row), k -> new Put(row))
            .addColumn(TsdbSchema.T, qualifiers[i], values[i]);
      }
      gatheredCells += n;
      full = gatheredCells >= GATHER_CELLS;
    }
    if (full) {
      handOver();
    }
  }

  /** Returns once every point written before the call is durable in HBase. */
  void flush() {
    handOver();
    store.flush();
  }

  /** Moves the gathered points into the table's write buffer. */
  private void handOver() {
    synchronized (handOverLock) {
      List<Put> puts;
      synchronized (gatherLock) {
        if (gathered.isEmpty()) {
          return;
        }
        puts = new ArrayList<>(gathered.values());
        gathered = new LinkedHashMap<>();
        gatheredCells = 0;
      }
      store.write(puts);
    }
  }

  private void handOverQuietly() {
    try {
      handOver();
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule; the points stay
      // with the write buffer, whose failures are counted in the system's health.
      LOG.warn("handing gathered points to the write buffer failed", e);
    }
  }

  /** Hands over what is gathered and stops the periodic hand-over; writes after this fail. */
  @Override
  public void close() {
    periodicHandOver.cancel(false);
    synchronized (handOverLock) {
      handOver();
      synchronized (gatherLock) {
        closed = true;
      }
    }
  }

  /** The tag bytes from cached ids only (the common case), or null if a name is not cached. */
  private byte[] cachedTagBytes(Map<String, String> tags) {
    int w = TsdbKeys.UID_WIDTH;
    byte[][] pairs = new byte[tags.size()][];
    int i = 0;
    for (Map.Entry<String, String> t : tags.entrySet()) {
      byte[] k = uids.cached(UidKind.TAGK, t.getKey());
      byte[] v = k == null ? null : uids.cached(UidKind.TAGV, t.getValue());
      if (v == null) {
        return null;
      }
      byte[] pair = new byte[2 * w];
      System.arraycopy(k, 0, pair, 0, w);
      System.arraycopy(v, 0, pair, w, w);
      pairs[i++] = pair;
    }
    java.util.Arrays.sort(pairs, Bytes.BYTES_COMPARATOR);
    byte[] out = new byte[pairs.length * 2 * w];
    for (int j = 0; j < pairs.length; j++) {
      System.arraycopy(pairs[j], 0, out, j * 2 * w, 2 * w);
    }
    return out;
  }

  /** (tagk id, tagv id) pairs sorted by tagk id, as the row key carries them. */
  byte[] tagBytes(Map<String, String> tags) {
    byte[] fast = cachedTagBytes(tags);
    if (fast != null) {
      return fast;
    }
    List<byte[]> pairs = new ArrayList<>(tags.size());
    // New names get ids in the order OpenTSDB gives them: it walks the tags of a point in
    // java.util.HashMap order. Ids order the series of an answer (and so first, last and diff),
    // so the same points written to both must get ids in the same order to give the same answers.
    for (Map.Entry<String, String> t : new HashMap<>(tags).entrySet()) {
      pairs.add(
          Bytes.add(
              uids.getOrAssign(UidKind.TAGK, t.getKey()),
              uids.getOrAssign(UidKind.TAGV, t.getValue())));
    }
    pairs.sort(Bytes.BYTES_COMPARATOR);
    byte[] out = new byte[pairs.size() * 2 * TsdbKeys.UID_WIDTH];
    int i = 0;
    for (byte[] pair : pairs) {
      System.arraycopy(pair, 0, out, i, pair.length);
      i += pair.length;
    }
    return out;
  }
}
