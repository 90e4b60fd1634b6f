package org.casebook.bench;

import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The least HBase work a frontier on HBase can do for {@code bench frontier}'s URLs and still keep
 * the guarantees, measured on the same HBase in the same run. Putting a discovered URL: one
 * read of its known row (has it been seen before?) and two writes, its queued row (keyed in
 * hand-out order) and its known row. Completing it: one read of its known row (what it was), a
 * write of that row and a delete of its queued row. Rows and cells are shaped as the frontier's,
 * reads go in batches of 2,000 as PutURLs batches do, writes through one BufferedMutator per table,
 * from as many threads as the benchmark has PutURLs streams. No counters, no schedule, no
 * check-and-mutate, no gRPC: a ceiling for any frontier on this HBase, not a frontier.
 */
final class FrontierStorageFloor {
  private static final int BATCH = 2_000;
  private static final byte[] KNOWN_FAMILY = Bytes.toBytes("k");
  private static final byte[] URL_FAMILY = Bytes.toBytes("u");
  private static final byte[] INFO = Bytes.toBytes("i");
  private static final byte[] VERSION = Bytes.toBytes("v");
  private static final byte[] DUE_AT = Bytes.toBytes("r");
  private static final byte[] PRIORITY = Bytes.toBytes("p");
  private static final long CHANNEL = 1;

  /**
   * URLs per second put as discovered, then completed (put back as known and done); how many the
   * put found new and the completion found queued (both every URL when the floor did its work).
   */
  record Rates(double put, double complete, long putNew, long completedQueued) {}

  private interface UrlSource {
    String url(int i);
  }

  private final Connection connection;
  private final TableName known;
  private final TableName queued;
  private final String crawlId;
  private final int threads;

  private FrontierStorageFloor(
      Connection connection, String namespace, String crawlId, int threads) {
    this.connection = connection;
    this.known = TableName.valueOf(namespace, "floor_known");
    this.queued = TableName.valueOf(namespace, "floor_urls");
    this.crawlId = crawlId;
    this.threads = Math.max(1, threads);
  }

  /** Puts then completes {@code urls} URLs; the two tables are dropped afterwards. */
  static Rates measure(
      Connection connection,
      String namespace,
      String crawlId,
      int urls,
      int threads,
      java.util.function.IntFunction<String> url) {
    FrontierStorageFloor floor = new FrontierStorageFloor(connection, namespace, crawlId, threads);
    SchemaManager schemas = new SchemaManager(connection);
    floor.create(schemas);
    try {
      AtomicLong putNew = new AtomicLong();
      AtomicLong completedQueued = new AtomicLong();
      double put = urls / floor.run(urls, url::apply, true, putNew);
      double complete = urls / floor.run(urls, url::apply, false, completedQueued);
      return new Rates(put, complete, putNew.get(), completedQueued.get());
    } finally {
      schemas.drop(floor.known);
      schemas.drop(floor.queued);
    }
  }

  private void create(SchemaManager schemas) {
    schemas.drop(known);
    schemas.drop(queued);
    // One region each to start, as the frontier's tables: both grow by splits during the run.
    // The cluster's default memstore: with the frontier's own policies (BASIC known rows, EAGER
    // queued rows) this floor measured lower (32,222 against 35,252 URLs/s put at 1M URLs), and
    // a floor is taken at its highest.
    schemas.ensure(
        new TableSpec(
            known,
            List.of(FamilySpec.of("k")),
            SplitPoints.none(),
            "channel:long | md5(host)[0..8] | md5(url)"));
    schemas.ensure(
        new TableSpec(
            queued,
            List.of(FamilySpec.of("u"), FamilySpec.of("f")),
            SplitPoints.none(),
            "channel:long | md5(host)[0..8] | priority:long | md5(url)"));
  }

