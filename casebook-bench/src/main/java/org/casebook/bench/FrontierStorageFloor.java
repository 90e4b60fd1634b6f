package org.casebook.bench;

import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The least HBase work a frontier with Casebook's key layout, holding nothing in memory, does for
 * {@code bench frontier}'s URLs, measured on the same HBase in the same run. Putting a discovered
 * URL: one read of its known row (has it been seen before?) and two writes, its queued row (keyed
 * in hand-out order) and its known row. Completing it: one read of its known row (where is its
 * queued row?), a write of that row and a delete of its queued row. Rows and cells are shaped as
 * the frontier's; reads go in batches of 2,000 as PutURLs batches do, and a batch's writes are
 * stored before its thread reads the next batch, as a put is stored before it is acknowledged; as
 * many threads as the benchmark has PutURLs streams. No counters, no schedule, no check-and-mutate,
 * no gRPC: a ceiling for such a frontier, not a frontier.
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

  /** URLs per second put as discovered, then completed (put back as known and done). */
  record Rates(double put, double complete) {}

  private final Connection connection;
  private final SchemaManager schemas;
  private final TableName known;
  private final TableName queued;
  private final String crawlId;
  private final int threads;
  private final IntFunction<String> url;

  FrontierStorageFloor(
      Connection connection,
      String namespace,
      String crawlId,
      int threads,
      IntFunction<String> url) {
    this.connection = connection;
    this.schemas = new SchemaManager(connection);
    this.known = TableName.valueOf(namespace, "floor_known");
    this.queued = TableName.valueOf(namespace, "floor_urls");
    this.crawlId = crawlId;
    this.threads = Math.max(1, threads);
    this.url = url;
  }

  /** Creates the tables, puts then completes {@code urls} URLs, drops the tables. */
  static Rates measure(
      Connection connection,
      String namespace,
      String crawlId,
      int urls,
      int threads,
      IntFunction<String> url) {
    FrontierStorageFloor floor =
        new FrontierStorageFloor(connection, namespace, crawlId, threads, url);
    floor.create();
    try {
      return new Rates(urls / floor.put(urls), urls / floor.complete(urls));
    } finally {
      floor.drop();
    }
  }

  TableName knownTable() {
    return known;
  }

  TableName queuedTable() {
    return queued;
  }

  void create() {
    drop();
    // One region each to start, as the frontier's tables: both grow by splits during the run.
    // The cluster's default memstore: on the frontier's own policies (BASIC known rows, EAGER
    // queued rows) the floor measured lower, and a floor is taken at its highest.
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

  void drop() {
    schemas.drop(known);
    schemas.drop(queued);
  }

  /** Seconds to put URLs 0..urls-1 as discovered; every one must be new. */
  double put(int urls) {
    return run(urls, true);
  }

  /** Seconds to complete URLs 0..urls-1; every one must be queued. */
  double complete(int urls) {
    return run(urls, false);
  }

  private double run(int urls, boolean discover) {
    AtomicReference<Throwable> error = new AtomicReference<>();
    AtomicLong written = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    long t0 = System.nanoTime();
    try {
      for (int t = 0; t < threads; t++) {
        int first = t;
        Thread w =
            new Thread(
                () -> {
                  try (Table knownRows = connection.getTable(known);
                      Table queuedRows = connection.getTable(queued)) {
                    for (int from = first * BATCH;
                        from < urls && error.get() == null;
                        from += threads * BATCH) {
                      written.addAndGet(
                          batch(
                              knownRows, queuedRows, from, Math.min(urls, from + BATCH), discover));
                    }
                  } catch (Throwable e) {
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
    } catch (InterruptedException e) {
      workers.forEach(Thread::interrupt);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("frontier storage floor interrupted", e);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (error.get() != null) {
      throw new IllegalStateException(
          "frontier storage floor failed: " + error.get().getMessage(), error.get());
    }
    // A floor that skipped URLs would be a rate of less work: refuse it.
    if (written.get() != urls) {
      throw new IllegalStateException(
          "frontier storage floor "
              + (discover ? "put " : "completed ")
              + written.get()
              + " of "
              + urls
              + " URLs");
    }
    return seconds;
  }

  /** One batch: reads its known rows, then stores its writes; answers how many URLs it wrote. */
  private int batch(Table knownRows, Table queuedRows, int from, int to, boolean discover)
      throws IOException, InterruptedException {
    List<Get> gets = new ArrayList<>(to - from);
    List<byte[][]> ids = new ArrayList<>(to - from);
    List<String> urls = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      String u = url.apply(i);
      byte[] hostId = Arrays.copyOf(md5(java.net.URI.create(u).getHost()), 8);
      byte[] urlId = md5(u);
      byte[] knownRow =
          KeyBuilder.create(32).addLong(CHANNEL).addFixed(hostId).addFixed(urlId).build();
      gets.add(new Get(knownRow).addFamily(KNOWN_FAMILY));
      ids.add(new byte[][] {hostId, urlId, knownRow});
      urls.add(u);
    }
    Result[] seen = knownRows.get(gets);
    long now = System.currentTimeMillis();
    List<Row> knownWrites = new ArrayList<>(seen.length);
    List<Row> queuedWrites = new ArrayList<>(seen.length);
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
        queuedWrites.add(
            new Put(queuedRow(hostId, now, urlId))
                .addColumn(URL_FAMILY, INFO, info)
                .addColumn(URL_FAMILY, VERSION, version)
                .addColumn(URL_FAMILY, DUE_AT, Bytes.toBytes(now)));
        knownWrites.add(
            new Put(knownRow)
                .addColumn(KNOWN_FAMILY, VERSION, version)
                .addColumn(KNOWN_FAMILY, INFO, info)
                .addColumn(KNOWN_FAMILY, PRIORITY, Bytes.toBytes(now))
                .addColumn(KNOWN_FAMILY, DUE_AT, Bytes.toBytes(now)));
      } else {
        byte[] priority = seen[j].getValue(KNOWN_FAMILY, PRIORITY);
        if (priority == null || priority.length == 0) {
          continue;
        }
        queuedWrites.add(new Delete(queuedRow(hostId, Bytes.toLong(priority), urlId)));
        // Done: an empty priority (no queued row), in the same Put as the new version.
        knownWrites.add(
            new Put(knownRow)
                .addColumn(KNOWN_FAMILY, VERSION, Bytes.toBytes(now + j))
                .addColumn(KNOWN_FAMILY, PRIORITY, new byte[0])
                .addColumn(KNOWN_FAMILY, DUE_AT, Bytes.toBytes(0L)));
      }
    }
    // Queued rows first, as the frontier writes them; both stored before the next read.
    queuedRows.batch(queuedWrites, new Object[queuedWrites.size()]);
    knownRows.batch(knownWrites, new Object[knownWrites.size()]);
    return knownWrites.size();
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
