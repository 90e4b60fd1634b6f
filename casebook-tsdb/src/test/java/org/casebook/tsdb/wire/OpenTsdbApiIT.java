package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.tsdb.wire.TsdbHttpFixture.enc;
import static org.casebook.tsdb.wire.TsdbHttpFixture.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The parts of OpenTSDB 2.4's HTTP API Grafana's backend and collectors use beyond plain queries:
 * {@code arrays}, the refused parameters, annotations, compressed puts, stats and config.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenTsdbApiIT {
  private TsdbHttpFixture tsdb;
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;

  @BeforeAll
  void start(HBaseRuntime runtime) {
    tsdb = new TsdbHttpFixture(runtime, AccessRule.token("s3cret"), Map.of());
  }

  @AfterAll
  void stop() {
    tsdb.close();
  }

  private String put(String metric, String host, long ts, int value) throws Exception {
    String body =
        "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"%s\"}}"
            .formatted(metric, ts, value, host);
    HttpResponse<String> r = tsdb.send("POST", "/api/put?sync", body, "s3cret");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    return body;
  }

  private String tsuidOf(String metric, String host) throws Exception {
    JsonNode found =
        json(tsdb.send("GET", "/api/search/lookup?m=" + enc(metric + "{host=" + host + "}"), null));
    return found.get("results").get(0).get("tsuid").asText();
  }

  @Test
  void arraysOnGetAndPostAsOpenTsdbAnswersThem() throws Exception {
    String m = TestIds.unique("arrays");
    put(m, "a", t0, 1);
    put(m, "a", t0 + 10, 2);
    String range = "start=" + t0 + "&end=" + (t0 + 60);
    JsonNode get = json(tsdb.send("GET", "/api/query?" + range + "&arrays=true&m=sum:" + m, null));
    String body =
        "{\"start\":%d,\"end\":%d,\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"%s\"}]}"
            .formatted(t0, t0 + 60, m);
    JsonNode post = json(tsdb.send("POST", "/api/query?arrays=true", body));
    JsonNode plain = json(tsdb.send("POST", "/api/query", body));
    for (JsonNode answer : List.of(get, post)) {
      JsonNode dps = answer.get(0).get("dps");
      assertThat(dps.isArray()).isTrue();
      assertThat(dps.toString()).isEqualTo("[[" + t0 + ",1],[" + (t0 + 10) + ",2]]");
    }
    assertThat(plain.get(0).get("dps").toString())
        .isEqualTo("{\"" + t0 + "\":1,\"" + (t0 + 10) + "\":2}");
    // OpenTSDB's serializer asks only whether the parameter is there.
    assertThat(json(tsdb.send("POST", "/api/query?arrays=false", body)).get(0).get("dps").isArray())
        .isTrue();
  }

  @Test
  void parametersNotHonouredAreRefusedNamingThem() throws Exception {
    String m = TestIds.unique("refused");
    put(m, "a", t0, 1);
    Map<String, String> queryFields =
        Map.of(
            "\"showSummary\":true", "showSummary",
            "\"showStats\":true", "showStats",
            "\"showTSUIDs\":true", "showTSUIDs",
            "\"useCalendar\":true", "useCalendar",
            "\"padding\":true", "padding",
            "\"options\":{\"a\":[\"b\"]}", "options");
    for (Map.Entry<String, String> f : queryFields.entrySet()) {
      String body =
          "{\"start\":%d,%s,\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"%s\"}]}"
              .formatted(t0, f.getKey(), m);
      assertRefused(tsdb.send("POST", "/api/query", body), f.getValue());
    }
    Map<String, String> subQueryFields =
        Map.of(
            "\"percentiles\":[99.9]", "queries[0].percentiles",
            "\"showHistogramBuckets\":true", "queries[0].showHistogramBuckets",
            "\"preAggregate\":true", "queries[0].preAggregate",
            "\"useMultiGets\":true", "queries[0].useMultiGets",
            "\"rollupUsage\":\"ROLLUP_SOMETIMES\"", "queries[0].rollupUsage",
            "\"filterTagKs\":[\"host\"]", "queries[0].filterTagKs");
    for (Map.Entry<String, String> f : subQueryFields.entrySet()) {
      String body =
          "{\"start\":%d,\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"%s\",%s}]}"
              .formatted(t0, m, f.getKey());
      assertRefused(tsdb.send("POST", "/api/query", body), f.getValue());
    }
    for (String p : List.of("show_stats", "show_summary", "padding", "jsonp=cb", "show_tsuids")) {
      HttpResponse<String> r =
          tsdb.send("GET", "/api/query?start=" + t0 + "&m=sum:" + m + "&" + p, null);
      assertRefused(r, p.replace("=cb", ""));
    }
    String plain =
        "{\"start\":%d,\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"%s\"}]}".formatted(t0, m);
    assertRefused(tsdb.send("POST", "/api/query?jsonp=cb", plain), "jsonp");
    // Honoured as OpenTSDB does: raw-only rollup usage, and an index renumbered by position.
    String honoured =
        "{\"start\":%d,\"showQuery\":true,\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"%s\",\"rollupUsage\":\"ROLLUP_RAW\",\"index\":7,\"percentiles\":[]}]}"
            .formatted(t0, m);
    assertThat(
            json(tsdb.send("POST", "/api/query", honoured))
                .get(0)
                .get("query")
                .get("index")
                .asInt())
        .isZero();
    // Puts refuse an unknown field too (OpenTSDB's sync_timeout is not honoured).
    String timed =
        "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":1,\"tags\":{\"host\":\"a\"}}"
            .formatted(m, t0);
    HttpResponse<String> syncTimeout =
        tsdb.send("POST", "/api/put?sync&sync_timeout=10", timed, "s3cret");
    assertRefused(syncTimeout, "sync_timeout");
  }

  private static void assertRefused(HttpResponse<String> r, String field) throws Exception {
    assertThat(r.statusCode()).as(field + ": " + r.body()).isEqualTo(400);
    JsonNode error = org.casebook.core.Json.mapper().readTree(r.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(400);
    assertThat(error.get("field").asText()).as(r.body()).isEqualTo(field);
  }

  @Test
  void annotationsOneByOneInBulkAndInQueryAnswers() throws Exception {
    String m = TestIds.unique("notes");
    put(m, "a", t0, 1);
    put(m, "b", t0, 2);
    String tsuidA = tsuidOf(m, "a");
    String note =
        "{\"tsuid\":\"%s\",\"startTime\":%d,\"description\":\"deploy\",\"custom\":{\"by\":\"ops\"}}"
            .formatted(tsuidA, t0 + 5);
    assertThat(tsdb.send("POST", "/api/annotation", note).statusCode())
        .as("a write needs the token")
        .isEqualTo(401);
    JsonNode created = json(tsdb.send("POST", "/api/annotation", note, "s3cret"));
    assertThat(created.toString())
        .isEqualTo(
            "{\"tsuid\":\"%s\",\"description\":\"deploy\",\"notes\":\"\",\"custom\":{\"by\":\"ops\"},\"endTime\":0,\"startTime\":%d}"
                .formatted(tsuidA, t0 + 5));
    // POST merges: the description stays; PUT replaces: what is not given is reset.
    String notes = "{\"tsuid\":\"%s\",\"startTime\":%d,\"notes\":\"v2\"}".formatted(tsuidA, t0 + 5);
    JsonNode merged = json(tsdb.send("POST", "/api/annotation", notes, "s3cret"));
    assertThat(merged.get("description").asText()).isEqualTo("deploy");
    assertThat(merged.get("notes").asText()).isEqualTo("v2");
    JsonNode replaced = json(tsdb.send("PUT", "/api/annotation", notes, "s3cret"));
    assertThat(replaced.get("description").asText()).isEmpty();
    assertThat(replaced.has("custom")).isFalse();
    String unchanged = "{\"tsuid\":\"%s\",\"startTime\":%d}".formatted(tsuidA, t0 + 5);
    assertThat(tsdb.send("POST", "/api/annotation", unchanged, "s3cret").statusCode())
        .isEqualTo(304);
    JsonNode got =
        json(tsdb.send("GET", "/api/annotation?tsuid=" + tsuidA + "&start_time=" + (t0 + 5), null));
    assertThat(got.get("notes").asText()).isEqualTo("v2");
    HttpResponse<String> missing =
        tsdb.send("GET", "/api/annotation?tsuid=" + tsuidA + "&start_time=" + (t0 + 6), null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertRefused(
        tsdb.send("POST", "/api/annotation", "{\"description\":\"x\"}", "s3cret"), "startTime");
    assertRefused(
        tsdb.send("POST", "/api/annotation", "{\"startTime\":5,\"colour\":\"x\"}", "s3cret"),
        "colour");
    assertRefused(
        tsdb.send(
            "POST",
            "/api/annotation",
            "{\"tsuid\":\"00zz\",\"startTime\":5,\"notes\":\"x\"}",
            "s3cret"),
        "tsuid");

    // Bulk: a global note and one on series b; then the query answers carry them.
    String tsuidB = tsuidOf(m, "b");
    String bulk =
        ("[{\"startTime\":%d,\"description\":\"global outage\"},"
                + "{\"tsuid\":\"%s\",\"startTime\":%d,\"description\":\"b restarted\"}]")
            .formatted(t0 + 20, tsuidB, t0 + 30);
    JsonNode stored = json(tsdb.send("POST", "/api/annotation/bulk", bulk, "s3cret"));
    assertThat(stored).hasSize(2);
    String query =
        ("{\"start\":%d,\"end\":%d,\"globalAnnotations\":true,\"queries\":[{\"aggregator\":\"sum\","
                + "\"metric\":\"%s\",\"filters\":[{\"type\":\"wildcard\",\"tagk\":\"host\",\"filter\":\"*\",\"groupBy\":true}]}]}")
            .formatted(t0, t0 + 60, m);
    JsonNode answer = json(tsdb.send("POST", "/api/query", query));
    assertThat(answer).hasSize(2);
    assertThat(answer.get(0).get("tags").get("host").asText()).isEqualTo("a");
    assertThat(answer.get(0).get("annotations"))
        .extracting(n -> n.get("notes").asText())
        .containsExactly("v2");
    assertThat(answer.get(1).get("annotations"))
        .extracting(n -> n.get("description").asText())
        .containsExactly("b restarted");
    for (JsonNode group : answer) {
      assertThat(group.get("globalAnnotations"))
          .extracting(n -> n.get("description").asText())
          .containsExactly("global outage");
    }
    JsonNode noNotes =
        json(
            tsdb.send(
                "POST",
                "/api/query",
                query.replace("\"globalAnnotations\":true", "\"noAnnotations\":true")));
    assertThat(noNotes.get(0).has("annotations")).isFalse();
    assertThat(noNotes.get(0).has("globalAnnotations")).isFalse();
    JsonNode viaGet =
        json(
            tsdb.send(
                "GET",
                "/api/query?start=" + t0 + "&end=" + (t0 + 60) + "&global_annotations&m=sum:" + m,
                null));
    assertThat(viaGet.get(0).get("annotations")).hasSize(2);
    assertThat(viaGet.get(0).get("globalAnnotations")).hasSize(1);
    JsonNode globals =
        json(
            tsdb.send("GET", "/api/annotations?start_time=" + t0 + "&end_time=" + (t0 + 60), null));
    assertThat(globals).extracting(n -> n.get("tsuid").asText()).containsExactly("");

    // Deleting one, then a range (global and a series), as OpenTSDB counts it.
    HttpResponse<String> deleted =
        tsdb.send(
            "DELETE",
            "/api/annotation?tsuid=" + tsuidA + "&start_time=" + (t0 + 5),
            null,
            "s3cret");
    assertThat(deleted.statusCode()).isEqualTo(204);
    assertThat(
            tsdb.send("GET", "/api/annotation?tsuid=" + tsuidA + "&start_time=" + (t0 + 5), null)
                .statusCode())
        .isEqualTo(404);
    assertRefused(
        tsdb.send("DELETE", "/api/annotation/bulk", "{\"startTime\":" + t0 + "}", "s3cret"),
        "tsuids");
    String range =
        "{\"startTime\":%d,\"endTime\":%d,\"tsuids\":[\"%s\"],\"global\":true}"
            .formatted(t0, t0 + 60, tsuidB);
    JsonNode counted = json(tsdb.send("DELETE", "/api/annotation/bulk", range, "s3cret"));
    assertThat(counted.get("totalDeleted").asLong()).isEqualTo(2);
    assertThat(counted.get("startTime").asLong()).isEqualTo(t0 * 1000);
    assertThat(json(tsdb.send("POST", "/api/query", query)).get(1).has("annotations")).isFalse();
  }

  @Test
  void gzipPutsAreInflatedAndABombIsRefused() throws Exception {
    String m = TestIds.unique("gzip");
    StringBuilder points = new StringBuilder("[");
    for (int i = 0; i < 50; i++) {
      points.append(i == 0 ? "" : ",");
      points.append(
          "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"a\"}}"
              .formatted(m, t0 + i, i));
    }
    points.append("]");
    HttpResponse<String> stored =
        tsdb.sendBytes(
            "POST",
            "/api/put?sync",
            gzip(points.toString().getBytes(StandardCharsets.UTF_8)),
            Map.of("Content-Encoding", "gzip", "Authorization", "Bearer s3cret"));
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(204);
    JsonNode answer =
        json(
            tsdb.send("GET", "/api/query?start=" + t0 + "&end=" + (t0 + 60) + "&m=sum:" + m, null));
    assertThat(answer.get(0).get("dps")).hasSize(50);

    // 32 MiB of spaces compress to a few tens of KB: refused once past the bound.
    byte[] bomb = gzip(new byte[32 * 1024 * 1024]);
    assertThat(bomb.length).isLessThan(PutBodies.MAX_INFLATED_BYTES / 100);
    HttpResponse<String> refused =
        tsdb.sendBytes(
            "POST",
            "/api/put",
            bomb,
            Map.of("Content-Encoding", "gzip", "Authorization", "Bearer s3cret"));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(413);
    assertThat(refused.body()).contains("\"field\":\"body\"").contains("inflates to more than");
    HttpResponse<String> broken =
        tsdb.sendBytes(
            "POST",
            "/api/put",
            "not gzip".getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Encoding", "gzip", "Authorization", "Bearer s3cret"));
    assertRefused(broken, "body");
    HttpResponse<String> unknown =
        tsdb.sendBytes(
            "POST",
            "/api/put",
            points.toString().getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Encoding", "br", "Authorization", "Bearer s3cret"));
    assertRefused(unknown, "Content-Encoding");
  }

  private static byte[] gzip(byte[] plain) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(plain);
    }
    return out.toByteArray();
  }

  @Test
  void statsAndConfigInOpenTsdbsShapes() throws Exception {
    String m = TestIds.unique("stats");
    put(m, "a", t0, 1);
    JsonNode stats = json(tsdb.send("GET", "/api/stats", null));
    assertThat(stats.isArray()).isTrue();
    List<String> names = new ArrayList<>();
    for (JsonNode s : stats) {
      assertThat(s.fieldNames())
          .toIterable()
          .containsExactly("metric", "timestamp", "value", "tags");
      assertThat(s.get("value").isTextual()).isTrue();
      assertThat(s.get("tags").has("host")).isTrue();
      names.add(s.get("metric").asText());
    }
    // The system's own counters are among the meters the process keeps.
    assertThat(names).contains("casebook.tsdb.deleted.points");
    JsonNode config = json(tsdb.send("GET", "/api/config", null));
    assertThat(config.get("tsd.storage.max_tags").asText()).isEqualTo("8");
    assertThat(config.get("tsdb.max-tags").asText()).isEqualTo("8");
    assertThat(config.get("tsdb.query-timeout").asText()).isEqualTo("30s");
    assertThat(config.get("tsd.query.limits.data_points.default").asText()).isEqualTo("5000000");
    assertThat(config.get("tsd.storage.hbase.data_table").asText()).isEqualTo("tsdb:data");
    config.fields().forEachRemaining(e -> assertThat(e.getValue().isTextual()).isTrue());
  }
}
