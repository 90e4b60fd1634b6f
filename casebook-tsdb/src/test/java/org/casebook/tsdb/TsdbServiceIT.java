package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TsdbServiceIT {
  private static final String NAMESPACE = "tsdbit";
  private Platform platform;
  private SystemContext context;
  private TsdbService service;
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 3) * 3_600_000L;

  @BeforeAll
  void start(HBaseRuntime runtime) {
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    context = platform.contextFor(new TsdbSystem().descriptor());
    service = new TsdbService(context, TsdbConfig.defaults().withNamespace(NAMESPACE));
  }

  @AfterAll
  void stop() {
    service.close();
    platform.close();
  }

  private UidStore uidStore() {
    return new UidStore(context.connection(), TsdbSchema.in(NAMESPACE));
  }

  private DataRowStore rowStore() {
    return new DataRowStore(context.connection(), TsdbSchema.in(NAMESPACE), TsdbKeys.data(0));
  }

  private PointStore pointStore() {
    return new PointStore(
        context.connection(),
        TsdbSchema.in(NAMESPACE),
        rowStore(),
        context.background("test-points"));
  }

  @Test
  void writersRacingOnNewNamesAllGetTheSameIds() throws Exception {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      names.add(TestIds.unique("race") + "." + i);
    }
    int threads = 12;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    Map<String, Set<String>> seen = new ConcurrentHashMap<>();
    List<Future<?>> futures = new ArrayList<>();
    UidStore store = uidStore();
    for (int t = 0; t < threads; t++) {
      futures.add(
          pool.submit(
              (Callable<Void>)
                  () -> {
                    Uids uids = new Uids(store); // a cache of its own: a writer of its own
                    go.await();
                    for (String n : names) {
                      byte[] id = uids.getOrAssign(UidKind.METRIC, n);
                      seen.computeIfAbsent(n, k -> ConcurrentHashMap.newKeySet())
                          .add(Arrays.toString(id));
                    }
                    return null;
                  }));
    }
    go.countDown();
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    Uids fresh = new Uids(store);
    Set<String> distinct = new HashSet<>();
    for (String n : names) {
      assertThat(seen.get(n)).as(n).hasSize(1);
      byte[] id = fresh.find(UidKind.METRIC, n).orElseThrow();
      assertThat(Arrays.toString(id)).isEqualTo(seen.get(n).iterator().next());
      assertThat(store.name(UidKind.METRIC, id)).contains(n);
      distinct.add(Arrays.toString(id));
    }
    assertThat(distinct).hasSize(names.size());
  }

  @Test
  void noPointIsLostWhileManyWritersAndTheCompactorShareARow() throws Exception {
    String metric = TestIds.unique("shared.row");
    int threads = 8;
    int perThread = 150;
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    List<Future<?>> writers = new ArrayList<>();
    try (PointStore store = pointStore()) {
      java.time.Clock clock = java.time.Clock.systemUTC();
      Rollups rollups =
          new Rollups(
              rowStore(),
              new RollupStore(context.connection(), TsdbSchema.in(NAMESPACE), 0),
              clock,
              0,
              context.metrics());
      Compactor compactor = new Compactor(rowStore(), rollups, clock, 0, false, context.metrics());
      for (int t = 0; t < threads; t++) {
        int thread = t;
        writers.add(
            pool.submit(
                (Callable<Void>)
                    () -> {
                      for (int i = 0; i < perThread; i++) {
                        long ts = t0 + (thread * perThread + i) * 2_000L;
                        service.write(
                            List.of(point(metric, ts, thread * 1_000L + i, Map.of("host", "a"))),
                            i % 10 == 0);
                      }
                      return null;
                    }));
      }
      Future<Integer> compactions =
          pool.submit(
              () -> {
                int rows = 0;
                while (writing.get()) {
                  rows += compactor.runAll();
                }
                return rows;
              });
      for (Future<?> f : writers) {
        f.get();
      }
      service.compactAll();
      writing.set(false);
      assertThat(compactions.get()).isPositive();
      pool.shutdown();
      service.compactAll();
    }
    List<Series> series =
        service.queries().fetch(metric, t0, t0 + (long) threads * perThread * 2_000L);
    assertThat(series).hasSize(1);
    assertThat(series.get(0).points()).hasSize(threads * perThread);
    for (DataPoint p : series.get(0).points()) {
      long n = (p.timestampMs() - t0) / 2_000L;
      assertThat(p.longValue()).isEqualTo((n / perThread) * 1_000L + n % perThread);
    }
  }

  @Test
  void compactionKeepsTheAnswerAndShrinksTheRow() throws Exception {
    String metric = TestIds.unique("compact.me");
    List<IncomingPoint> points = new ArrayList<>();
    for (int i = 0; i < 360; i++) {
      points.add(point(metric, t0 + i * 10_000L, 1_000_000L + i * 37L, Map.of("host", "b")));
      points.add(
          new IncomingPoint(
              metric,
              t0 + i * 10_000L + 5_000,
              false,
              DataPoint.ofDouble(t0 + i * 10_000L + 5_000, i / 4.0),
              true,
              Map.of("host", "c")));
    }
    service.write(points, true);
    List<Series> before = service.queries().fetch(metric, t0, t0 + 3_600_000L);
    byte[] metricId = new Uids(uidStore()).find(UidKind.METRIC, metric).orElseThrow();
    long rawBytes = rowBytes(metricId);
    assertThat(service.compactAll()).isGreaterThanOrEqualTo(2);
    long compactedBytes = rowBytes(metricId);
    assertThat(compactedBytes).isLessThan(rawBytes / 5);
    assertThat(service.queries().fetch(metric, t0, t0 + 3_600_000L)).isEqualTo(before);
    // A late point after compaction is read with the compacted ones, then compacted in too.
    service.write(List.of(point(metric, t0 + 1_000, 5, Map.of("host", "b"))), true);
    assertThat(service.queries().fetch(metric, t0, t0 + 3_600_000L).get(0).points()).hasSize(361);
    service.compactAll();
    assertThat(service.queries().fetch(metric, t0, t0 + 3_600_000L).get(0).points()).hasSize(361);
  }

  /** The bytes of every cell of the metric's rows, read straight from the data table. */
  private long rowBytes(byte[] metricId) throws java.io.IOException {
    long bytes = 0;
    try (org.apache.hadoop.hbase.client.Table t =
            context.connection().getTable(TsdbSchema.in(NAMESPACE).data());
        org.apache.hadoop.hbase.client.ResultScanner s =
            t.getScanner(
                org.casebook.core.key.KeyRange.prefix(metricId).toScan().addFamily(TsdbSchema.T))) {
      for (org.apache.hadoop.hbase.client.Result r : s) {
        for (org.apache.hadoop.hbase.Cell c : r.rawCells()) {
          // The whole cell as HBase stores it: key (row, family, qualifier, time) and value.
          bytes += c.getSerializedSize();
        }
      }
    }
    return bytes;
  }

  @Test
  void aSaltedStoreWritesAndReadsAcrossBuckets(HBaseRuntime runtime) {
    String ns = "tsdbsalted";
    try (TsdbService salted =
        new TsdbService(context, TsdbConfig.defaults().withNamespace(ns).withSaltBuckets(4))) {
      String metric = TestIds.unique("salted");
      List<IncomingPoint> points = new ArrayList<>();
      for (int h = 0; h < 20; h++) {
        points.add(point(metric, t0, h, Map.of("host", "h" + h)));
      }
      salted.write(points, true);
      List<Series> series = salted.queries().fetch(metric, t0, t0 + 1);
      assertThat(series).hasSize(20);
      assertThat(salted.lookup(metric, List.of(), 100).results()).hasSize(20);
    }
    assertThatThrownBy(() -> new TsdbService(context, TsdbConfig.defaults().withNamespace(ns)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("created with 4 salt buckets");
  }

  @Test
  void aFirstSaltedStartPreSplitsTheEmptyDataTableThePlatformCreated(HBaseRuntime runtime)
      throws Exception {
    String ns = "tsdbresalt";
    TsdbSchema schema = TsdbSchema.in(ns);
    // As the platform creates the descriptor's tables before a start: unsalted, one region.
    new org.casebook.core.schema.SchemaManager(runtime.connection()).ensureAll(schema.tables(0));
    try (TsdbService salted =
            new TsdbService(context, TsdbConfig.defaults().withNamespace(ns).withSaltBuckets(4));
        org.apache.hadoop.hbase.client.Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getRegions(schema.data())).hasSize(4);
      String metric = TestIds.unique("resalted");
      salted.write(List.of(point(metric, t0, 1, Map.of("host", "a"))), true);
      assertThat(salted.queries().fetch(metric, t0, t0 + 1)).hasSize(1);
    }
    // Once used, the table stays as it is: another count is refused, not re-created.
    assertThatThrownBy(
            () ->
                new TsdbService(
                    context, TsdbConfig.defaults().withNamespace(ns).withSaltBuckets(8)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("created with 4 salt buckets");
  }

  @Test
  void literalTagFiltersNarrowTheScanOnTheServer() {
    String metric = TestIds.unique("narrow");
    List<IncomingPoint> points = new ArrayList<>();
    for (String host : List.of("a", "b", "c")) {
      for (String dc : List.of("x", "y")) {
        points.add(point(metric, t0, 1, Map.of("host", host, "dc", dc, "rack", "r1")));
      }
    }
    // Shorter rows: the wanted pair at another position, or a row too short for a pattern.
    points.add(point(metric, t0, 1, Map.of("host", "b")));
    points.add(point(metric, t0, 1, Map.of("rack", "r2")));
    service.write(points, true);
    Uids uids = new Uids(uidStore());
    for (String m : List.of("{host=b}", "{host=b|c,dc=y}", "{dc=y}{host=a}")) {
      SubQuery q = SubQuery.parseM("sum:" + metric + m);
      TagScanPlan plan = TagScanPlan.of(q, uids, 8).orElseThrow();
      List<Series> read = service.queries().fetch(metric, t0, t0 + 1, Optional.of(plan));
      int expected =
          switch (m) {
            case "{host=b}" -> 3;
            case "{host=b|c,dc=y}" -> 2;
            default -> 1;
          };
      assertThat(read).as(m).hasSize(expected);
    }
    assertThat(TagScanPlan.of(SubQuery.parseM("sum:" + metric + "{host=*}"), uids, 8)).isEmpty();
  }

  @Test
  void telnetPutsNeedAWriteGrantAndAConnectionThatWroteLeavesOneAuditEntry() throws Exception {
    String metric = TestIds.unique("guarded");
    org.casebook.core.AccessRule rule =
        org.casebook.core.AccessRule.of(
            List.of(
                new org.casebook.core.access.Principal(
                    "grafana",
                    org.casebook.core.AccessRule.sha256("read-only"),
                    Map.of("tsdb", org.casebook.core.access.Action.READ)),
                new org.casebook.core.access.Principal(
                    "collector",
                    org.casebook.core.AccessRule.sha256("s3cret"),
                    Map.of("tsdb", org.casebook.core.access.Action.WRITE))),
            Map.of("tsdb", org.casebook.core.access.Action.READ));
    List<org.casebook.core.access.AuditEntry> trail =
        java.util.Collections.synchronizedList(new ArrayList<>());
    io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    List<String> replies = new ArrayList<>();
    org.casebook.core.net.LineProtocol.Session session =
        new org.casebook.tsdb.wire.TelnetProtocol(
                service,
                new org.casebook.core.access.AccessGate(
                    rule, "tsdb", trail::add, meters, java.time.Clock.systemUTC()))
            .open(new java.net.InetSocketAddress("127.0.0.1", 1));
    String put = "put " + metric + " " + t0 / 1000 + " 1 host=a";
    session.line(put, replies::add);
    session.line("auth wrong", replies::add);
    session.line(put, replies::add);
    session.line("auth read-only", replies::add);
    session.line(put, replies::add);
    session.line("auth s3cret", replies::add);
    session.line(put, replies::add);
    session.drained(replies::add);
    session.close();
    assertThat(replies)
        .containsExactly(
            "put: writes need a token here: send `auth <token>` first",
            "auth: refused",
            "put: writes need a token here: send `auth <token>` first",
            "auth: ok",
            "put: grafana may not write here",
            "auth: ok");
    service.write(List.of(), true);
    assertThat(service.queries().fetch(metric, t0, t0 + 1)).hasSize(1);
    assertThat(trail)
        .extracting(e -> e.who() + ": " + e.outcome())
        .containsExactly(
            "anonymous: 0 point(s) written, 1 put(s) refused",
            "anonymous: 0 point(s) written, 1 put(s) refused",
            "grafana: 0 point(s) written, 1 put(s) refused",
            "collector: 1 point(s) written");
    assertThat(trail).allMatch(e -> e.remote().equals("127.0.0.1:1"));
    assertThat(
            meters
                .get("casebook.access.denied")
                .tag("protocol", "telnet")
                .tag("reason", "forbidden")
                .counter()
                .count())
        .isEqualTo(1.0);
  }

  @Test
  void aRenamedMetricKeepsItsData() {
    String metric = TestIds.unique("old.name");
    String renamed = TestIds.unique("new.name");
    service.write(List.of(point(metric, t0, 1, Map.of("host", "a"))), true);
    service.rename("metrics", metric, renamed);
    assertThat(service.queries().fetch(renamed, t0, t0 + 1)).hasSize(1);
    assertThatThrownBy(() -> service.queries().fetch(metric, t0, t0 + 1))
        .hasMessageContaining("No such name");
    assertThat(service.grep("metrics", "^" + renamed.replace(".", "\\.") + "$", 10))
        .containsOnlyKeys(renamed);
    assertThat(Optional.ofNullable(service.suggest("metrics", renamed, 5)))
        .get()
        .asList()
        .containsExactly(renamed);
  }

  /**
   * A note deleted and saved again within one millisecond of HBase's clock is there: a delete
   * covers the deleted note's own time, not the millisecond it was sent in.
   */
  @Test
  void anAnnotationSavedAgainInTheMillisecondOfItsDeleteIsKept() throws Exception {
    long start = t0 / 1000 + 4242;
    AnnotationChange first = new AnnotationChange("", start, null, "first", null, null);
    AnnotationChange again = new AnnotationChange("", start, null, "again", null, null);
    EmbeddedHBase.withClockHeldStill(
        () -> {
          service.saveAnnotation(first, true);
          EmbeddedHBase.advanceHeldClock(1);
          service.deleteAnnotation("", start);
          assertThat(service.annotation("", start)).isEmpty();
          service.saveAnnotation(again, true);
          assertThat(service.annotation("", start).map(Annotation::description)).contains("again");
          EmbeddedHBase.advanceHeldClock(1);
          assertThat(service.deleteAnnotations(List.of(), true, start * 1000, start * 1000 + 999))
              .isOne();
          service.saveAnnotation(first, true);
          assertThat(service.annotation("", start).map(Annotation::description)).contains("first");
        });
    service.deleteAnnotation("", start);
  }

  /**
   * A renamed metric's old name given to a new metric within the millisecond of the rename: the new
   * mapping is there for a reader that never cached it.
   */
  @Test
  void anOldNameGivenAgainInTheMillisecondOfItsRenameIsKept() throws Exception {
    String metric = TestIds.unique("reused.name");
    String renamed = TestIds.unique("moved.name");
    EmbeddedHBase.withClockHeldStill(
        () -> {
          service.write(List.of(point(metric, t0, 1, Map.of("host", "a"))), true);
          EmbeddedHBase.advanceHeldClock(1);
          service.rename("metrics", metric, renamed);
          service.write(List.of(point(metric, t0, 2, Map.of("host", "b"))), true);
        });
    try (TsdbService fresh =
        new TsdbService(context, TsdbConfig.defaults().withNamespace(NAMESPACE))) {
      List<Series> reused = fresh.queries().fetch(metric, t0, t0 + 1);
      assertThat(reused).hasSize(1);
      assertThat(reused.get(0).tags()).containsEntry("host", "b");
      assertThat(fresh.queries().fetch(renamed, t0, t0 + 1).get(0).tags())
          .containsEntry("host", "a");
    }
  }

  @Test
  void pointsWrittenWithoutSyncAreGatheredPerRowAndAllStoredByClose(HBaseRuntime runtime) {
    String ns = "tsdbgather";
    String metric = TestIds.unique("gathered");
    int batches = 40;
    try (TsdbService writer = new TsdbService(context, TsdbConfig.defaults().withNamespace(ns))) {
      // Batches as a collector sends them: every series once per batch, a step later each time.
      for (int b = 0; b < batches; b++) {
        List<IncomingPoint> batch = new ArrayList<>();
        for (int h = 0; h < 5; h++) {
          batch.add(point(metric, t0 + b * 1000L, b, Map.of("host", "h" + h)));
        }
        // The same column again and again: the last write must win, as with separate puts.
        batch.add(point(metric, t0, b, Map.of("host", "same")));
        writer.write(batch, false);
      }
    } // close hands over what is gathered and flushes
    try (TsdbService reader = new TsdbService(context, TsdbConfig.defaults().withNamespace(ns))) {
      List<Series> series = reader.queries().fetch(metric, t0, t0 + 3_600_000L - 1);
      assertThat(series).hasSize(6);
      for (Series s : series) {
        if (s.tags().get("host").equals("same")) {
          assertThat(s.points()).hasSize(1);
          assertThat(s.points().get(0).longValue()).isEqualTo(batches - 1);
        } else {
          assertThat(s.points()).hasSize(batches);
          assertThat(s.points().get(batches - 1).longValue()).isEqualTo(batches - 1);
        }
      }
    }
  }

  private static IncomingPoint point(String metric, long ts, long value, Map<String, String> tags) {
    return new IncomingPoint(metric, ts, false, DataPoint.ofLong(ts, value), false, tags);
  }
}
