package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * same {@code /api/query/exp} answers: arithmetic between two metrics grouped by a tag, union and
 * intersection with a series one metric lacks, fill policies, constants, division by zero,
 * downsampling, aliases, a metric as an output, and the request echoed under {@code query}. Values
 * and timestamps are compared exactly, series in order, tags as maps, aggregated tags as sets.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenTsdbExpressionComparisonIT {
  private static final String NAMESPACE = "tsdbexpcompare";
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private ServedSystem casebook;
  private OpenTsdbPeer peer;
  private String casebookBase;
  private String openTsdbBase;

  /** Two hours ago, on the hour. */
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;

  @BeforeAll
  void start(HBaseRuntime runtime) throws Exception {
    casebook =
        ServedSystem.start(
            runtime, new TsdbSystem(), AccessRule.open(), Map.of("tsdb.namespace", NAMESPACE));
    casebookBase = casebook.url("");
    peer =
        OpenTsdbPeer.start(
            runtime,
            OpenTsdbOptions.defaults(EmbeddedHBase.scratchDir("opentsdb-exp-compare"))
                .withTablePrefix("otsdbexp:")
                .withDropExistingTables(true));
    openTsdbBase = peer.baseUri().toString().replaceAll("/$", "");
    String body = points();
    for (String base : List.of(casebookBase, openTsdbBase)) {
      HttpResponse<String> r = post(base + "/api/put?sync&details", body);
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
   * exp.a for web01..web03, exp.b for web01 and web02 only (a series missing on one side), every 30
   * s for 30 minutes with some points left out on each side; integers for a, floats for b. Host
   * names are written in sorted order, so the ids OpenTSDB orders series by follow the names.
   */
  private String points() {
    List<String> out = new ArrayList<>();
    String[] hosts = {"web01", "web02", "web03"};
    for (int i = 0; i < 60; i++) {
      long ts = t0 + 30L * i;
      for (int h = 0; h < hosts.length; h++) {
        String dc = h == 1 ? "sjc" : "lga";
        if ((i + h) % 7 != 3) {
          out.add(point("exp.a", ts, Integer.toString(10 * (h + 1) + i), hosts[h], dc));
        }
        if (h < 2 && (i + 2 * h) % 5 != 1) {
          String v = String.format(java.util.Locale.ROOT, "%.2f", 0.25 * i + h);
          out.add(point("exp.b", ts, v, hosts[h], dc));
        }
      }
    }
    return "[" + String.join(",", out) + "]";
  }

  private static String point(String metric, long ts, String value, String host, String dc) {
    return "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%s,\"tags\":{\"host\":\"%s\",\"dc\":\"%s\"}}"
        .formatted(metric, ts, value, host, dc);
  }

  private static final String BY_HOST =
      "{\"id\":\"byHost\",\"tags\":[{\"type\":\"wildcard\",\"tagk\":\"host\","
          + "\"filter\":\"*\",\"groupBy\":true}]}";

  /** A request over [t0 + from, t0 + to] seconds with the given sections after {@code time}. */
  private String request(long from, long to, String time, String rest) {
    return request(from, to, time, BY_HOST, rest);
  }

  private String request(long from, long to, String time, String filters, String rest) {
    return """
        {"time":{"start":"%d","end":"%d","aggregator":"sum"%s},
         "filters":[%s],
         %s}
        """
        .formatted(t0 + from, t0 + to, time, filters, rest);
  }

  private static final String AB =
      """
      "metrics":[{"id":"a","metric":"exp.a","filter":"byHost"},
                 {"id":"b","metric":"exp.b","filter":"byHost"}]""";

  @Test
  void expressionsGiveTheSameAnswers() throws Exception {
    List<String> differences = new ArrayList<>();
    List<String> requests =
        List.of(
            // Arithmetic between two metrics grouped by host; b has no web03: union adds a zero.
            request(0, 1800, "", AB + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a + b\"}]"),
            // The same as an intersection: web03 is left out, with its timestamps.
            request(
                0,
                1800,
                "",
                AB
                    + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a * b\",\"join\":"
                    + "{\"operator\":\"intersection\"}}]"),
            // Fill policies of the metrics for the points each side lacks.
            request(
                300,
                1500,
                "",
                """
                "metrics":[{"id":"a","metric":"exp.a","filter":"byHost",
                  "fillPolicy":{"policy":"nan"}},
                 {"id":"b","metric":"exp.b","filter":"byHost",
                  "fillPolicy":{"policy":"scalar","value":100}}],
                "expressions":[{"id":"e","expr":"a - b"}]"""),
            // Constants, precedence, integer literals and a division by zero.
            request(
                0,
                900,
                "",
                AB
                    + ",\"expressions\":[{\"id\":\"c\",\"expr\":\"(a - b) / 4 + 7/2 * 0.1\"},"
                    + "{\"id\":\"z\",\"expr\":\"a / (b - b) + a % 4\"}]"),
            // An alias, a metric as an output, and the outputs in the order asked. The range
            // holds every point: OpenTSDB writes a metric's points past the end too.
            request(
                0,
                1800,
                "",
                AB
                    + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a + b\"}],"
                    + "\"outputs\":[{\"id\":\"e\",\"alias\":\"a plus b\"},{\"id\":\"a\"}]"),
            // Downsampled, one group per metric (hosts aggregated), another aggregator for b.
            request(
                0,
                1800,
                ",\"downsampler\":{\"interval\":\"5m\",\"aggregator\":\"avg\"}",
                """
                "metrics":[{"id":"a","metric":"exp.a"},
                 {"id":"b","metric":"exp.b","aggregator":"max"}],
                "expressions":[{"id":"e","expr":"a / b"}]"""),
            // Joined on the query tags only, without the aggregated keys.
            request(
                0,
                1800,
                ",\"downsampler\":{\"interval\":\"10m\",\"aggregator\":\"sum\"}",
                AB
                    + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a - b\",\"join\":"
                    + "{\"operator\":\"union\",\"useQueryTags\":true,\"includeAggTags\":false}}]"),
            // Rates of downsampled points, and a constant-only subexpression folded as integers.
            request(
                0,
                1800,
                ",\"rate\":true,\"downsampler\":{\"interval\":\"2m\",\"aggregator\":\"max\"}",
                AB + ",\"expressions\":[{\"id\":\"r\",\"expr\":\"a * (10 % 4) - b / 3\"}]"),
            // An expression over another: their timestamps are the same here.
            request(
                0,
                1800,
                ",\"downsampler\":{\"interval\":\"5m\",\"aggregator\":\"sum\"}",
                AB
                    + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a + b\"},"
                    + "{\"id\":\"f\",\"expr\":\"e * 2 - a\"}]"),
            // A metric never written: the 400 both answer while the query runs.
            request(
                0,
                1800,
                "",
                "\"metrics\":[{\"id\":\"a\",\"metric\":\"exp.none\"}],"
                    + "\"expressions\":[{\"id\":\"e\",\"expr\":\"a + 1\"}]"),
            // No tag set in common: OpenTSDB's 400.
            request(
                0,
                1800,
                "",
                BY_HOST
                    + ",{\"id\":\"one\",\"tags\":[{\"type\":\"literal_or\",\"tagk\":\"host\","
                    + "\"filter\":\"web03\",\"groupBy\":true}]}",
                """
                "metrics":[{"id":"a","metric":"exp.a","filter":"one"},
                 {"id":"b","metric":"exp.b","filter":"byHost"}],
                "expressions":[{"id":"e","expr":"a + b","join":{"operator":"intersection"}}]"""));
    for (String r : requests) {
      compare(differences, r);
    }
    assertThat(differences).isEmpty();
  }

  /**
   * OpenTSDB 2.4.1 answers a request its checks refuse with 500 (its checks throw plain
   * IllegalArgumentExceptions); Casebook answers 400 naming the field.
   */
  @Test
  void aRefusedRequestIsA400HereWhereOpenTsdbAnswers500() throws Exception {
    String noTime = "{\"metrics\":[{\"id\":\"a\",\"metric\":\"exp.a\"}]}";
    HttpResponse<String> theirs = post(openTsdbBase + "/api/query/exp", noTime);
    HttpResponse<String> ours = post(casebookBase + "/api/query/exp", noTime);
    assertThat(theirs.statusCode()).as(theirs.body()).isEqualTo(500);
    assertThat(ours.statusCode()).isEqualTo(400);
    assertThat(Json.mapper().readTree(ours.body()).get("error").get("field").asText())
        .isEqualTo("time");
    // A downsampler over the whole range, which /api/query takes: exp reads a duration.
    String all =
        request(
            0,
            1800,
            ",\"downsampler\":{\"interval\":\"0all\",\"aggregator\":\"sum\"}",
            AB + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a + b\"}]");
    theirs = post(openTsdbBase + "/api/query/exp", all);
    ours = post(casebookBase + "/api/query/exp", all);
    assertThat(theirs.statusCode()).as(theirs.body()).isEqualTo(500);
    assertThat(theirs.body()).contains("Invalid time");
    assertThat(ours.statusCode()).isEqualTo(400);
    assertThat(Json.mapper().readTree(ours.body()).get("error").get("field").asText())
        .isEqualTo("time.downsampler.interval");
  }

  /**
   * OpenTSDB 2.4.1 looks an expression's variables up lower-cased, so an id with a capital letter
   * cannot be used in an expression there (400, "Missing results for variable"); here it can.
   */
  @Test
  void openTsdbCannotEvaluateAnIdWithACapital() throws Exception {
    String body =
        request(
            0,
            600,
            "",
            "\"metrics\":[{\"id\":\"A\",\"metric\":\"exp.a\"}],"
                + "\"expressions\":[{\"id\":\"e\",\"expr\":\"A * 2\"}]");
    HttpResponse<String> theirs = post(openTsdbBase + "/api/query/exp", body);
    HttpResponse<String> ours = post(casebookBase + "/api/query/exp", body);
    assertThat(theirs.statusCode()).as(theirs.body()).isEqualTo(400);
    assertThat(theirs.body()).contains("Missing results for variable A");
    assertThat(ours.statusCode()).as(ours.body()).isEqualTo(200);
  }

  /**
   * OpenTSDB 2.4.1 sets an expression output's lastTimestamp from its second row on, so one row
   * gives 0; here it is that row's timestamp.
   */
  @Test
  void oneRowHasItsTimestampAsTheLastHereWhereOpenTsdbWrites0() throws Exception {
    // Points every 30 s from t0: [t0, t0 + 10] holds one timestamp.
    String body = request(0, 10, "", AB + ",\"expressions\":[{\"id\":\"e\",\"expr\":\"a + b\"}]");
    HttpResponse<String> theirAnswer = post(openTsdbBase + "/api/query/exp", body);
    HttpResponse<String> ourAnswer = post(casebookBase + "/api/query/exp", body);
    assertThat(theirAnswer.statusCode()).as(theirAnswer.body()).isEqualTo(200);
    assertThat(ourAnswer.statusCode()).as(ourAnswer.body()).isEqualTo(200);
    JsonNode theirs = Json.mapper().readTree(theirAnswer.body());
    JsonNode ours = Json.mapper().readTree(ourAnswer.body());
    JsonNode theirMeta = theirs.get("outputs").get(0).get("dpsMeta");
    JsonNode ourMeta = ours.get("outputs").get(0).get("dpsMeta");
    assertThat(theirMeta.get("setCount").asInt()).as(theirs.toString()).isEqualTo(1);
    assertThat(theirMeta.get("lastTimestamp").asLong()).isZero();
    assertThat(ourMeta.get("lastTimestamp")).isEqualTo(ourMeta.get("firstTimestamp"));
    assertThat(ours.get("outputs").get(0).get("dps"))
        .isEqualTo(theirs.get("outputs").get(0).get("dps"));
  }

  private void compare(List<String> differences, String body) throws Exception {
    HttpResponse<String> ours = post(casebookBase + "/api/query/exp", body);
    HttpResponse<String> theirs = post(openTsdbBase + "/api/query/exp", body);
    String what = body.replaceAll("\\s+", " ");
    if (ours.statusCode() != theirs.statusCode()) {
      differences.add(
          what
              + ": status "
              + ours.statusCode()
              + " vs OpenTSDB "
              + theirs.statusCode()
              + " "
              + theirs.body()
              + " / ours "
              + ours.body());
      return;
    }
    if (ours.statusCode() != 200) {
      return;
    }
    JsonNode a = Json.mapper().readTree(ours.body());
    JsonNode b = Json.mapper().readTree(theirs.body());
    String diff = difference(a, b);
    // The echo is compared as text too: OpenTSDB writes its fields in a fixed order.
    String echo = ours.body().substring(ours.body().indexOf("\"query\":"));
    if (diff == null && !theirs.body().endsWith(echo)) {
      diff = "query echo text " + echo;
    }
    if (diff != null) {
      differences.add(
          what + ": " + diff + "\n ours " + ours.body() + "\n OpenTSDB " + theirs.body());
    }
  }

  /** The first difference between two answers, or null. */
  static String difference(JsonNode ours, JsonNode theirs) {
    if (!ours.get("query").equals(theirs.get("query"))) {
      return "query echo " + ours.get("query") + " vs " + theirs.get("query");
    }
    JsonNode oo = ours.get("outputs");
    JsonNode to = theirs.get("outputs");
    if (oo.size() != to.size()) {
      return "outputs " + oo.size() + " vs " + to.size();
    }
    for (int i = 0; i < oo.size(); i++) {
      JsonNode o = oo.get(i);
      JsonNode t = to.get(i);
      for (String f : List.of("id", "alias", "dps", "dpsMeta")) {
        if (!o.path(f).equals(t.path(f))) {
          return "outputs[" + i + "]." + f + ": " + o.path(f) + " vs " + t.path(f);
        }
      }
      JsonNode om = o.path("meta");
      JsonNode tm = t.path("meta");
      if (om.size() != tm.size()) {
        return "outputs[" + i + "].meta size " + om.size() + " vs " + tm.size();
      }
      for (int m = 0; m < om.size(); m++) {
        JsonNode x = om.get(m);
        JsonNode y = tm.get(m);
        boolean same =
            x.path("index").equals(y.path("index"))
                && x.path("metrics").equals(y.path("metrics"))
                && tagMap(x.path("commonTags")).equals(tagMap(y.path("commonTags")))
                && asSet(x.path("aggregatedTags")).equals(asSet(y.path("aggregatedTags")));
        if (!same) {
          return "outputs[" + i + "].meta[" + m + "]: " + x + " vs " + y;
        }
      }
    }
    return null;
  }

  private static Map<String, String> tagMap(JsonNode n) {
    Map<String, String> m = new HashMap<>();
    n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
    return m;
  }

  private static Set<String> asSet(JsonNode n) {
    Set<String> s = new HashSet<>();
    n.forEach(v -> s.add(v.asText()));
    return s;
  }

  private HttpResponse<String> post(String uri, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(uri))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}
