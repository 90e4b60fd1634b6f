package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import org.casebook.tsdb.gen.TsdbGenerator;

/**
 * The long-range step of {@code bench tsdb}, for the rollup target: {@code --long-series} series
 * (tag {@code host}) over {@code --long-days} days, one point every {@code
 * --long-interval-seconds}, written to both systems. After both sides are compacted (Casebook's
 * compaction also writes its hourly rollups of finished hours), one question over the whole range,
 * {@code sum:1h-avg:bench.long.cpu{host=*}}, is asked three ways: Casebook as a client asks it (no
 * {@code rollupUsage}: Casebook uses its rollups where they answer it), Casebook on the raw path
 * ({@code "rollupUsage":"ROLLUP_RAW"}), and OpenTSDB as a client asks it (no rollups configured
 * there, so raw).
 */
final class TsdbLongRange {
  static final String METRIC = "bench.long.cpu";
  private static final int WARM_UPS = 5;

  /** The target for both ratios: raw ÷ rollup and OpenTSDB ÷ rollup. */
  private static final double TARGET_RATIO = 10;

  private final TsdbBenchmark.Options o;
  private final long start;
  private final long end;
  private final long pointsPerSeries;

  /**
   * @param options the sizes
   * @param nowSeconds the current time: the range ends on the hour at least two hours before it, so
   *     every hour of it is finished when compaction runs
   */
  TsdbLongRange(TsdbBenchmark.Options options, long nowSeconds) {
    this.o = options;
    this.end = (nowSeconds / 3600 - 2) * 3600;
    this.start = end - (long) options.longDays * 86_400;
    long span = end - start;
    this.pointsPerSeries = (span + options.longIntervalSeconds - 1) / options.longIntervalSeconds;
  }

  long points() {
    return pointsPerSeries * o.longSeries;
  }

  /** Writes the data set to {@code t} and waits until every point is readable. */
  Map<String, Object> write(TsdbClient t) throws Exception {
    return TsdbBulkWrite.write(t, "long-range put", METRIC, points(), start, end, this::lines);
  }