  /**
   * Seconds to put ({@code discover}) or complete every URL; {@code acted} counts those written.
   */
  private double run(int urls, UrlSource source, boolean discover, AtomicLong acted) {
    AtomicReference<RetriesExhaustedWithDetailsException> failure = new AtomicReference<>();
    AtomicReference<Throwable> error = new AtomicReference<>();
    long t0 = System.nanoTime();
    try (BufferedMutator knownWrites =
            connection.getBufferedMutator(
                new BufferedMutatorParams(known)
                    .listener((e, m) -> failure.compareAndSet(null, e)));
        BufferedMutator queuedWrites =
            connection.getBufferedMutator(
                new BufferedMutatorParams(queued)
                    .listener((e, m) -> failure.compareAndSet(null, e)))) {
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        Thread w =
            new Thread(
                () -> {
                  try (Table knownTable = connection.getTable(known)) {
                    for (int from = first * BATCH; from < urls; from += threads * BATCH) {
                      acted.addAndGet(
                          batch(
                              knownTable,
                              knownWrites,
                              queuedWrites,
                              source,
                              from,
                              Math.min(urls, from + BATCH),
                              discover));
                    }
                  } catch (IOException | RuntimeException e) {
                    error.compareAndSet(null, e);
                  }
                },
                "bench-frontier-floor-" + t);
        w.start();
        workers.add(w);
      }
      for (Thread w : workers) {
        w.join();
      }
      knownWrites.flush();
      queuedWrites.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("frontier storage floor: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("frontier storage floor interrupted", e);
    }
    if (failure.get() != null) {
      throw new UncheckedIOException(
          "frontier storage floor: writes failed: " + failure.get().getMessage(), failure.get());
    }
    if (error.get() != null) {
      throw new IllegalStateException(
          "frontier storage floor failed: " + error.get().getMessage(), error.get());
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** One batch; answers how many URLs it wrote (new ones put, queued ones completed). */
  private int batch(
      Table knownTable,
      BufferedMutator knownWrites,
      BufferedMutator queuedWrites,
      UrlSource source,
      int from,
      int to,
      boolean discover)
      throws IOException {
    List<Get> gets = new ArrayList<>(to - from);
    List<byte[][]> ids = new ArrayList<>(to - from);
    List<String> urls = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      String url = source.url(i);
      byte[] hostId = Arrays.copyOf(md5(java.net.URI.create(url).getHost()), 8);
      byte[] urlId = md5(url);
      byte[] knownRow =
          KeyBuilder.create(32).addLong(CHANNEL).addFixed(hostId).addFixed(urlId).build();
      gets.add(new Get(knownRow).addFamily(KNOWN_FAMILY));
      ids.add(new byte[][] {hostId, urlId, knownRow});
      urls.add(url);
    }
    Result[] seen = knownTable.get(gets);
    long now = System.currentTimeMillis();
    int acted = 0;
    for (int j = 0; j < seen.length; j++) {
      byte[] hostId = ids.get(j)[0];
      byte[] urlId = ids.get(j)[1];
      byte[] knownRow = ids.get(j)[2];
      if (discover) {
        if (!seen[j].isEmpty()) {
          continue;
        }
        byte[] info =
            URLInfo.newBuilder().setUrl(urls.get(j)).setCrawlID(crawlId).build().toByteArray();
        byte[] version = Bytes.toBytes(now + j);
        byte[] queuedRow = queuedRow(hostId, now, urlId);
        queuedWrites.mutate(
            new Put(queuedRow)
                .addColumn(URL_FAMILY, INFO, info)
                .addColumn(URL_FAMILY, VERSION, version)
                .addColumn(URL_FAMILY, DUE_AT, Bytes.toBytes(now)));
        knownWrites.mutate(
            new Put(knownRow)
                .addColumn(KNOWN_FAMILY, VERSION, version)
                .addColumn(KNOWN_FAMILY, INFO, info)
                .addColumn(KNOWN_FAMILY, PRIORITY, Bytes.toBytes(now))
                .addColumn(KNOWN_FAMILY, DUE_AT, Bytes.toBytes(now)));
        acted++;
      } else {
        byte[] priority = seen[j].getValue(KNOWN_FAMILY, PRIORITY);
        if (priority == null || priority.length == 0) {
          continue;
        }
        queuedWrites.mutate(new Delete(queuedRow(hostId, Bytes.toLong(priority), urlId)));
        // Done: an empty priority (no queued row), in the same Put as the new version.
        knownWrites.mutate(
            new Put(knownRow)
                .addColumn(KNOWN_FAMILY, VERSION, Bytes.toBytes(now + j))
                .addColumn(KNOWN_FAMILY, PRIORITY, new byte[0])
                .addColumn(KNOWN_FAMILY, DUE_AT, Bytes.toBytes(0L)));
        acted++;
      }
    }
    return acted;
  }

  private static byte[] queuedRow(byte[] hostId, long priority, byte[] urlId) {
    return KeyBuilder.create(40)
        .addLong(CHANNEL)
        .addFixed(hostId)
        .addLong(priority)
        .addFixed(urlId)
        .build();
  }

  private static byte[] md5(String s) {
    try {
      return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }
}
