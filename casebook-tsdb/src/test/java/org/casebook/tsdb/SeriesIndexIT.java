package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.HBaseRuntime;
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
class SeriesIndexIT {
  private static final String NAMESPACE = "tsdbindex";
  private static final long HOUR_MS = 3_600_000L;
  private Platform platform;
  private SystemContext context;
  private TsdbService service;

  /** Two days ago, on the hour: room for 48 hours of history before now. */
  private final long t0 = (System.currentTimeMillis() / HOUR_MS - 50) * HOUR_MS;

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

  @Test
  void lookupsFromTheIndexEqualTheDataScansOnTheSameData() {
    String cpu = TestIds.unique("idx.cpu");
    String mem = TestIds.unique("idx.mem");
    String net = TestIds.unique("idx.net");
    // Values that are prefixes of each other, CJK values and keys, series with different keys.
    List<Map<String, String>> cpuSeries =
        List.of(
            tags("host", "web1", "dc", "lga"),
            tags("host", "web10", "dc", "lga"),
            tags("host", "web100", "dc", "sjc"),
            tags("host", "甲", "dc", "北京"),
            tags("host", "甲乙", "dc", "北京"),
            tags("host", "web1", "dc", "lga", "cpu", "0"),
            tags("主机", "甲"));
    List<Map<String, String>> memSeries =
        List.of(tags("host", "web1"), tags("host", "web10"), tags("host", "乙", "dc", "lga"));
    List<IncomingPoint> points = new ArrayList<>();
    for (int h = 0; h < 3; h++) {
      long ts = t0 + h * HOUR_MS + 1000;
      cpuSeries.forEach(t -> points.add(point(cpu, ts, 1, t)));
      memSeries.forEach(t -> points.add(point(mem, ts, 2, t)));
    }
    points.add(point(net, t0, 3, tags("iface", "eth0")));
    service.write(points, true);

    List<Map<String, String>> queries =
        List.of(
            Map.of(),
            Map.of("host", "*"),
            Map.of("host", "web1"),
            Map.of("host", "web10"),
            Map.of("host", "甲"),
            Map.of("dc", "北京", "host", "*"),
            Map.of("主机", "*"),
            Map.of("cpu", "*"),
            Map.of("host", "nosuchvalue"),
            Map.of("nosuchkey", "*"));
    for (String metric : List.of(cpu, mem, net)) {
      for (Map<String, String> q : queries) {
        for (int limit : List.of(1000, 2)) {
          assertThat(fromIndex(metric, q, limit))
              .as("%s %s limit %d", metric, q, limit)
              .isEqualTo(fromData(metric, q, limit));
        }
      }
    }
    // The answers are not empty where they should not be: Grafana's tag_values(cpu, host).
    // Two series have host=web1; Grafana keeps each value once.
    assertThat(values(fromIndex(cpu, Map.of("host", "*"), 1000), "host"))
        .containsExactlyInAnyOrder("web1", "web1", "web10", "web100", "甲", "甲乙");
    assertThat(values(fromIndex(cpu, Map.of("dc", "北京", "host", "*"), 1000), "host"))
        .containsExactlyInAnyOrder("甲", "甲乙");
    assertThat(fromIndex(cpu, Map.of(), 1000)).hasSize(cpuSeries.size());
    assertThat(fromIndex(cpu, Map.of("host", "web1"), 1000)).hasSize(2);
    assertThat(fromIndex(mem, Map.of("host", "*"), 2)).hasSize(2);
    assertThat(fromIndex(cpu, Map.of("host", "nosuchvalue"), 1000)).isEmpty();
    // The service answers from the index: the metric was created with the index on.
    List<LookupResult> expected = fromIndex(cpu, Map.of("host", "*"), 1000);
    double indexRows = rowsRead("index");
    double dataRows = rowsRead("data");
    assertThat(service.lookup(cpu, List.of(new TagPair("host", "*")), 1000).results())
        .isEqualTo(expected);
    assertThat(rowsRead("index") - indexRows).isEqualTo(cpuSeries.size());
    assertThat(rowsRead("data")).isEqualTo(dataRows);
  }