  /**
   * A connection's lines: its share of the hosts, in time order across them, as collectors send.
   */
  private Iterator<String> lines(int connection, int connections) {
    return new Iterator<>() {
      private long step;
      private int host = connection;

      @Override
      public boolean hasNext() {
        return connection < o.longSeries && step < pointsPerSeries;
      }

      @Override
      public String next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        String line =
            "put "
                + METRIC
                + " "
                + (start + step * o.longIntervalSeconds)
                + " "
                + value(host, step)
                + " host="
                + TsdbGenerator.hostName(host)
                + "\n";
        host += connections;
        if (host >= o.longSeries) {
          host = connection;
          step++;
        }
        return line;
      }
    };
  }

  /** A value with two decimals, 0.00 to 99.99, the same for a host and step on every run. */
  private static String value(int host, long step) {
    long mixed = (host * 1_000_003L + step) * 0x9E3779B97F4A7C15L;
    int v = (int) ((mixed >>> 33) % 10_000);
    int cents = v % 100;
    return (v / 100) + (cents < 10 ? ".0" : ".") + cents;
  }

  /** The {@code /api/query} body: the raw path asked for with {@code rollupUsage}, or not. */
  String body(boolean rawPath) {
    return "{\"start\":"
        + start
        + ",\"end\":"
        + (end - 1)
        + ",\"queries\":[{\"aggregator\":\"sum\",\"metric\":\""
        + METRIC
        + "\",\"downsample\":\"1h-avg\",\"tags\":{\"host\":\"*\"}"
        + (rawPath ? ",\"rollupUsage\":\"ROLLUP_RAW\"" : "")
        + "}]}";
  }

  /**
   * Times the three ways of asking, {@code --long-queries} runs each after 5 warm-ups, and compares
   * their answers; the latencies also go into {@code figures}.
   */
  Result time(TsdbClient casebook, TsdbClient opentsdb, Map<String, Map<String, Object>> figures)
      throws Exception {
    String automatic = body(false);
    String raw = body(true);
    TsdbTimedRuns rollup =
        TsdbTimedRuns.of(
            "casebook long-range, rollups allowed",
            WARM_UPS,
            o.longQueries,
            () -> casebook.post("/api/query", automatic),
            b -> {});
    TsdbTimedRuns rawPath =
        TsdbTimedRuns.of(
            "casebook long-range, ROLLUP_RAW",
            WARM_UPS,
            o.longQueries,
            () -> casebook.post("/api/query", raw),
            b -> {});
    TsdbTimedRuns theirs =
        TsdbTimedRuns.of(
            "opentsdb long-range",
            WARM_UPS,
            o.longQueries,
            () -> opentsdb.post("/api/query", automatic),
            b -> {});
    figures.get("casebook").put("query long range, rollups allowed", rollup.latency().toJson());
    figures.get("casebook").put("query long range, ROLLUP_RAW", rawPath.latency().toJson());
    figures.get("opentsdb").put("query long range", theirs.latency().toJson());
    return new Result(
        rollup,
        rawPath,
        theirs,
        shapeDifference(rollup.lastAnswer()),
        TsdbAnswers.difference(rollup.lastAnswer(), rawPath.lastAnswer(), "the raw path's"),
        TsdbAnswers.difference(rollup.lastAnswer(), theirs.lastAnswer(), "OpenTSDB's"));
  }

  /** Null when the answer has a group per series, each with a point per hour; else what not. */
  private String shapeDifference(JsonNode answer) {
    long hours = (end - start) / 3600;
    if (answer.size() != o.longSeries) {
      return answer.size() + " groups, not " + o.longSeries;
    }
    for (JsonNode g : answer) {
      if (g.get("dps").size() != hours) {
        return "group " + g.get("tags") + " has " + g.get("dps").size() + " points, not " + hours;
      }
    }
    return null;
  }

  /**
   * The step's figures.
   *
   * @param shape null, or how the rollup path's answer is not one group per series of hourly points
   * @param rawDifference null, or how the raw path's answer differs from the rollup path's
   * @param openTsdbDifference null, or how OpenTSDB's answer differs from the rollup path's
   */
  record Result(
      TsdbTimedRuns rollup,
      TsdbTimedRuns raw,
      TsdbTimedRuns openTsdb,
      String shape,
      String rawDifference,
      String openTsdbDifference) {
    boolean sameAnswers() {
      return shape == null && rawDifference == null && openTsdbDifference == null;
    }

    /** Prints the step's rows of the {@code bench tsdb} table ({@code fmt}: its four columns). */
    void print(String fmt, TsdbBenchmark.Options o) {
      String what = o.longSeries + " series x " + o.longDays + " d, sum:1h-avg";
      for (double p : new double[] {50, 99}) {
        row(fmt, what + " p" + (int) p + " (ms)", rollup.latency(), p);
      }
      for (double p : new double[] {50, 99}) {
        row(fmt, "  same, ROLLUP_RAW p" + (int) p + " (ms)", raw.latency(), p);
      }
      ratioRow("  raw / rollup p50 | p99 (target >= 10)", raw.latency());
      ratioRow("  OpenTSDB / rollup p50 | p99 (target >= 10)", openTsdb.latency());
      System.out.printf(
          Locale.ROOT,
          "%-44s %s%n",
          "  same answer (rollup, raw, OpenTSDB)",
          sameAnswers() ? "true" : String.join("; ", differences()));
    }

    private void row(String fmt, String label, Latency casebook, double p) {
      Latency theirs = openTsdb.latency();
      System.out.printf(
          Locale.ROOT,
          fmt,
          label,
          String.format(Locale.ROOT, "%.2f", casebook.millis(p)),
          String.format(Locale.ROOT, "%.2f", theirs.millis(p)),
          String.format(Locale.ROOT, "%.2f", casebook.millis(p) / theirs.millis(p)));
    }

    private void ratioRow(String label, Latency slower) {
      double p50 = slower.millis(50) / rollup.latency().millis(50);
      double p99 = slower.millis(99) / rollup.latency().millis(99);
      System.out.printf(
          Locale.ROOT,
          "%-44s %.2f | %.2f (%s)%n",
          label,
          p50,
          p99,
          p50 >= TARGET_RATIO && p99 >= TARGET_RATIO ? "target met" : "target not met");
    }

    private List<String> differences() {
      List<String> out = new java.util.ArrayList<>();
      if (shape != null) {
        out.add("rollup answer: " + shape);
      }
      if (rawDifference != null) {
        out.add("raw vs rollup: " + rawDifference);
      }
      if (openTsdbDifference != null) {
        out.add("OpenTSDB vs rollup: " + openTsdbDifference);
      }
      return out;
    }

    Map<String, Object> toJson(TsdbLongRange step) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("metric", METRIC);
      m.put("series", step.o.longSeries);
      m.put("days", step.o.longDays);
      m.put("intervalSeconds", step.o.longIntervalSeconds);
      m.put("start", step.start);
      m.put("end", step.end);
      m.put("points", step.points());
      m.put("warmUps", WARM_UPS);
      m.put("timedRuns", step.o.longQueries);
      Map<String, Object> requests = new LinkedHashMap<>();
      requests.put("casebookRollupsAllowed", "POST /api/query " + step.body(false));
      requests.put("casebookRaw", "POST /api/query " + step.body(true));
      requests.put("opentsdb", "POST /api/query " + step.body(false));
      m.put("requests", requests);
      m.put("casebookRollupsAllowed", rollup.latency().toJson());
      m.put("casebookRaw", raw.latency().toJson());
      m.put("opentsdb", openTsdb.latency().toJson());
      m.put("rawOverRollupP50", raw.latency().millis(50) / rollup.latency().millis(50));
      m.put("rawOverRollupP99", raw.latency().millis(99) / rollup.latency().millis(99));
      m.put("openTsdbOverRollupP50", openTsdb.latency().millis(50) / rollup.latency().millis(50));
      m.put("openTsdbOverRollupP99", openTsdb.latency().millis(99) / rollup.latency().millis(99));
      m.put("targetRatio", TARGET_RATIO);
      m.put("sameAnswers", sameAnswers());
      m.put("differences", differences());
      return m;
    }
  }
}
