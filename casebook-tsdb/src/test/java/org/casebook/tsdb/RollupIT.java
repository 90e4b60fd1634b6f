package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
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

/**
 * Hourly rollups on real HBase: a query downsampled by whole hours answers from them exactly as
 * from the points (sum, count, min, max, avg; grouped or not; fill policies; rates), reads the
 * rollups rather than the points, honours every {@code rollupUsage}, and stays equal to the points'
 * answer after late points, deletes, retention and writers racing compactions.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RollupIT {
  private static final String NAMESPACE = "tsdbrollup";
  private static final long MINUTE = 60_000L;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;
  private Platform platform;
  private SystemContext context;
  private TsdbService service;
  private final long now = System.currentTimeMillis();
  private final long t0 = (now / DAY - 3) * DAY;

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
                .withRetention(TsdbRetention.parse("rollup.ret=2d")));
  }

  @AfterAll
  void stop() {
    service.close();
    platform.close();
  }

  /**
   * Six series (hosts h0..h5 in data centres a and b) every 5 minutes from three days ago to ten
   * minutes ago: even hosts integers, odd hosts fractions, h5 with every fifth hour missing.
   */
  private void writeSeries(String metric) {
    List<IncomingPoint> points = new ArrayList<>();
    for (int h = 0; h < 6; h++) {
      String dc = h < 3 ? "a" : "b";
      for (long ts = t0; ts < now - 10 * MINUTE; ts += 5 * MINUTE) {
        if (h == 5 && (ts / HOUR) % 5 == 0) {
          continue;
        }
        long i = (ts - t0) / (5 * MINUTE);
        DataPoint value =
            h % 2 == 0
                ? DataPoint.ofLong(ts, (i * 7 + h) % 101)
                : DataPoint.ofDouble(ts, Math.sin(i / 10.0 + h) * 100.0 / 3.0);
        points.add(
            new IncomingPoint(metric, ts, false, value, false, Map.of("host", "h" + h, "dc", dc)));
      }
    }
    service.write(points, true);
  }

  private static SubQuery withUsage(SubQuery s, RollupUsage usage) {
    return new SubQuery(
        s.aggregator(),
        s.metric(),
        s.rate(),
        s.rateOptions(),
        s.downsample(),
        s.filters(),
        s.explicitTags(),
        usage);
  }

  private List<QueryResult> run(String m, long startMs, long endMs, RollupUsage usage) {
    OpenTsdbQuery q =
        new OpenTsdbQuery(
            startMs, endMs, List.of(withUsage(SubQuery.parseM(m), usage)), false, false, false);
    return service.query(q).get(0);
  }

  /** Same groups, tags and timestamps; values equal (within {@code relative} of each other). */
  private static void assertSameAnswer(
      List<QueryResult> rolled, List<QueryResult> raw, double relative, String what) {
    assertThat(rolled).as(what).hasSameSizeAs(raw);
    for (int g = 0; g < raw.size(); g++) {
      QueryResult a = rolled.get(g);
      QueryResult b = raw.get(g);
      assertThat(a.tags()).as(what).isEqualTo(b.tags());
      assertThat(a.aggregateTags()).as(what).isEqualTo(b.aggregateTags());
      assertThat(a.points()).as(what).hasSameSizeAs(b.points());
      for (int i = 0; i < b.points().size(); i++) {
        ResultPoint x = a.points().get(i);
        ResultPoint y = b.points().get(i);
        assertThat(x.timestampMs()).as(what).isEqualTo(y.timestampMs());
        assertThat(x.kind()).as(what).isEqualTo(y.kind());
        if (relative == 0 || Double.isNaN(y.doubleValue())) {
          assertThat(Double.valueOf(x.doubleValue()))
              .as(what + " at " + x.timestampMs())
              .isEqualTo(Double.valueOf(y.doubleValue()));
        } else {
          double tolerance = relative * Math.max(1, Math.abs(y.doubleValue()));
          assertThat(x.doubleValue())
              .as(what + " at " + x.timestampMs())
              .isCloseTo(y.doubleValue(), org.assertj.core.data.Offset.offset(tolerance));
        }
      }
    }
  }

  private void assertRollupsEqualPoints(String metric, long startMs, long endMs) {
    for (String function : List.of("sum", "count", "min", "max", "avg", "mimmax")) {
      for (String interval : List.of("1h", "2h", "6h", "1d")) {
        for (String fill : List.of("", "-zero", "-null")) {
          for (String shape : List.of("sum:%s:" + metric + "{dc=*}", "avg:%s:" + metric)) {
            String ds = interval + "-" + function + fill;
            String m = String.format(shape, ds);
            double relative = interval.equals("1h") ? 0 : 1e-12;
            assertSameAnswer(
                run(m, startMs, endMs, RollupUsage.AUTO),
                run(m, startMs, endMs, RollupUsage.RAW),
                relative,
                m);
          }
        }
      }
    }
    String rate = "sum:1h-avg:rate:" + metric + "{host=*}";
    assertSameAnswer(
        run(rate, startMs, endMs, RollupUsage.AUTO),
        run(rate, startMs, endMs, RollupUsage.RAW),
        0,
        rate);
  }

  @Test
  void queriesByWholeHoursAnswerFromRollupsAsFromThePoints() {
    String metric = TestIds.unique("rollup.equal");
    writeSeries(metric);
    service.compactAll();

    // A start inside an hour and an end now: rolled-up hours, then the hours not rolled up yet.
    assertRollupsEqualPoints(metric, t0 + 17 * MINUTE, now);
    // Rollups only: the same answer up to the hours not rolled up yet, nothing after them. A
    // point written now is in an hour not rolled up yet, whatever the time.
    long late = System.currentTimeMillis();
    service.write(
        List.of(
            new IncomingPoint(
                metric,
                late,
                false,
                DataPoint.ofLong(late, 1),
                false,
                Map.of("host", "h0", "dc", "a"))),
        true);
    long end = late + 1_000;
    // Series by series: a group of several interpolates a series without a point in the last
    // rolled-up hour from its points after it, which the rollups do not hold.
    String bySeries = "sum:1h-sum:" + metric + "{host=*,dc=*}";
    List<QueryResult> rolledOnly = run(bySeries, t0, end, RollupUsage.NOFALLBACK);
    List<QueryResult> raw = run(bySeries, t0, end, RollupUsage.RAW);
    long lastRolled =
        rolledOnly.stream()
            .mapToLong(r -> r.points().get(r.points().size() - 1).timestampMs())
            .max()
            .orElseThrow();
    assertThat(lastRolled).isLessThan(late / HOUR * HOUR).isGreaterThan(now - 3 * HOUR);
    assertThat(rolledOnly)
        .isEqualTo(run(bySeries, t0, lastRolled + HOUR - 1, RollupUsage.RAW))
        .hasSameSizeAs(raw);
    assertThat(raw)
        .filteredOn(r -> r.tags().get("host").equals("h0"))
        .singleElement()
        .extracting(r -> r.points().get(r.points().size() - 1).timestampMs())
        .isEqualTo(late / HOUR * HOUR);
  }

  @Test
  void aRolledQueryReadsOneCellPerSeriesAndHourWhereThePointsPassTheLimit() {
    String metric = TestIds.unique("rollup.limit");
    writeSeries(metric);
    service.compactAll();
    // Six series of about 72 hours: some 5,000 points, 430 rollup cells and a few recent points.
    try (TsdbService limited =
        new TsdbService(
            context,
            TsdbConfig.defaults()
                .withNamespace(NAMESPACE)
                .withQueryLimits(new QueryLimits(1_000, 0, Duration.ZERO)))) {
      OpenTsdbQuery rolled =
          new OpenTsdbQuery(
              t0, now, List.of(SubQuery.parseM("sum:1h-avg:" + metric)), false, false, false);
      assertThat(limited.query(rolled).get(0)).hasSize(1);
      OpenTsdbQuery raw =
          new OpenTsdbQuery(
              t0,
              now,
              List.of(withUsage(SubQuery.parseM("sum:1h-avg:" + metric), RollupUsage.RAW)),
              false,
              false,
              false);
      assertThatThrownBy(() -> limited.query(raw)).isInstanceOf(QueryLimitException.class);
    }
  }

  @Test
  void fallbacksReadThePointsOnlyWhenTheRollupsHoldNothing() {
    String metric = TestIds.unique("rollup.fallback");
    writeSeries(metric);
    // Not rolled up yet: the rollups hold nothing.
    String m = "sum:1h-max:" + metric;
    List<QueryResult> raw = run(m, t0, now, RollupUsage.RAW);
    assertThat(run(m, t0, now, RollupUsage.NOFALLBACK)).isEmpty();
    assertSameAnswer(run(m, t0, now, RollupUsage.FALLBACK_RAW), raw, 0, m);
    assertSameAnswer(run(m, t0, now, RollupUsage.FALLBACK), raw, 0, m);
    assertSameAnswer(run(m, t0, now, RollupUsage.AUTO), raw, 0, m);
    // Downsampling finer than an hour, or by a function no rollup holds: the points, whatever
    // the usage.
    service.compactAll();
    for (String other : List.of("sum:30m-avg:" + metric, "sum:1h-median:" + metric)) {
      assertSameAnswer(
          run(other, t0, now, RollupUsage.NOFALLBACK),
          run(other, t0, now, RollupUsage.RAW),
          0,
          other);
    }
  }

  @Test
  void latePointsAndDeletesAreRolledUpAgain() {
    String metric = TestIds.unique("rollup.late");
    writeSeries(metric);
    service.compactAll();
    long oldHour = t0 + 5 * HOUR;
    service.write(
        List.of(
            new IncomingPoint(
                metric,
                oldHour + 90_000,
                false,
                DataPoint.ofLong(oldHour + 90_000, 5_000),
                false,
                Map.of("host", "h0", "dc", "a"))),
        true);
    // The late point is in the points at once, in the rollups once its row is compacted again.
    String m = "max:1h-max:" + metric;
    assertThat(maxAt(run(m, t0, now, RollupUsage.RAW), oldHour)).isEqualTo(5_000.0);
    service.compactAll();
    assertThat(maxAt(run(m, t0, now, RollupUsage.NOFALLBACK), oldHour)).isEqualTo(5_000.0);
    assertRollupsEqualPoints(metric, t0, now);

    // A delete rewrites its rows and their rollups at once.
    service.delete(
        new OpenTsdbQuery(
            oldHour - 30 * MINUTE,
            oldHour + 3 * HOUR,
            List.of(SubQuery.parseM("sum:" + metric + "{host=h0|h1}")),
            false,
            false,
            false));
    assertRollupsEqualPoints(metric, t0, now);
  }

  private static double maxAt(List<QueryResult> answer, long ts) {
    return answer.get(0).points().stream()
        .filter(p -> p.timestampMs() == ts)
        .findFirst()
        .orElseThrow()
        .doubleValue();
  }

  @Test
  void retentionPurgesTheRollupsOfThePurgedHours() {
    String metric = "rollup.ret." + TestIds.unique("m");
    writeSeries(metric);
    service.compactAll();
    assertThat(run("sum:1h-count:" + metric, t0, now, RollupUsage.NOFALLBACK).get(0).points())
        .first()
        .extracting(ResultPoint::timestampMs)
        .isEqualTo(t0);

    service.purgeExpired();

    long firstKept = (now - 2 * DAY) / HOUR * HOUR;
    List<QueryResult> rolled = run("sum:1h-count:" + metric, t0, now, RollupUsage.NOFALLBACK);
    assertThat(rolled.get(0).points())
        .first()
        .extracting(ResultPoint::timestampMs)
        .isEqualTo(firstKept);
    assertRollupsEqualPoints(metric, t0, now);
  }

  @Test
  void writersRacingCompactionsAndPassesLeaveRollupsEqualToThePoints() throws Exception {
    String metric = TestIds.unique("rollup.race");
    writeSeries(metric);
    service.compactAll();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    AtomicBoolean stop = new AtomicBoolean();
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        work.add(
            pool.submit(
                () -> {
                  ThreadLocalRandom r = ThreadLocalRandom.current();
                  for (int i = 0; i < 150; i++) {
                    // Late points into old hours, each at its own millisecond.
                    long ts = t0 + r.nextLong(48) * HOUR + (i * 4 + writer) * 1_000L + 1;
                    service.write(
                        List.of(
                            new IncomingPoint(
                                metric,
                                ts,
                                false,
                                DataPoint.ofLong(ts, r.nextLong(1_000)),
                                false,
                                Map.of("host", "h" + r.nextInt(6), "dc", "a"))),
                        i % 10 == 0);
                  }
                }));
      }
      for (int c = 0; c < 2; c++) {
        work.add(
            pool.submit(
                () -> {
                  while (!stop.get()) {
                    service.compactAll();
                  }
                }));
      }
      for (int i = 0; i < 4; i++) {
        work.get(i).get();
      }
      stop.set(true);
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    service.compactAll();
    assertRollupsEqualPoints(metric, t0, now);
  }
}