  @Test
  void aNewValueWrittenAfterTheCacheIsWarmIsFound() {
    String metric = TestIds.unique("idx.warm");
    List<IncomingPoint> points = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      points.add(point(metric, t0 + i * 1000, i, tags("host", "h" + i)));
    }
    service.write(points, false);
    // Warm: the same series again, a later hour; nothing new to index.
    List<IncomingPoint> later = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      later.add(point(metric, t0 + HOUR_MS + i * 1000, i, tags("host", "h" + i)));
    }
    service.write(later, false);
    assertThat(values(lookup(metric, Map.of("host", "*")), "host"))
        .containsExactlyInAnyOrder("h0", "h1", "h2", "h3", "h4");
    // A new value, and a known value under a new key, without sync: indexed before it is queued.
    service.write(
        List.of(
            point(metric, t0 + 2 * HOUR_MS, 9, tags("host", "h5")),
            point(metric, t0 + 2 * HOUR_MS, 9, tags("host", "h1", "rack", "r1"))),
        false);
    assertThat(values(lookup(metric, Map.of("host", "*")), "host"))
        .containsExactlyInAnyOrder("h0", "h1", "h2", "h3", "h4", "h5", "h1");
    assertThat(values(lookup(metric, Map.of("rack", "*")), "rack")).containsExactly("r1");
    service.write(List.of(), true);
    assertThat(fromIndex(metric, Map.of(), 1000)).isEqualTo(fromData(metric, Map.of(), 1000));
  }

  @Test
  void aLookupFromTheIndexReadsOneRowPerSeriesHoweverLongTheHistory() {
    String metric = TestIds.unique("idx.cost");
    int values = 40;
    writeHours(metric, values, 0, 12);
    Map<String, String> tagValues = Map.of("host", "*");
    assertThat(rowsOf("index", () -> fromIndex(metric, tagValues, 1000))).isEqualTo(values);
    assertThat(rowsOf("data", () -> fromData(metric, tagValues, 1000))).isEqualTo(values * 12L);
    // Three times the history: the index reads the same rows, the data scan three times as many.
    writeHours(metric, values, 12, 36);
    assertThat(rowsOf("index", () -> fromIndex(metric, tagValues, 1000))).isEqualTo(values);
    assertThat(rowsOf("data", () -> fromData(metric, tagValues, 1000))).isEqualTo(values * 36L);
    assertThat(fromIndex(metric, tagValues, 1000)).hasSize(values);
    // A limit stops the index scan early.
    assertThat(rowsOf("index", () -> fromIndex(metric, tagValues, 5))).isEqualTo(5);
  }

  @Test
  void dataWrittenBeforeTheIndexIsScannedUntilReindexedThenIndexed() {
    String ns = "tsdbindexold";
    TsdbSchema schema = TsdbSchema.in(ns);
    schema.ensure(context.connection(), 0);
    String old = TestIds.unique("idx.old");
    // As a version without the index wrote them: ids and data rows only.
    Uids uids = new Uids(new UidStore(context.connection(), schema));
    try (PointStore rows =
        new PointStore(
            context.connection(),
            schema,
            new DataRowStore(context.connection(), schema, TsdbKeys.data(0)),
            context.background("test-old"))) {
      byte[] metric = uids.getOrAssign(UidKind.METRIC, old);
      for (int h = 0; h < 4; h++) {
        for (int v = 0; v < 6; v++) {
          byte[] tagRun =
              TsdbKeys.tagRun(
                  new byte[][] {
                    TsdbKeys.tagPair(
                        uids.getOrAssign(UidKind.TAGK, "host"),
                        uids.getOrAssign(UidKind.TAGV, "old" + v))
                  });
          long ts = t0 + h * HOUR_MS;
          byte[] value = PointCodec.value(DataPoint.ofLong(ts, v), false);
          rows.add(
              new byte[][] {rows.keys().row(metric, TsdbKeys.hourOf(ts), tagRun)},
              new byte[][] {PointCodec.qualifier(ts, false, PointCodec.flags(true, value.length))},
              new byte[][] {value});
        }
      }
      rows.flush();
    }
    try (TsdbService upgraded = new TsdbService(context, TsdbConfig.defaults().withNamespace(ns))) {
      Map<String, String> anyHost = Map.of("host", "*");
      // Not indexed: answered from the data rows, whole.
      double index0 = rowsRead("index");
      List<LookupResult> before =
          upgraded.lookup(old, List.of(new TagPair("host", "*")), 100).results();
      assertThat(values(before, "host")).hasSize(6);
      assertThat(rowsRead("index")).isEqualTo(index0);
      // A new series of the old metric is indexed, but the metric is not complete: still the scan.
      upgraded.write(List.of(point(old, t0 + 5 * HOUR_MS, 1, tags("host", "new"))), true);
      assertThat(
              values(
                  upgraded.lookup(old, List.of(new TagPair("host", "*")), 100).results(), "host"))
          .hasSize(7)
          .contains("new", "old0", "old5");
      assertThat(rowsRead("index")).isEqualTo(index0);
      // A metric created after the index: from the index at once.
      String fresh = TestIds.unique("idx.fresh");
      upgraded.write(List.of(point(fresh, t0, 1, tags("host", "a"))), true);
      assertThat(upgraded.lookup(fresh, List.of(), 10).results()).hasSize(1);
      assertThat(rowsRead("index")).isEqualTo(index0 + 1);

      ReindexReport report = upgraded.reindex(n -> {});
      assertThat(report.metrics()).isEqualTo(2);
      assertThat(report.dataRowsRead()).isEqualTo(4 * 6 + 1 + 1);
      assertThat(report.series()).isEqualTo(6 + 1 + 1);
      double index1 = rowsRead("index");
      double data1 = rowsRead("data");
      List<LookupResult> after =
          upgraded.lookup(old, List.of(new TagPair("host", "*")), 100).results();
      assertThat(rowsRead("index") - index1).isEqualTo(7);
      assertThat(rowsRead("data")).isEqualTo(data1);
      assertThat(after)
          .isEqualTo(upgraded.lookups().fromData(old, metricId(upgraded, old), anyHost, 100));
      // Again: the same rows.
      assertThat(upgraded.reindex(n -> {}).series()).isEqualTo(report.series());
      assertThat(upgraded.lookup(old, List.of(new TagPair("host", "*")), 100).results())
          .isEqualTo(after);
    }
    // Another process (the CLI's reindex, then a server start) sees the metric complete.
    try (TsdbService restarted =
        new TsdbService(context, TsdbConfig.defaults().withNamespace(ns))) {
      double index0 = rowsRead("index");
      assertThat(restarted.lookup(old, List.of(), 100).results()).hasSize(7);
      assertThat(rowsRead("index") - index0).isEqualTo(7);
    }
  }

  @Test
  void theCacheOfIndexedSeriesStaysBoundedAndForgottenSeriesAreWrittenAgain() {
    SeriesIndexStore store = new SeriesIndexStore(context.connection(), TsdbSchema.in(NAMESPACE));
    SeriesIndex index = new SeriesIndex(store, 0, 20);
    byte[] metric = TsdbKeys.uid(0xABCDEF);
    byte[][] metrics = new byte[50][];
    byte[][] runs = new byte[50][];
    for (int i = 0; i < 50; i++) {
      metrics[i] = metric;
      runs[i] = TsdbKeys.tagRun(new byte[][] {TsdbKeys.tagPair(TsdbKeys.uid(1), TsdbKeys.uid(i))});
    }
    index.index(metrics, runs);
    assertThat(index.remembered()).isLessThanOrEqualTo(20);
    index.index(metrics, runs);
    assertThat(index.remembered()).isLessThanOrEqualTo(20);
    List<byte[]> indexed = new ArrayList<>();
    index.series(metric, 0, indexed::add);
    assertThat(indexed).hasSize(50);
  }

  @Test
  void keptLookupsSeeThisProcessesNewSeriesAtOnceAndAnothersAfterTheRefresh() {
    SeriesIndexStore store = new SeriesIndexStore(context.connection(), TsdbSchema.in(NAMESPACE));
    SeriesIndex here = new SeriesIndex(store, 0, 1_000_000);
    SeriesIndex elsewhere = new SeriesIndex(store, 0, 1_000_000);
    byte[] metric = TsdbKeys.uid(0xABCDE0);
    byte[][] runs = new byte[3][];
    for (int i = 0; i < 3; i++) {
      runs[i] = TsdbKeys.tagRun(new byte[][] {TsdbKeys.tagPair(TsdbKeys.uid(1), TsdbKeys.uid(i))});
    }
    here.index(new byte[][] {metric}, new byte[][] {runs[0]});
    assertThat(seriesOf(here, metric, 1_000)).hasSize(1);
    here.index(new byte[][] {metric}, new byte[][] {runs[1]});
    assertThat(seriesOf(here, metric, 1_001)).hasSize(2);
    elsewhere.index(new byte[][] {metric}, new byte[][] {runs[2]});
    assertThat(seriesOf(here, metric, 1_002)).hasSize(2);
    assertThat(seriesOf(here, metric, 1_000 + SeriesIndex.LOOKUP_REFRESH_MS)).hasSize(3);
  }

  private static List<byte[]> seriesOf(SeriesIndex index, byte[] metric, long nowMs) {
    List<byte[]> out = new ArrayList<>();
    index.series(metric, nowMs, out::add);
    return out;
  }

  // ---- helpers ----

  private void writeHours(String metric, int values, int fromHour, int toHour) {
    List<IncomingPoint> points = new ArrayList<>();
    for (int h = fromHour; h < toHour; h++) {
      for (int v = 0; v < values; v++) {
        points.add(point(metric, t0 + h * HOUR_MS, v, tags("host", "host" + v)));
      }
    }
    service.write(points, true);
  }

  private List<LookupResult> lookup(String metric, Map<String, String> required) {
    return service.lookups().lookup(metric, required, 1000);
  }

  private List<LookupResult> fromIndex(String metric, Map<String, String> required, int limit) {
    return service.lookups().fromIndex(metric, metricId(service, metric), required, limit);
  }

  private List<LookupResult> fromData(String metric, Map<String, String> required, int limit) {
    return service.lookups().fromData(metric, metricId(service, metric), required, limit);
  }

  private static byte[] metricId(TsdbService s, String metric) {
    return s.queries().metricId(metric);
  }

  private double rowsRead(String source) {
    return context.metrics().counter("casebook.tsdb.lookup.rows", "source", source).count();
  }

  private double rowsOf(String source, Runnable lookup) {
    double before = rowsRead(source);
    lookup.run();
    return rowsRead(source) - before;
  }

  private static List<String> values(List<LookupResult> results, String key) {
    List<String> out = new ArrayList<>();
    results.forEach(r -> out.add(r.tags().get(key)));
    return out;
  }

  private static Map<String, String> tags(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static IncomingPoint point(String metric, long ts, long value, Map<String, String> tags) {
    return new IncomingPoint(metric, ts, false, DataPoint.ofLong(ts, value), false, tags);
  }
}
