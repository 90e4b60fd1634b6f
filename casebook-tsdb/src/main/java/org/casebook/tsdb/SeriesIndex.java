package org.casebook.tsdb;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * The series index: every series of a metric, written at ingest once per new series, so that a
 * lookup (Grafana's {@code tag_names} and {@code tag_values}) reads a metric's series instead of
 * every hour of its rows.
 *
 * <p>A series is indexed before its first points are handed to the data table, so a lookup never
 * misses a series whose points can be read. Series known indexed are remembered (a bounded set), so
 * in steady state a point costs a set lookup and no write; a series forgotten when the set is
 * trimmed is written again when next seen, which is harmless (a blind put of the same row).
 *
 * <p>Data written before the index existed is not in it: a metric is complete if its id was handed
 * out after the index's first use, or once {@link #reindex} went through its rows; lookups of any
 * other metric read its data rows, as before.
 */
final class SeriesIndex {
  /** Series remembered as indexed, at most (each a small key). */
  static final int CACHED_SERIES = 500_000;

  /** Index rows written per request by a rebuild. */
  static final int REINDEX_BATCH = 1000;

  private final SeriesIndexStore store;
  private final int cacheLimit;
  private final Set<ByteBuffer> indexed = ConcurrentHashMap.newKeySet();
  private final ReentrantLock trimming = new ReentrantLock();
  private final long bornAfterMetric;
  private final Set<Long> complete = ConcurrentHashMap.newKeySet();
  private final Map<Long, KeptSeries> lookups = new ConcurrentHashMap<>();

  /**
   * The index in {@code store}; {@code lastMetricNow} is the last metric id handed out, recorded on
   * the index's first use as the last metric that may have unindexed data.
   */
  SeriesIndex(SeriesIndexStore store, long lastMetricNow, int cacheLimit) {
    this.store = store;
    this.cacheLimit = cacheLimit;
    this.bornAfterMetric = store.bornAfterMetric(lastMetricNow);
  }

  /**
   * Indexes the series {@code metrics[i]}, {@code tagRuns[i]} not known to be indexed; durable when
   * this returns. Call before their points are written.
   */
  void index(byte[][] metrics, byte[][] tagRuns) {
    Set<ByteBuffer> fresh = null;
    List<byte[]> freshMetrics = null;
    List<byte[]> freshTags = null;
    for (int i = 0; i < metrics.length; i++) {
      ByteBuffer key = ByteBuffer.wrap(concat(metrics[i], tagRuns[i]));
      if (indexed.contains(key)) {
        continue;
      }
      if (fresh == null) {
        fresh = new HashSet<>();
        freshMetrics = new ArrayList<>();
        freshTags = new ArrayList<>();
      }
      if (fresh.add(key)) {
        freshMetrics.add(metrics[i]);
        freshTags.add(tagRuns[i]);
      }
    }
    if (fresh == null) {
      return;
    }
    store.putSeries(freshMetrics, freshTags);
    for (int i = 0; i < freshMetrics.size(); i++) {
      KeptSeries kept = lookups.get(TsdbKeys.uidValue(freshMetrics.get(i)));
      if (kept != null) {
        kept.tags.add(freshTags.get(i));
      }
    }
    indexed.addAll(fresh);
    if (indexed.size() > cacheLimit) {
      trim();
    }
  }

  private static byte[] concat(byte[] metric, byte[] tags) {
    byte[] key = new byte[metric.length + tags.length];
    System.arraycopy(metric, 0, key, 0, metric.length);
    System.arraycopy(tags, 0, key, metric.length, tags.length);
    return key;
  }

  /** Forgets a tenth of the remembered series (any), by one writer while the others go on. */
  private void trim() {
    if (!trimming.tryLock()) {
      return;
    }
    try {
      int target = cacheLimit - cacheLimit / 10;
      Iterator<ByteBuffer> it = indexed.iterator();
      while (indexed.size() > target && it.hasNext()) {
        it.next();
        it.remove();
      }
    } finally {
      trimming.unlock();
    }
  }

  /** How many series are remembered as indexed (tests). */
  int remembered() {
    return indexed.size();
  }

  /** Whether every series of {@code metric} is in the index. */
  boolean complete(byte[] metric) {
    long id = TsdbKeys.uidValue(metric);
    if (id > bornAfterMetric || complete.contains(id)) {
      return true;
    }
    // Not cached when false: a rebuild in another process may complete it at any time.
    if (store.indexed(metric)) {
      complete.add(id);
      return true;
    }
    return false;
  }

  /**
   * The tag runs of {@code metric}'s indexed series in tsuid order, until {@code more} is false:
   * from memory when the metric's series were read less than {@link #LOOKUP_REFRESH_MS} before
   * {@code nowMs}, else read from the index again and kept.
   *
   * <p>Kept because a lookup's cost is HBase's per-row cost of a scan (Grafana's {@code tag_values}
   * on a metric of 1,000 series read 1,000 rows each time). The series this process indexes are
   * added to what is kept as they are written, so a lookup here never misses them; series another
   * process indexes are seen once the kept copy is read again.
   */
  void series(byte[] metric, long nowMs, Predicate<byte[]> more) {
    long id = TsdbKeys.uidValue(metric);
    KeptSeries kept = lookups.get(id);
    if (kept == null || kept.readAtMs < 0 || nowMs - kept.readAtMs >= LOOKUP_REFRESH_MS) {
      kept = new KeptSeries();
      // Kept before the read, so that a series indexed meanwhile is added to it.
      if (lookups.size() >= cacheLimit / LOOKUP_SERIES_PER_METRIC) {
        lookups.clear();
      }
      lookups.put(id, kept);
      KeptSeries reading = kept;
      store.seriesOf(metric, tags -> reading.tags.add(tags) || true);
      if (kept.tags.size() > LOOKUP_SERIES_PER_METRIC) {
        lookups.remove(id, kept);
      }
      kept.readAtMs = nowMs;
    }
    for (byte[] tags : kept.tags) {
      if (!more.test(tags)) {
        return;
      }
    }
  }

  /** How long a metric's series read for lookups are answered from memory. */
  static final long LOOKUP_REFRESH_MS = 30_000;

  /** The most series of one metric kept for lookups (a larger metric is read each time). */
  static final int LOOKUP_SERIES_PER_METRIC = 50_000;

  /** A metric's series as read for lookups, in tsuid order, and when (-1: being read). */
  private static final class KeptSeries {
    final NavigableSet<byte[]> tags = new ConcurrentSkipListSet<>(Arrays::compareUnsigned);
    volatile long readAtMs = -1;
  }

  /** Reads the tag run of every data row of a metric. */
  interface DataRows {
    void rowTags(byte[] metric, Consumer<byte[]> tagRuns);
  }

  /**
   * Indexes every series each of {@code metrics} has rows of (each data row read once, its key
   * only; index rows written in batches), marking each metric complete after its rows. Points
   * written meanwhile index their own series, so a metric is complete when it is marked. Run again,
   * it writes the same rows.
   */
  ReindexReport reindex(
      List<byte[]> metrics, DataRows rows, Clock clock, LongConsumer metricsDone) {
    long read = 0;
    long series = 0;
    for (byte[] metric : metrics) {
      Set<ByteBuffer> seen = new HashSet<>();
      List<byte[]> batchMetrics = new ArrayList<>(REINDEX_BATCH);
      List<byte[]> batchTags = new ArrayList<>(REINDEX_BATCH);
      long[] rowsRead = {0};
      rows.rowTags(
          metric,
          run -> {
            rowsRead[0]++;
            if (seen.add(ByteBuffer.wrap(run))) {
              batchMetrics.add(metric);
              batchTags.add(run);
              if (batchTags.size() >= REINDEX_BATCH) {
                store.putSeries(batchMetrics, batchTags);
                batchMetrics.clear();
                batchTags.clear();
              }
            }
          });
      if (!batchTags.isEmpty()) {
        store.putSeries(batchMetrics, batchTags);
      }
      store.markIndexed(metric, clock.millis());
      complete.add(TsdbKeys.uidValue(metric));
      read += rowsRead[0];
      series += seen.size();
      metricsDone.accept(1);
    }
    return new ReindexReport(metrics.size(), read, series);
  }
}
