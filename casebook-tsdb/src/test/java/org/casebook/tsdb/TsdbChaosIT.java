package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.tsdb.wire.QueryJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Points written while HBase splits, merges, flushes and compacts the tsdb tables. A point
 * acknowledged by a synchronous write (what {@code /api/put?sync} ends in) must be readable right
 * away and afterwards exactly once, before and after row compaction.
 */
@ExtendWith(EmbeddedHBase.class)
class TsdbChaosIT {
  /** Tables of their own: the chaos acts on nothing another test reads. */
  private static final String NAMESPACE = "tsdbchaos";

  private static final int SERIES = 5;
  private static final int HOURS = 24;
  private static final long HOUR_MS = 3_600_000L;

  /** Spacing of one step's timestamp within its hour: room for 14,400 steps an hour. */
  private static final long SPACING_MS = 250;

  private static final int WORKERS = 4;

  /** Every tenth step of worker 0 also compacts the due rows, as the background task does. */
  private static final int COMPACT_EVERY = 10;

  /** What the workers wrote, by series and timestamp: acknowledged, or failed (maybe stored). */
  private static final class Ledger {
    final Map<String, Map<Long, Long>> acknowledged = new ConcurrentHashMap<>();
    final Map<String, Map<Long, Long>> inDoubt = new ConcurrentHashMap<>();
    final List<String> unseenAfterAck = java.util.Collections.synchronizedList(new ArrayList<>());

    void record(Map<String, Map<Long, Long>> to, List<IncomingPoint> points) {
      for (IncomingPoint p : points) {
        to.computeIfAbsent(p.tags().get("series"), k -> new ConcurrentHashMap<>())
            .put(p.timestampMs(), p.value().longValue());
      }
    }
  }

