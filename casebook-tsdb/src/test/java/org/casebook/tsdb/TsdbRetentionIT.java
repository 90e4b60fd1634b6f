package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.casebook.tsdb.wire.QueryJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Deleting points (OpenTSDB's {@code delete=true}, {@code tsdb delete}) and retention by metric
 * prefix, on real HBase: exactly the selected points go, compacted or not, a rerun changes nothing,
 * compactions racing deletes never bring points back, and expired hours are purged.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TsdbRetentionIT {
  private static final String NAMESPACE = "tsdbret";
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;
  private Platform platform;
  private SystemContext context;
  private TsdbService service;
  private final long t0 = (System.currentTimeMillis() / HOUR - 4) * HOUR;

  @BeforeAll
  void start(HBaseRuntime runtime) {
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    context = platform.contextFor(new TsdbSystem().descriptor());
    service =
        new TsdbService(
            context,
            TsdbConfig.defaults()
                .withNamespace(NAMESPACE)
                .withAllowDelete(true)
                .withRetention(TsdbRetention.parse("ret.short=2d,*=30d")));
  }

  @AfterAll
  void stop() {
    service.close();
    platform.close();
  }

  private static IncomingPoint point(String metric, long ts, long value, String host) {
    return new IncomingPoint(
        metric, ts, false, DataPoint.ofLong(ts, value), false, Map.of("host", host));
  }

  /** Every minute of two hours from t0, for each host. */
  private void writeTwoHours(String metric, String... hosts) {
    List<IncomingPoint> points = new ArrayList<>();
    for (String host : hosts) {
      for (int i = 0; i < 120; i++) {
        points.add(point(metric, t0 + i * 60_000L, i, host));
      }
    }
    service.write(points, true);
  }

  private Map<String, List<Long>> timesByHost(String metric) {
    Map<String, List<Long>> out = new LinkedHashMap<>();
    for (Series s : service.queries().fetch(metric, 0, t0 + 10 * HOUR)) {
      out.put(s.tags().get("host"), s.points().stream().map(DataPoint::timestampMs).toList());
    }
    return out;
  }

  private OpenTsdbQuery query(String m, long startMs, long endMs) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    params.put("start", List.of(Long.toString(startMs)));
    params.put("end", List.of(Long.toString(endMs)));
    params.put("m", List.of(m));
    return QueryJson.fromParams(params, service.nowMs()).query();
  }

  private static List<Long> minutesOutside(long from, long to, long t0) {
    List<Long> kept = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      long ts = t0 + i * 60_000L;
      if (ts < from || ts > to) {
        kept.add(ts);
      }
    }
    return kept;
  }

  @Test
  void aDeleteRemovesExactlyTheSelectedRangeCompactedOrRawAndARerunChangesNothing() {
    String metric = TestIds.unique("del.exact");
    writeTwoHours(metric, "a", "b");
    // The first hour compacted, then a late raw point into it: a row of both kinds.
    service.compactAll();
    service.write(List.of(point(metric, t0 + 30_000, 7, "a")), true);
    Map<String, List<Long>> before = timesByHost(metric);
    long from = t0 + 30 * 60_000L;
    long to = t0 + 90 * 60_000L;

    DeletedPoints deleted = service.delete(query("sum:" + metric + "{host=a}", from, to));

    // 61 whole minutes in [from, to] of host a; the late point at 30 s is before the range.
    assertThat(deleted.points()).isEqualTo(61);
    assertThat(deleted.answer()).singleElement().asList().hasSize(1);
    Map<String, List<Long>> after = timesByHost(metric);
    List<Long> expectedA = new ArrayList<>(minutesOutside(from, to, t0));
    expectedA.add(1, t0 + 30_000);
    assertThat(after.get("a")).containsExactlyElementsOf(expectedA);
    assertThat(after.get("b")).isEqualTo(before.get("b"));

    assertThat(service.delete(query("sum:" + metric + "{host=a}", from, to)).points()).isZero();
    assertThat(timesByHost(metric)).isEqualTo(after);
    // Compaction afterwards keeps the same answer.
    service.compactAll();
    assertThat(timesByHost(metric)).isEqualTo(after);
  }

  @Test
  void aDeleteStoppedHalfWayAndRunAgainEndsWhereOneWholeRunDoes() {
    String metric = TestIds.unique("del.rerun");
    writeTwoHours(metric, "a");
    long from = t0 + 10 * 60_000L;
    long to = t0 + 110 * 60_000L;
    // As if the run had stopped after its first row: only the first hour's part done.
    service.delete(query("sum:" + metric, from, t0 + HOUR - 1));
    service.delete(query("sum:" + metric, from, to));
    assertThat(timesByHost(metric).get("a")).isEqualTo(minutesOutside(from, to, t0));
    // Every point of the series in the range, then nothing: the series has no points left there.
    DeletedPoints all = service.delete(query("sum:" + metric, t0 - HOUR, t0 + 3 * HOUR));
    assertThat(all.points()).isEqualTo(minutesOutside(from, to, t0).size());
    assertThat(timesByHost(metric)).isEmpty();
  }

  @Test
  void compactionsRacingDeletesNeverBringPointsBack() throws Exception {
    String metric = TestIds.unique("del.race");
    String[] hosts = {"h0", "h1", "h2", "h3", "h4", "h5"};
    writeTwoHours(metric, hosts);
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(hosts.length + 1);
    try {
      Future<?> compacting =
          pool.submit(
              () -> {
                while (!done.get()) {
                  service.compactAll();
                  // Late raw points keep rows uncompacted, so compactions keep rewriting them.
                  service.write(List.of(point(metric, t0 + 59 * 60_000L + 1_000, 1, "late")), true);
                }
              });
      List<Future<Long>> deletes = new ArrayList<>();
      for (int i = 0; i < hosts.length; i++) {
        String host = hosts[i];
        long from = t0 + i * 10 * 60_000L;
        deletes.add(
            pool.submit(
                () ->
                    service
                        .delete(query("sum:" + metric + "{host=" + host + "}", from, from + HOUR))
                        .points()));
      }
      for (Future<Long> f : deletes) {
        f.get();
      }
      done.set(true);
      compacting.get();
    } finally {
      pool.shutdownNow();
    }
    service.compactAll();
    Map<String, List<Long>> after = timesByHost(metric);
    for (int i = 0; i < hosts.length; i++) {
      long from = t0 + i * 10 * 60_000L;
      assertThat(after.get(hosts[i])).as(hosts[i]).isEqualTo(minutesOutside(from, from + HOUR, t0));
    }
  }

  @Test
  void aDeletingQueryIsRefusedUnlessAllowedAndDeletesNothing() {
    String metric = TestIds.unique("del.refused");
    try (TsdbService strict =
        new TsdbService(context, TsdbConfig.defaults().withNamespace(NAMESPACE))) {
      strict.write(List.of(point(metric, t0, 1, "a")), true);
      assertThatThrownBy(() -> strict.queryAndDelete(query("sum:" + metric, t0 - 1, t0 + 1)))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("tsd.http.query.allow_delete=false")
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo("delete");
    }
    assertThat(timesByHost(metric).get("a")).containsExactly(t0);
  }

  @Test
  void retentionPurgesTheExpiredHoursOfTheMetricsItsRulesCover() {
    String shortLived = TestIds.unique("ret.short");
    String longLived = TestIds.unique("ret.long");
    long now = service.nowMs() / 1000 * 1000;
    for (String metric : List.of(shortLived, longLived)) {
      service.write(
          List.of(
              point(metric, now - 3 * DAY, 1, "a"),
              point(metric, now - DAY, 2, "a"),
              point(metric, now - HOUR, 3, "a")),
          true);
    }
    Map<String, Long> purged = service.purgeExpired();
    assertThat(purged).containsEntry(shortLived, 1L).doesNotContainKey(longLived);
    List<Long> kept =
        service.queries().fetch(shortLived, 0, now).get(0).points().stream()
            .map(DataPoint::timestampMs)
            .toList();
    assertThat(kept).containsExactly(now - DAY, now - HOUR);
    assertThat(service.queries().fetch(longLived, 0, now).get(0).points()).hasSize(3);
    assertThat(service.purgeExpired()).doesNotContainKey(shortLived);
  }

  @Test
  void retentionRulesReadAsTheSettingWritesThem() {
    TsdbRetention r = TsdbRetention.parse(" sys.=30d, sys.cpu.=1w ,*=1y");
    assertThat(r.keepMs("sys.cpu.user")).hasValue(7 * DAY);
    assertThat(r.keepMs("sys.mem")).hasValue(30 * DAY);
    assertThat(r.keepMs("app.requests")).hasValue(365 * DAY);
    assertThat(r).hasToString("sys.=30d,sys.cpu.=1w,*=1y");
    assertThat(TsdbRetention.parse("").keepsEverything()).isTrue();
    assertThat(TsdbRetention.parse("a.=1d").keepMs("b")).isEmpty();
    assertThatThrownBy(() -> TsdbRetention.parse("sys.30d"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PREFIX=DURATION");
    assertThatThrownBy(() -> TsdbRetention.parse("a=30m")).hasMessageContaining("keep at least 1h");
    assertThatThrownBy(() -> TsdbRetention.parse("a=1d,a=2d")).hasMessageContaining("two rules");
  }
}
