package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.tsdb.wire.TsdbHttpFixture.enc;
import static org.casebook.tsdb.wire.TsdbHttpFixture.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TsdbRoutesIT {
  private TsdbHttpFixture tsdb;

  /** Two hours ago, on the hour: finished hours, so compaction may run. */
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;

  @BeforeAll
  void start(HBaseRuntime runtime) {
    tsdb = new TsdbHttpFixture(runtime);
  }

  @AfterAll
  void stop() {
    tsdb.close();
  }

  @Test
  void aDeletingQueryNeedsTheSettingAndTheWriteToken(HBaseRuntime runtime) throws Exception {
    String m = TestIds.unique("del.http");
    String points =
        "[{\"metric\":\"%s\",\"timestamp\":%d,\"value\":1,\"tags\":{\"host\":\"a\"}},"
                .formatted(m, t0)
            + "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":2,\"tags\":{\"host\":\"a\"}}]"
                .formatted(m, t0 + 60);
    String range = "/api/query?start=" + t0 + "&end=" + (t0 + 30) + "&m=sum:" + m;
    assertThat(tsdb.send("POST", "/api/put?sync", points).statusCode()).isEqualTo(204);
    HttpResponse<String> refused = tsdb.send("GET", range + "&delete=true", null);
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body())
        .contains("Deleting data is not enabled (tsd.http.query.allow_delete=false")
        .contains("\"field\":\"delete\"");
    try (TsdbHttpFixture allowing =
        new TsdbHttpFixture(
            runtime, AccessRule.token("s3cret"), Map.of("tsdb.allow-delete", "true"))) {
      assertThat(allowing.send("GET", range + "&delete=true", null).statusCode()).isEqualTo(401);
      String body =
          "{\"start\":%d,\"end\":%d,\"delete\":true,\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"%s\"}]}"
              .formatted(t0, t0 + 30, m);
      HttpResponse<String> deleted = allowing.send("POST", "/api/query", body, "s3cret");
      assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
      assertThat(deleted.body()).as("answered as it was").contains("\"" + t0 + "\":1");
    }
    JsonNode after =
        TsdbHttpFixture.json(
            tsdb.send(
                "GET", "/api/query?start=" + t0 + "&end=" + (t0 + 120) + "&m=sum:" + m, null));
    assertThat(after.get(0).get("dps").fieldNames())
        .toIterable()
        .containsExactly(Long.toString(t0 + 60));
  }

  @Test
  void pointsPutOverHttpAndTelnetAnswerQueries() throws Exception {
    String m = TestIds.unique("sys.cpu.user");
    String body =
        "[{\"metric\":\"%s\",\"timestamp\":%d,\"value\":10,\"tags\":{\"host\":\"web01\",\"dc\":\"lga\"}},"
                .formatted(m, t0)
            + "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":20,\"tags\":{\"host\":\"web01\",\"dc\":\"lga\"}},"
                .formatted(m, t0 + 60)
            + "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":\"5\",\"tags\":{\"host\":\"web02\",\"dc\":\"lga\"}}]"
                .formatted(m, t0);
    HttpResponse<String> put = tsdb.send("POST", "/api/put?sync", body);
    assertThat(put.statusCode()).as(put.body()).isEqualTo(204);

    try (Socket s = new Socket()) {
      s.connect(tsdb.telnet());
      OutputStream out = s.getOutputStream();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      out.write(
          ("put "
                  + m
                  + " "
                  + (t0 + 60)
                  + " 7 host=web02 dc=lga\n"
                  + "put "
                  + m
                  + " "
                  + t0
                  + " nope host=web02\n"
                  + "version\n")
              .getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertThat(in.readLine()).isEqualTo("put: invalid value: Invalid character 'n' in nope");
      assertThat(in.readLine()).contains("2.4.1");
      assertThat(in.readLine()).isNotNull();
      out.write("exit\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertThat(in.readLine()).isNull();
    }

    // Telnet points are durable within the flush period: wait for the answer to include them.
    String q =
        "/api/query?start=" + t0 + "&end=" + (t0 + 120) + "&m=" + enc("sum:" + m + "{host=*}");
    JsonNode groups = awaitPoints(q, 4);
    assertThat(groups).hasSize(2);
    assertThat(groups.get(0).get("tags").get("host").asText()).isEqualTo("web01");
    assertThat(groups.get(0).get("dps").get(Long.toString(t0)).asLong()).isEqualTo(10);
    assertThat(groups.get(1).get("dps").get(Long.toString(t0 + 60)).asLong()).isEqualTo(7);
    assertThat(groups.get(0).get("aggregateTags")).isEmpty();

    JsonNode all = json(tsdb.send("GET", "/api/query?start=" + t0 + "&m=" + enc("sum:" + m), null));
    assertThat(all).hasSize(1);
    assertThat(all.get(0).get("aggregateTags").get(0).asText()).isEqualTo("host");
    assertThat(all.get(0).get("dps").get(Long.toString(t0)).asLong()).isEqualTo(15);
    assertThat(all.get(0).get("dps").get(Long.toString(t0 + 60)).asLong()).isEqualTo(27);

    String json =
        """
        {"start": %d, "end": %d, "msResolution": true, "showQuery": true,
         "queries": [{"aggregator": "max", "metric": "%s", "downsample": "1m-avg-zero",
           "filters": [{"type": "literal_or", "tagk": "host", "filter": "web01|web02",
                        "groupBy": false}]}]}
        """
            .formatted(t0 * 1000, (t0 + 179) * 1000, m);
    JsonNode max = json(tsdb.send("POST", "/api/query", json));
    assertThat(max.get(0).get("dps").get(Long.toString(t0 * 1000)).asDouble()).isEqualTo(10.0);
    assertThat(max.get(0).get("dps").get(Long.toString((t0 + 120) * 1000)).asDouble())
        .isEqualTo(0.0);
    assertThat(max.get(0).get("query").get("index").asInt()).isZero();

    JsonNode rate =
        json(
            tsdb.send(
                "GET",
                "/api/query?start=" + t0 + "&m=" + enc("sum:rate:" + m + "{host=web01}"),
                null));
    assertThat(rate.get(0).get("dps").get(Long.toString(t0 + 60)).asDouble()).isEqualTo(10.0 / 60);

    JsonNode last =
        json(
            tsdb.send(
                "GET",
                "/api/query/last?timeseries=" + enc(m + "{host=web02}") + "&back_scan=6",
                null));
    assertThat(last).hasSize(1);
    assertThat(last.get(0).get("value").asText()).isEqualTo("7");
    assertThat(last.get(0).get("timestamp").asLong()).isEqualTo((t0 + 60) * 1000);

    JsonNode lookup = json(tsdb.send("GET", "/api/search/lookup?m=" + enc(m + "{host=*}"), null));
    assertThat(lookup.get("results")).hasSize(2);
    assertThat(lookup.get("totalResults").asInt()).isEqualTo(2);

    JsonNode lastPost =
        json(
            tsdb.send(
                "POST",
                "/api/query/last",
                "{\"queries\":[{\"metric\":\""
                    + m
                    + "\",\"tags\":{\"host\":\"web01\"}}],"
                    + "\"backScan\":6}"));
    assertThat(lastPost.get(0).get("value").asText()).isEqualTo("20");
    JsonNode lookupPost =
        json(
            tsdb.send(
                "POST",
                "/api/search/lookup",
                "{\"metric\":\"" + m + "\",\"tags\":[{\"key\":\"host\",\"value\":\"web02\"}]}"));
    assertThat(lookupPost.get("results")).hasSize(1);
    assertThat(
            json(tsdb.send("POST", "/api/suggest", "{\"type\":\"tagv\",\"q\":\"web0\",\"max\":5}")))
        .extracting(JsonNode::asText)
        .contains("web01", "web02");
    JsonNode suggest =
        json(tsdb.send("GET", "/api/suggest?type=metrics&q=" + enc(m.substring(0, 12)), null));
    assertThat(suggest).extracting(JsonNode::asText).contains(m);
    assertThat(json(tsdb.send("GET", "/api/suggest?type=tagk&q=ho", null)))
        .extracting(JsonNode::asText)
        .contains("host");
  }

  @Test
  void aMixedBatchStoresTheGoodPointsAndReportsTheBadOnes() throws Exception {
    String m = TestIds.unique("mixed");
    String body =
        "[{\"metric\":\"%s\",\"timestamp\":%d,\"value\":1,\"tags\":{\"host\":\"a\"}},"
                .formatted(m, t0)
            + "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":\"NaN\",\"tags\":{\"host\":\"a\"}},"
                .formatted(m, t0 + 1)
            + "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":1,\"tags\":{}}]".formatted(m, t0 + 2);
    HttpResponse<String> details = tsdb.send("POST", "/api/put?details&sync", body);
    assertThat(details.statusCode()).isEqualTo(400);
    JsonNode d = Json.mapper().readTree(details.body());
    assertThat(d.get("success").asInt()).isEqualTo(1);
    assertThat(d.get("failed").asInt()).isEqualTo(2);
    assertThat(d.get("errors").get(0).get("error").asText()).contains("NaN");
    assertThat(d.get("errors").get(1).get("datapoint").get("timestamp").asLong()).isEqualTo(t0 + 2);
    HttpResponse<String> plain = tsdb.send("POST", "/api/put", body);
    assertThat(plain.statusCode()).isEqualTo(400);
    assertThat(Json.mapper().readTree(plain.body()).get("error").get("message").asText())
        .isEqualTo("One or more data points had errors");
    JsonNode answer =
        json(tsdb.send("GET", "/api/query?start=" + t0 + "&m=" + enc("sum:" + m), null));
    assertThat(answer.get(0).get("dps")).hasSize(1);
  }

  @Test
  void badQueriesAre400sNamingTheField() throws Exception {
    assertError(tsdb.send("GET", "/api/query?start=1h-ago&m=" + enc("nope:sys.cpu"), null), "m");
    assertError(tsdb.send("GET", "/api/query?m=" + enc("sum:sys.cpu"), null), "start");
    assertError(
        tsdb.send(
            "GET", "/api/query?start=1h-ago&m=" + enc("sum:" + TestIds.unique("absent")), null),
        "metric");
    assertError(
        tsdb.send("POST", "/api/query", "{\"start\":\"1h-ago\",\"queries\":[],\"x\":1}"), "x");
    assertError(tsdb.send("POST", "/api/query", "{\"start\":\"1h-ago\"}"), "queries");
    assertError(tsdb.send("POST", "/api/put", "{not json"), "body");
    assertError(tsdb.send("GET", "/api/suggest?type=colour", null), "type");
    assertError(tsdb.send("GET", "/api/query?start=2h-ago&end=3h-ago&m=sum:x", null), "end");
  }

  @Test
  void anOverLongTelnetLineIsRefusedAndTheConnectionStaysOpen() throws Exception {
    try (Socket s = new Socket()) {
      s.connect(tsdb.telnet());
      OutputStream out = s.getOutputStream();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      out.write(("put " + "m".repeat(70_000) + " 1 1 host=a\n").getBytes(StandardCharsets.UTF_8));
      out.write("put m 1700000000 1\nversion\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertThat(in.readLine()).isEqualTo("error: line longer than 65536 bytes");
      assertThat(in.readLine()).startsWith("put: illegal argument: not enough arguments");
      assertThat(in.readLine()).contains("2.4.1");
    }
  }

  @Test
  void metadataEndpointsAnswerAsOpenTsdb() throws Exception {
    JsonNode aggs = json(tsdb.send("GET", "/api/aggregators", null));
    assertThat(aggs).extracting(JsonNode::asText).contains("sum", "zimsum", "p99", "mimmax");
    JsonNode filters = json(tsdb.send("GET", "/api/config/filters", null));
    assertThat(filters.has("literal_or")).isTrue();
    assertThat(filters.get("regexp").has("description")).isTrue();
    assertThat(json(tsdb.send("GET", "/api/version", null)).get("version").asText())
        .isEqualTo("2.4.1");
    String name = TestIds.unique("assigned");
    HttpResponse<String> assign =
        tsdb.send("POST", "/api/uid/assign", "{\"metric\":[\"" + name + "\"]}");
    assertThat(assign.statusCode()).isEqualTo(200);
    assertThat(Json.mapper().readTree(assign.body()).get("metric").get(name).asText()).hasSize(6);
    HttpResponse<String> again =
        tsdb.send("POST", "/api/uid/assign", "{\"metric\":[\"" + name + "\"]}");
    assertThat(again.statusCode()).isEqualTo(400);
  }

  private JsonNode awaitPoints(String path, int points) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      JsonNode groups = json(tsdb.send("GET", path, null));
      int n = 0;
      for (JsonNode g : groups) {
        n += g.get("dps").size();
      }
      if (n >= points || System.nanoTime() > deadline) {
        return groups;
      }
      Thread.sleep(100);
    }
  }

  private void assertError(HttpResponse<String> r, String field) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    JsonNode e = Json.mapper().readTree(r.body()).get("error");
    assertThat(e.get("code").asInt()).isEqualTo(400);
    assertThat(e.get("field").asText()).as(r.body()).isEqualTo(field);
  }
}