  @Test
  void everyAcknowledgedPointIsStoredOnceThroughSplitsMergesAndCompactions(HBaseRuntime runtime)
      throws Exception {
    String metric = TestIds.unique("chaos.points");
    // HOURS whole hours that ended two hours ago or earlier: every row is due for compaction.
    long t0 = (System.currentTimeMillis() / HOUR_MS - HOURS - 2) * HOUR_MS;
    TsdbSchema schema = TsdbSchema.in(NAMESPACE);
    AtomicLong sequence = new AtomicLong();
    Ledger ledger = new Ledger();
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      SystemContext context = platform.contextFor(new TsdbSystem().descriptor());
      try (TsdbService service =
          new TsdbService(context, TsdbConfig.defaults().withNamespace(NAMESPACE))) {
        ChaosLoad.Report report =
            ChaosLoad.run(
                runtime.connection(),
                List.of(schema.uid(), schema.data(), schema.annotation(), schema.series()),
                33L,
                Duration.ofSeconds(6),
                Duration.ofMillis(300),
                WORKERS,
                (worker, iteration) -> {
                  if (worker == 0 && iteration % COMPACT_EVERY == COMPACT_EVERY - 1) {
                    service.compactDue();
                  }
                  writeStep(service, metric, t0, sequence.getAndIncrement(), ledger);
                });

        long acknowledged = ledger.acknowledged.values().stream().mapToLong(Map::size).sum();
        String what =
            report.toString()
                + acknowledged
                + " points acknowledged, in doubt "
                + sizes(ledger.inDoubt)
                + ", buffered write failures "
                + service.asyncWriteFailures()
                + ", unseen right after their acknowledgement "
                + ledger.unseenAfterAck.size();
        assertThat(report.done(ChaosAction.SPLIT)).as(what).isGreaterThanOrEqualTo(1);
        assertThat(acknowledged).as(what).isPositive();

        ChaosLoad.afterRecovery(
            () -> {
              verify(service, metric, t0, ledger, "after the chaos\n" + what);
              return null;
            });
        int compacted = service.compactAll();
        verify(
            service,
            metric,
            t0,
            ledger,
            "after compacting " + compacted + " rows once the chaos ended\n" + what);

        // Last, so that a failure here still shows whether the points arrived in the end.
        List<String> unseen = List.copyOf(ledger.unseenAfterAck);
        assertThat(unseen.size())
            .as(
                "acknowledged points a query right after the acknowledgement missed, first: %s\n%s",
                unseen.subList(0, Math.min(10, unseen.size())), what)
            .isZero();
      }
    }
  }

  /**
   * One synchronous write of one point per series at the step's own timestamp; the points are
   * remembered as acknowledged only if the write returned, and then must be readable at once.
   */
  private static void writeStep(
      TsdbService service, String metric, long t0, long step, Ledger ledger) {
    // Steps go round the hours, so each series has a row in every hour to split between.
    long ts = t0 + (step % HOURS) * HOUR_MS + (step / HOURS) * SPACING_MS;
    if ((step / HOURS) * SPACING_MS >= HOUR_MS) {
      throw new IllegalStateException("more steps than timestamps: raise SPACING_MS's room");
    }
    List<IncomingPoint> points = new ArrayList<>(SERIES);
    for (int s = 0; s < SERIES; s++) {
      long value = (step + 1) * 10 + s;
      points.add(
          new IncomingPoint(
              metric, ts, true, DataPoint.ofLong(ts, value), false, Map.of("series", "s" + s)));
    }
    try {
      service.write(points, true);
    } catch (RuntimeException e) {
      ledger.record(ledger.inDoubt, points);
      throw e;
    }
    ledger.record(ledger.acknowledged, points);
    // "Durable when this returns": a query now must see the point.
    List<List<QueryResult>> answer =
        service.query(query(service, "sum:" + metric + "{series=s0}", ts, ts + 1, true));
    boolean seen =
        answer.get(0).stream()
            .flatMap(g -> g.points().stream())
            .anyMatch(p -> p.timestampMs() == ts && p.longValue() == (step + 1) * 10);
    if (!seen) {
      ledger.unseenAfterAck.add(
          "step " + step + " at " + ts + ": " + answer.get(0).size() + " group(s)");
    }
  }

  /**
   * The stored points against the ledger: every acknowledged point there once with its value,
   * nothing that was never written; then the query API's per-series sum and count must match.
   */
  private static void verify(
      TsdbService service, String metric, long t0, Ledger ledger, String what) {
    long end = t0 + HOURS * HOUR_MS - 1;
    Map<String, Map<Long, Long>> stored = new TreeMap<>();
    Map<String, List<Long>> twice = new TreeMap<>();
    for (Series s : service.queries().fetch(metric, t0, end)) {
      Map<Long, Long> points = new HashMap<>();
      for (DataPoint p : s.points()) {
        if (points.put(p.timestampMs(), p.longValue()) != null) {
          twice
              .computeIfAbsent(s.tags().get("series"), k -> new ArrayList<>())
              .add(p.timestampMs());
        }
      }
      stored.put(s.tags().get("series"), points);
    }
    assertThat(twice).as("points read twice " + what).isEmpty();

    Map<String, Long> expectedSum = new TreeMap<>();
    Map<String, Long> expectedCount = new TreeMap<>();
    for (int i = 0; i < SERIES; i++) {
      String series = "s" + i;
      Map<Long, Long> acked = ledger.acknowledged.getOrDefault(series, Map.of());
      Map<Long, Long> doubt = ledger.inDoubt.getOrDefault(series, Map.of());
      Map<Long, Long> found = stored.getOrDefault(series, Map.of());
      Set<Long> missing = new TreeSet<>(acked.keySet());
      missing.removeAll(found.keySet());
      assertThat(missing).as("acknowledged points of %s missing %s", series, what).isEmpty();
      Map<Long, Long> wrong = new TreeMap<>();
      long sum = 0;
      for (Map.Entry<Long, Long> p : found.entrySet()) {
        Long written =
            acked.containsKey(p.getKey()) ? acked.get(p.getKey()) : doubt.get(p.getKey());
        if (!p.getValue().equals(written)) {
          wrong.put(p.getKey(), p.getValue());
        }
        sum += p.getValue();
      }
      assertThat(wrong)
          .as("points of %s never written, or with another value, %s", series, what)
          .isEmpty();
      expectedSum.put(series, sum);
      expectedCount.put(series, (long) found.size());
    }

    // The same totals through the query API: one sum and one count over the range per series.
    assertThat(totals(service, "sum:0all-sum:" + metric + "{series=*}", t0, end))
        .as("per-series sums from /api/query " + what)
        .isEqualTo(expectedSum);
    assertThat(totals(service, "sum:0all-count:" + metric + "{series=*}", t0, end))
        .as("per-series counts from /api/query " + what)
        .isEqualTo(expectedCount);
  }

  /** The one value per group of a {@code 0all} query, by the group's series tag. */
  private static Map<String, Long> totals(TsdbService service, String m, long from, long to) {
    Map<String, Long> out = new TreeMap<>();
    for (QueryResult group : service.query(query(service, m, from, to, false)).get(0)) {
      assertThat(group.points()).as(m + " " + group).hasSize(1);
      // Exact: the values stay far below 2^53.
      out.put(group.tags().get("series"), (long) group.points().get(0).doubleValue());
    }
    return out;
  }

  private static OpenTsdbQuery query(
      TsdbService service, String m, long from, long to, boolean ms) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    params.put("start", List.of(Long.toString(from)));
    params.put("end", List.of(Long.toString(to)));
    params.put("m", List.of(m));
    if (ms) {
      params.put("ms", List.of("true"));
    }
    return QueryJson.fromParams(params, service.nowMs()).query();
  }

  private static Map<String, Integer> sizes(Map<String, Map<Long, Long>> points) {
    Map<String, Integer> out = new TreeMap<>();
    points.forEach((series, p) -> out.put(series, p.size()));
    return out;
  }
}
