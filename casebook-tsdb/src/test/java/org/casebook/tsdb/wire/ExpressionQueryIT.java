package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.tsdb.wire.TsdbHttpFixture.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /api/query/exp} over HTTP: points written, expressions evaluated over them in
 * OpenTSDB 2.4.1's answer shape, and requests refused with a 400 naming the field.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExpressionQueryIT {
  private TsdbHttpFixture tsdb;
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;
  private String a;
  private String b;

  @BeforeAll
  void start(HBaseRuntime runtime) throws Exception {
    tsdb = new TsdbHttpFixture(runtime);
    a = TestIds.unique("exp.a");
    b = TestIds.unique("exp.b");
    List<String> points = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      long ts = t0 + 60L * i;
      points.add(point(a, ts, 10 + i, "web01"));
      points.add(point(a, ts, 20 + i, "web02"));
      if (i != 2) {
        points.add(point(b, ts, i, "web01"));
      }
    }
    HttpResponse<String> r =
        tsdb.send("POST", "/api/put?sync", "[" + String.join(",", points) + "]");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  @AfterAll
  void stop() {
    tsdb.close();
  }

  private static String point(String metric, long ts, int value, String host) {
    return "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"%s\"}}"
        .formatted(metric, ts, value, host);
  }

  private String body(String metricsExtra, String expressions, String outputs) {
    return """
        {"time":{"start":"%d","end":"%d","aggregator":"sum"},
         "filters":[{"id":"f","tags":[{"type":"wildcard","tagk":"host","filter":"*",
           "groupBy":true}]}],
         "metrics":[{"id":"a","metric":"%s","filter":"f"},
                    {"id":"b","metric":"%s","filter":"f"%s}],
         "expressions":[%s]%s}
        """
        .formatted(t0, t0 + 600, a, b, metricsExtra, expressions, outputs);
  }

  private HttpResponse<String> exp(String body) throws Exception {
    return tsdb.send("POST", "/api/query/exp", body);
  }

  @Test
  void unionWithAFillAndAnAliasAnswersInOpenTsdbsShape() throws Exception {
    JsonNode answer =
        json(
            exp(
                body(
                    ",\"fillPolicy\":{\"policy\":\"scalar\",\"value\":100}",
                    "{\"id\":\"e\",\"expr\":\"a * 2 + b\"}",
                    ",\"outputs\":[{\"id\":\"e\",\"alias\":\"doubled\"}]")));
    JsonNode e = answer.get("outputs").get(0);
    assertThat(e.get("id").asText()).isEqualTo("e");
    assertThat(e.get("alias").asText()).isEqualTo("doubled");
    long ms = t0 * 1000;
    // web01 has b but for the third minute (b's fill, 100); web02 has no b: 0.
    assertThat(e.get("dps").toString())
        .isEqualTo(
            "[[%d,20.0,40.0],[%d,23.0,42.0],[%d,124.0,44.0],[%d,29.0,46.0]]"
                .formatted(ms, ms + 60_000, ms + 120_000, ms + 180_000));
    assertThat(e.get("dpsMeta").toString())
        .isEqualTo(
            "{\"firstTimestamp\":%d,\"lastTimestamp\":%d,\"setCount\":4,\"series\":2}"
                .formatted(ms, ms + 180_000));
    JsonNode meta = e.get("meta");
    assertThat(meta.get(0).toString()).isEqualTo("{\"index\":0,\"metrics\":[\"timestamp\"]}");
    List<String> metrics = new ArrayList<>(List.of(a, b));
    metrics.sort(null);
    List<String> shown = new ArrayList<>();
    meta.get(1).get("metrics").forEach(n -> shown.add(n.asText()));
    assertThat(shown).isEqualTo(metrics);
    assertThat(meta.get(1).get("commonTags").toString()).isEqualTo("{\"host\":\"web01\"}");
    assertThat(meta.get(2).get("commonTags").toString()).isEqualTo("{\"host\":\"web02\"}");
    assertThat(meta.get(2).get("aggregatedTags").toString()).isEqualTo("[]");
    JsonNode echo = answer.get("query");
    assertThat(echo.get("metrics").get(1).get("fillPolicy").toString())
        .isEqualTo("{\"policy\":\"scalar\",\"value\":100.0}");
    assertThat(echo.get("expressions").get(0).get("join").toString())
        .isEqualTo("{\"operator\":\"union\",\"useQueryTags\":false,\"includeAggTags\":true}");
  }

  @Test
  void intersectionLeavesOutTheSeriesOneSideLacks() throws Exception {
    JsonNode e =
        json(exp(
                body(
                    "",
                    "{\"id\":\"e\",\"expr\":\"a / b\",\"join\":{\"operator\":\"intersection\"}}",
                    "")))
            .get("outputs")
            .get(0);
    long ms = t0 * 1000;
    // Only web01; b's missing third minute is b's default fill, 0, and a division by 0 is 0.
    assertThat(e.get("dps").toString())
        .isEqualTo(
            "[[%d,0.0],[%d,11.0],[%d,0.0],[%d,4.333333333333333]]"
                .formatted(ms, ms + 60_000, ms + 120_000, ms + 180_000));
    assertThat(e.get("meta")).hasSize(2);
  }

  @Test
  void aMetricWithoutDataIsAnEmptyOutputAndAnUnknownOneIsA400() throws Exception {
    String none = TestIds.unique("exp.none");
    HttpResponse<String> put =
        tsdb.send("POST", "/api/put?sync", point(none, t0 - 86_400, 1, "web01"));
    assertThat(put.statusCode()).isEqualTo(204);
    JsonNode empty =
        json(exp(
                body("", "{\"id\":\"e\",\"expr\":\"a + b\"}", "")
                    .replace("\"metric\":\"" + a + "\"", "\"metric\":\"" + none + "\"")
                    .replace("\"metric\":\"" + b + "\"", "\"metric\":\"" + none + "\"")))
            .get("outputs")
            .get(0);
    assertThat(empty.toString())
        .isEqualTo(
            "{\"id\":\"e\",\"dps\":[],\"dpsMeta\":{\"firstTimestamp\":0,\"lastTimestamp\":0,"
                + "\"setCount\":0,\"series\":0}}");
    HttpResponse<String> unknown =
        exp(
            body("", "{\"id\":\"e\",\"expr\":\"a + b\"}", "")
                .replace("\"metric\":\"" + b + "\"", "\"metric\":\"no.such.metric\""));
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(field(unknown)).isEqualTo("metrics[1].metric");
  }

  @Test
  void refusedRequestsNameTheirField() throws Exception {
    Map<String, String> cases =
        Map.of(
            "{\"id\":\"e\",\"expr\":\"a > b\"}", "expressions[0].expr",
            "{\"id\":\"e\",\"expr\":\"a + c\"}", "expressions[0].expr",
            "{\"id\":\"e\",\"expr\":\"a + b\",\"join\":{\"operator\":\"outer\"}}",
                "expressions[0].join.operator",
            "{\"id\":\"e\",\"expr\":\"a + b\",\"fillPolicy\":{\"policy\":\"zero\",\"value\":3}}",
                "expressions[0].fillPolicy.value",
            "{\"id\":\"e-1\",\"expr\":\"a + b\"}", "expressions[0].id",
            "{\"id\":\"e\",\"expr\":\"a + b\",\"flags\":1}", "expressions[0].flags");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      HttpResponse<String> r = exp(body("", c.getKey(), ""));
      assertThat(r.statusCode()).as(c.getKey() + " " + r.body()).isEqualTo(400);
      assertThat(field(r)).as(c.getKey()).isEqualTo(c.getValue());
    }
    HttpResponse<String> offset =
        exp(body(",\"timeOffset\":\"1h-ago\"", "{\"id\":\"e\",\"expr\":\"a\"}", ""));
    assertThat(field(offset)).isEqualTo("metrics[1].timeOffset");
    HttpResponse<String> output =
        exp(body("", "{\"id\":\"e\",\"expr\":\"a\"}", ",\"outputs\":[{\"id\":\"nope\"}]"));
    assertThat(field(output)).isEqualTo("outputs[0].id");
    HttpResponse<String> noTime = exp("{\"metrics\":[{\"id\":\"a\",\"metric\":\"" + a + "\"}]}");
    assertThat(noTime.statusCode()).isEqualTo(400);
    assertThat(field(noTime)).isEqualTo("time");
  }

  private static String field(HttpResponse<String> r) throws Exception {
    return Json.mapper().readTree(r.body()).get("error").get("field").asText();
  }
}
