package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.casebook.core.Json;

/**
 * The tag_values step of {@code bench tsdb}: a metric with {@code --tag-values} values of one tag
 * key and {@code --tag-history-days} days of history (one point per series and hour), then what
 * Grafana's OpenTSDB data source sends for the template query {@code tag_values(metric, key)}:
 * {@code GET /api/search/lookup?m=metric{key=*}&limit=L}, L its lookup limit (1,000 unless set
 * higher, here raised to the value count when larger), timed on both sides with every answer
 * checked to list exactly the values written.
 */
final class TsdbTagValues {
  static final String METRIC = "bench.tags.cpu";
  static final String KEY = "container";
  private static final int WARM_UPS = 20;

  /** Grafana's default lookup limit for the OpenTSDB data source. */
  private static final int GRAFANA_LOOKUP_LIMIT = 1000;

  /** The target for Casebook's p50. */
  private static final double TARGET_P50_MS = 5;

  private final TsdbBenchmark.Options o;
  private final long start;
  private final long end;
  private final List<String> values = new ArrayList<>();

  /**
   * @param options the sizes
   * @param nowSeconds the current time: the history ends on the hour before it
   */
  TsdbTagValues(TsdbBenchmark.Options options, long nowSeconds) {
    this.o = options;
    this.end = (nowSeconds / 3600 - 1) * 3600;
    this.start = end - (long) options.tagHistoryDays * 86_400;
    for (int v = 0; v < options.tagValues; v++) {
      values.add(String.format(Locale.ROOT, "ctr-%05d", v));
    }
  }

  long points() {
    return (end - start) / 3600 * values.size();
  }

  /** The lookup Grafana sends for {@code tag_values(METRIC, KEY)}: path and query string. */
  String request() {
    return "/api/search/lookup?m="
        + TsdbClient.enc(METRIC + "{" + KEY + "=*}")
        + "&limit="
        + Math.max(GRAFANA_LOOKUP_LIMIT, values.size());
  }

  /** Writes the data set to {@code t} and waits until every point is readable. */
  Map<String, Object> write(TsdbClient t) throws Exception {
    return TsdbBulkWrite.write(t, "tag_values put", METRIC, points(), start, end, this::lines);
  }

  /** A connection's lines: its share of the values, hour after hour. */
  private Iterator<String> lines(int connection, int connections) {
    long hours = (end - start) / 3600;
    return new Iterator<>() {
      private long hour;
      private int value = connection;

      @Override
      public boolean hasNext() {
        return connection < values.size() && hour < hours;
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
                + (start + hour * 3600)
                + " "
                + (value % 100)
                + " "
                + KEY
                + "="
                + values.get(value)
                + "\n";
        value += connections;
        if (value >= values.size()) {
          value = connection;
          hour++;
        }
        return line;
      }
    };
  }

