package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.tsdb.wire.TsdbHttpFixture.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Queries past {@code tsdb.query-max-points}, {@code tsdb.query-max-series} and {@code
 * tsdb.query-timeout} are cut off with OpenTSDB's 413 naming the setting, while another client's
 * request is answered.
 */
@ExtendWith(EmbeddedHBase.class)
class QueryLimitsIT {
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;

  /** {@code series} series of metric {@code m}, {@code perSeries} points a second apart each. */
  private void write(TsdbHttpFixture tsdb, String m, int series, int perSeries) throws Exception {
    write(tsdb, m, series, perSeries, 1);
  }

  /** As above, the points {@code stepSeconds} apart (an hour: a row each), counting back. */
  private void write(TsdbHttpFixture tsdb, String m, int series, int perSeries, long stepSeconds)
      throws Exception {
    StringBuilder b = new StringBuilder("[");
    for (int s = 0; s < series; s++) {
      for (int i = 0; i < perSeries; i++) {
        b.append(b.length() > 1 ? "," : "");
        b.append(
            "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"h%d\"}}"
                .formatted(m, stepSeconds == 1 ? t0 + i : t0 - i * stepSeconds, i, s));
      }
    }
    b.append("]");
    HttpResponse<String> r = tsdb.send("POST", "/api/put?sync", b.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  private static void assertCutOff(HttpResponse<String> r, String setting) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
    JsonNode error = Json.mapper().readTree(r.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(413);
    assertThat(error.get("field").asText()).isEqualTo("tsdb." + setting);
    assertThat(error.get("message").asText()).startsWith("Sorry, ");
  }

  @Test
  void pointAndSeriesLimitsCutQueriesOffWhileOthersAreServed(HBaseRuntime runtime)
      throws Exception {
    try (TsdbHttpFixture tsdb =
        new TsdbHttpFixture(
            runtime,
            AccessRule.open(),
            Map.of("tsdb.query-max-points", "1000", "tsdb.query-max-series", "50"))) {
      String many = TestIds.unique("limits.points");
      String wide = TestIds.unique("limits.series");
      String small = TestIds.unique("limits.small");
      write(tsdb, many, 1, 2000);
      write(tsdb, wide, 120, 1);
      write(tsdb, small, 2, 3);
      String range = "/api/query?start=" + t0 + "&end=" + (t0 + 3000) + "&m=";
      for (String[] refused :
          new String[][] {
            {"sum:" + many, "query-max-points"},
            {"sum:" + wide, "query-max-series"},
            // A fill policy would make a point per second of the range: refused before it does.
            {"sum:1s-avg-zero:" + small, "query-max-points"}
          }) {
        CompletableFuture<HttpResponse<String>> big =
            CompletableFuture.supplyAsync(() -> send(tsdb, range + refused[0]));
        JsonNode other = json(tsdb.send("GET", range + "sum:" + small, null));
        assertThat(other.get(0).get("dps")).hasSize(3);
        assertCutOff(big.get(), refused[1]);
      }
      assertThat(json(tsdb.send("GET", range + "sum:1m-avg-zero:" + small, null)).get(0).get("dps"))
          .isNotEmpty();
    }
  }

  @Test
  void aQueryPastItsDeadlineIsCutOff(HBaseRuntime runtime) throws Exception {
    try (TsdbHttpFixture tsdb =
        new TsdbHttpFixture(runtime, AccessRule.open(), Map.of("tsdb.query-timeout", "1ms"))) {
      String m = TestIds.unique("limits.timeout");
      // 20 series over 100 hours: 2,000 rows, far more than a millisecond's reading.
      write(tsdb, m, 20, 100, 3600);
      long start = t0 - 100 * 3600;
      CompletableFuture<HttpResponse<String>> slow =
          CompletableFuture.supplyAsync(
              () -> send(tsdb, "/api/query?start=" + start + "&end=" + (t0 + 60) + "&m=sum:" + m));
      JsonNode names = json(tsdb.send("GET", "/api/suggest?type=metrics&q=" + m, null));
      assertThat(names).hasSize(1);
      assertCutOff(slow.get(), "query-timeout");
      assertThat(slow.get().body()).contains("Time limit: 1 ms");
    }
  }

  private static HttpResponse<String> send(TsdbHttpFixture tsdb, String path) {
    try {
      return tsdb.send("GET", path, null);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
