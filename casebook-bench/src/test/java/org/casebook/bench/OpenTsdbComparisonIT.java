package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.tsdb.TsdbSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same points written to OpenTSDB 2.4.1 and to Casebook, on the same embedded HBase, give the
 * same {@code /api/query} answers: every aggregator, with and without downsampling, every fill
 * policy, rates with counter options, every filter type grouped and not. Values are compared as
 * numbers (and as integer or float), groups in order, tags as sets.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenTsdbComparisonIT {
  private static final String NAMESPACE = "tsdbcompare";
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private ServedSystem casebook;
  private OpenTsdbPeer peer;
  private String casebookBase;
  private String openTsdbBase;

  /** Three hours ago, on the hour, plus 17 s: points off the minute grid. */
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 3) * 3600L + 17;

  @BeforeAll
  void start(HBaseRuntime runtime) throws Exception {
    // Casebook as the server starts it, its tables in a namespace of this test's own.
    casebook =
        ServedSystem.start(
            runtime,
            new TsdbSystem(),
            AccessRule.open(),
            java.util.Map.of("tsdb.namespace", NAMESPACE));
    casebookBase = casebook.url("");
    peer =
        OpenTsdbPeer.start(
            runtime,
            OpenTsdbOptions.defaults(EmbeddedHBase.scratchDir("opentsdb-compare"))
                .withTablePrefix("otsdbcompare:")
                .withDropExistingTables(true));
    openTsdbBase = peer.baseUri().toString().replaceAll("/$", "");
    String body = points();
    for (String base : List.of(casebookBase, openTsdbBase)) {
      HttpResponse<String> r = send(base + "/api/put?sync&details", body);
      assertThat(r.statusCode()).as(base + ": " + r.body()).isEqualTo(200);
      assertThat(Json.mapper().readTree(r.body()).get("failed").asInt()).isZero();
    }
  }

  @AfterAll
  void stop() {
    if (peer != null) {
      peer.close();
    }
    if (casebook != null) {
      casebook.close();
    }
  }

  /**
   * Two metrics over 90 minutes: a counter per host (integers, one reset, hosts reporting at
   * different offsets and intervals, some points missing) and a float gauge; hosts web01..web04 in
   * two data centres.
   */
  private String points() {
    SplittableRandom r = new SplittableRandom(42);
    List<String> out = new ArrayList<>();
    String[] hosts = {"web01", "web02", "web03", "web04"};
    for (int h = 0; h < hosts.length; h++) {
      String dc = h % 2 == 0 ? "lga" : "sjc";
      int interval = 15 + 5 * h;
      long counter = 1000L * (h + 1);
      for (long ts = t0 + 3L * h; ts < t0 + 5400; ts += interval) {
        if (r.nextInt(10) == 0) {
          continue; // a missed report
        }
        counter += r.nextInt(500);
        if (h == 1 && ts > t0 + 2700 && ts < t0 + 2700 + interval) {
          counter = 7; // a counter reset
        }
        out.add(point("cmp.counter", ts, Long.toString(counter), hosts[h], dc));
        String gauge = String.format(java.util.Locale.ROOT, "%.3f", 50 + 40 * r.nextDouble() - h);
        out.add(point("cmp.gauge", ts + 1, gauge, hosts[h], dc));
      }
    }
    return "[" + String.join(",", out) + "]";
  }

  private static String point(String metric, long ts, String value, String host, String dc) {
    return "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%s,\"tags\":{\"host\":\"%s\",\"dc\":\"%s\"}}"
        .formatted(metric, ts, value, host, dc);
  }

  @Test
  void everyAggregatorGivesTheSameAnswer() throws Exception {
    JsonNode names = Json.mapper().readTree(get(casebookBase + "/api/aggregators").body());
    List<String> differences = new ArrayList<>();
    int compared = 0;
    for (JsonNode n : names) {
      String agg = n.asText();
      for (String metric : List.of("cmp.counter", "cmp.gauge")) {
        compared += compare(differences, agg + ":" + metric, 0, 5400);
        if (!agg.equals("none")) {
          compared += compare(differences, agg + ":" + metric + "{dc=*}", 600, 4200);
          compared += compare(differences, "sum:5m-" + agg + ":" + metric, 0, 5400);
        }
      }
    }
    assertThat(differences).isEmpty();
    assertThat(compared).isGreaterThan(150);
  }

  @Test
  void downsamplingFillPoliciesAndRatesGiveTheSameAnswer() throws Exception {
    List<String> differences = new ArrayList<>();
    List<String> queries =
        List.of(
            "sum:1m-avg:cmp.gauge{host=*}",
            "avg:30s-max-nan:cmp.gauge{host=web01|web02}",
            "avg:30s-max-null:cmp.gauge{host=web01|web02}",
            "avg:30s-max-zero:cmp.gauge{host=web01|web02}",
            "avg:30s-max-none:cmp.gauge{host=web01|web02}",
            "sum:0all-sum:cmp.counter{host=*}",
            "max:1h-count:cmp.counter",
            "sum:rate:cmp.counter{host=*}",
            "sum:rate{counter}:cmp.counter{host=*}",
            "sum:rate{counter,,1000}:cmp.counter{host=*}",
            "sum:rate{dropcounter}:cmp.counter{host=*}",
            "avg:2m-avg:rate{counter}:cmp.counter",
            "zimsum:1m-sum:rate:cmp.counter{dc=*}");
    for (String m : queries) {
      compare(differences, m, 0, 5400);
      compare(differences, m, 1234, 3999);
    }
    String json =
        """
        {"start":%d,"end":%d,"queries":[{"metric":"cmp.counter","aggregator":"sum",
         "rate":true,"rateOptions":{"counter":true,"counterMax":100000,"resetValue":500,
         "dropResets":false},"downsample":"2m-avg"}]}
        """
            .formatted(t0, t0 + 5400);
    compareJson(differences, json);
    assertThat(differences).isEmpty();
  }

  @Test
  void everyFilterTypeGivesTheSameAnswer() throws Exception {
    List<String> differences = new ArrayList<>();
    String[][] filters = {
      {"literal_or", "host", "web01|web03"},
      {"iliteral_or", "host", "WEB01|Web02"},
      {"not_literal_or", "host", "web01"},
      {"not_iliteral_or", "host", "WEB02"},
      {"wildcard", "host", "web0*"},
      {"iwildcard", "host", "*EB0*"},
      {"regexp", "host", "web0[13]"},
      {"literal_or", "dc", "lga"},
    };
    for (String[] f : filters) {
      for (boolean groupBy : new boolean[] {true, false}) {
        String json =
            """
            {"start":%d,"end":%d,"queries":[{"metric":"cmp.gauge","aggregator":"sum",
             "downsample":"10m-avg","filters":[{"type":"%s","tagk":"%s","filter":"%s",
             "groupBy":%s}]}]}
            """
                .formatted(t0, t0 + 5400, f[0], f[1], f[2], groupBy);
        compareJson(differences, json);
      }
    }
    compare(differences, "sum:cmp.gauge{host=web01}{dc=lga}", 0, 5400);
    compare(differences, "sum:cmp.gauge{dc=*}{host=wildcard(web0*)}", 0, 5400);
    compare(differences, "sum:explicit_tags:cmp.gauge{host=*,dc=*}", 0, 5400);
    compare(differences, "sum:explicit_tags:cmp.gauge{host=*}", 0, 5400);
    assertThat(differences).isEmpty();
  }

  /** Compares one m= query over [t0 + from, t0 + to]: 1 when both answered, else 0. */
  private int compare(List<String> differences, String m, long from, long to) throws Exception {
    String path =
        "/api/query?start="
            + (t0 + from)
            + "&end="
            + (t0 + to)
            + "&m="
            + URLEncoder.encode(m, StandardCharsets.UTF_8);
    HttpResponse<String> ours = get(casebookBase + path);
    HttpResponse<String> theirs = get(openTsdbBase + path);
    return record(differences, m + " [" + from + ", " + to + "]", ours, theirs);
  }

  private void compareJson(List<String> differences, String json) throws Exception {
    HttpResponse<String> ours = send(casebookBase + "/api/query", json);
    HttpResponse<String> theirs = send(openTsdbBase + "/api/query", json);
    record(differences, json.replaceAll("\\s+", " "), ours, theirs);
  }

  private static int record(
      List<String> differences, String what, HttpResponse<String> ours, HttpResponse<String> theirs)
      throws Exception {
    if (ours.statusCode() != theirs.statusCode()) {
      differences.add(
          what
              + ": status "
              + ours.statusCode()
              + " vs OpenTSDB "
              + theirs.statusCode()
              + " "
              + abbreviate(theirs.body())
              + " / ours "
              + abbreviate(ours.body()));
      return 0;
    }
    if (ours.statusCode() != 200) {
      return 0;
    }
    String diff =
        TsdbAnswers.difference(
            Json.mapper().readTree(ours.body()), Json.mapper().readTree(theirs.body()));
    if (diff != null) {
      differences.add(what + ": " + diff);
    }
    return 1;
  }

  private static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  private HttpResponse<String> get(String uri) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(60)).GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(String uri, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(uri))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}