  /**
   * Waits until {@code t}'s lookup lists every value, at most two minutes: OpenTSDB's meta table
   * rows are written as its points are, answered when queued.
   */
  void awaitListed(TsdbClient t) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    String wrong = "no answer";
    while (System.nanoTime() < deadline) {
      HttpResponse<byte[]> r = t.get(request());
      wrong = r.statusCode() == 200 ? wrongListing(r.body()) : "status " + r.statusCode();
      if (wrong == null) {
        return;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(t.name() + " lookup after 2 minutes: " + wrong);
  }

  /** Null when an answer lists each value once and nothing else; else how it does not. */
  private String wrongListing(byte[] body) throws Exception {
    JsonNode results = Json.mapper().readTree(body).get("results");
    if (results == null || !results.isArray()) {
      return "no results array";
    }
    Set<String> listed = new HashSet<>();
    for (JsonNode r : results) {
      JsonNode v = r.path("tags").get(KEY);
      listed.add(v == null ? "(no " + KEY + ")" : v.asText());
    }
    if (results.size() == values.size() && listed.equals(new HashSet<>(values))) {
      return null;
    }
    Set<String> missing = new HashSet<>(values);
    missing.removeAll(listed);
    listed.removeAll(values);
    return results.size()
        + " results, "
        + missing.size()
        + " values missing, "
        + listed.size()
        + " not written"
        + (listed.isEmpty() ? "" : " (" + listed.iterator().next() + ")");
  }

  /** Times the lookup on each system, {@code --lookup-queries} runs after 20 warm-ups. */
  Result time(List<TsdbClient> targets, Map<String, Map<String, Object>> figures) throws Exception {
    Map<String, Side> sides = new LinkedHashMap<>();
    for (TsdbClient t : targets) {
      int[] wrong = {0};
      String[] first = {null};
      TsdbTimedRuns runs =
          TsdbTimedRuns.of(
              t.name() + " tag_values lookup",
              WARM_UPS,
              o.lookupQueries,
              () -> t.get(request()),
              body -> {
                String w = wrongListing(body);
                if (w != null) {
                  wrong[0]++;
                  if (first[0] == null) {
                    first[0] = w;
                  }
                }
              });
      figures.get(t.name()).put("query tag_values lookup", runs.latency().toJson());
      sides.put(t.name(), new Side(runs.latency(), wrong[0], first[0]));
    }
    return new Result(sides.get("casebook"), sides.get("opentsdb"));
  }

  /**
   * One system's figures.
   *
   * @param latency the timed runs
   * @param wrongAnswers answers (warm-ups included) not listing exactly the values written
   * @param firstWrong null, or how the first such answer was wrong
   */
  record Side(Latency latency, int wrongAnswers, String firstWrong) {}

  /** The step's figures: Casebook's and OpenTSDB's. */
  record Result(Side casebook, Side opentsdb) {
    /** Prints the step's rows of the {@code bench tsdb} table ({@code fmt}: its four columns). */
    void print(String fmt, TsdbBenchmark.Options o) {
      String what =
          String.format(
              Locale.ROOT, "tag_values, %,d values x %d d", o.tagValues, o.tagHistoryDays);
      for (double p : new double[] {50, 99}) {
        double c = casebook.latency().millis(p);
        double t = opentsdb.latency().millis(p);
        System.out.printf(
            Locale.ROOT,
            fmt,
            what + " p" + (int) p + " (ms)",
            String.format(Locale.ROOT, "%.2f", c),
            String.format(Locale.ROOT, "%.2f", t),
            String.format(Locale.ROOT, "%.2f", c / t));
      }
      System.out.printf(
          Locale.ROOT,
          "%-44s %s%n",
          "  Casebook p50 <= 5 ms",
          casebook.latency().millis(50) <= TARGET_P50_MS ? "target met" : "target not met");
      System.out.printf(
          Locale.ROOT,
          "%-44s %s%n",
          "  every answer lists exactly the values",
          casebook.wrongAnswers() == 0 && opentsdb.wrongAnswers() == 0
              ? "true"
              : describe("Casebook", casebook) + describe("OpenTSDB", opentsdb));
    }

    private static String describe(String name, Side s) {
      return s.wrongAnswers() == 0
          ? ""
          : name + ": " + s.wrongAnswers() + " wrong, first " + s.firstWrong() + "; ";
    }

    Map<String, Object> toJson(TsdbTagValues step) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("metric", METRIC);
      m.put("tagKey", KEY);
      m.put("values", step.values.size());
      m.put("historyDays", step.o.tagHistoryDays);
      m.put("points", step.points());
      m.put("request", "GET " + step.request());
      m.put("warmUps", WARM_UPS);
      m.put("timedRuns", step.o.lookupQueries);
      m.put("targetCasebookP50Ms", TARGET_P50_MS);
      m.put("casebook", sideJson(casebook));
      m.put("opentsdb", sideJson(opentsdb));
      return m;
    }

    private static Map<String, Object> sideJson(Side s) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("latency", s.latency().toJson());
      m.put("wrongAnswers", s.wrongAnswers());
      m.put("firstWrong", s.firstWrong());
      return m;
    }
  }
}
