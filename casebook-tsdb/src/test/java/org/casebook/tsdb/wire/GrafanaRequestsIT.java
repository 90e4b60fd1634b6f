package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.tsdb.wire.TsdbHttpFixture.enc;
import static org.casebook.tsdb.wire.TsdbHttpFixture.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The requests Grafana's OpenTSDB data source sends (its {@code datasource.ts}: the data source
 * test, metric and tag suggestions, the template variable queries, aggregator and filter lists, and
 * the {@code /api/query} body it builds from a panel), replayed as sent, with the response fields
 * Grafana reads checked.
 */
@ExtendWith(EmbeddedHBase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrafanaRequestsIT {
  private TsdbHttpFixture tsdb;
  private String metric;
  private final long t0 = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;

  @BeforeAll
  void start(HBaseRuntime runtime) throws Exception {
    tsdb = new TsdbHttpFixture(runtime);
    metric = TestIds.unique("cpu.grafana");
    List<String> points = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      for (String host : List.of("web01", "web02")) {
        points.add(
            "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"%s\",\"dc\":\"lga\"}}"
                .formatted(
                    metric, t0 + i * 30L, 1000 + i * (host.equals("web01") ? 10 : 20), host));
      }
    }
    HttpResponse<String> put =
        tsdb.send("POST", "/api/put?sync", "[" + String.join(",", points) + "]");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(204);
  }

  @AfterAll
  void stop() {
    tsdb.close();
  }

  @Test
  void theDataSourceTestAndSuggestions() throws Exception {
    // testDatasource(): _performSuggestQuery('cpu', 'metrics').
    assertThat(json(tsdb.send("GET", "/api/suggest?type=metrics&q=cpu&max=1000", null)).isArray())
        .isTrue();
    // metric field autocomplete and metrics(prefix).
    assertThat(
            json(
                tsdb.send("GET", "/api/suggest?type=metrics&q=" + enc(metric) + "&max=1000", null)))
        .extracting(JsonNode::asText)
        .containsExactly(metric);
    // suggest_tagk() / suggest_tagv().
    assertThat(json(tsdb.send("GET", "/api/suggest?type=tagk&q=ho&max=1000", null)))
        .extracting(JsonNode::asText)
        .contains("host");
    assertThat(json(tsdb.send("GET", "/api/suggest?type=tagv&q=web0&max=1000", null)))
        .extracting(JsonNode::asText)
        .contains("web01", "web02");
    // The query editor's lists.
    assertThat(json(tsdb.send("GET", "/api/aggregators", null)))
        .extracting(JsonNode::asText)
        .contains("avg", "sum", "zimsum");
    assertThat(json(tsdb.send("GET", "/api/config/filters", null)).fieldNames())
        .toIterable()
        .contains("literal_or", "iliteral_or", "not_literal_or", "wildcard", "regexp");
  }

  @Test
  void theTemplateVariableQueries() throws Exception {
    // tag_names(metric): /api/search/lookup?m=metric&limit=1000, keys of results[].tags.
    JsonNode names =
        json(tsdb.send("GET", "/api/search/lookup?m=" + enc(metric) + "&limit=1000", null));
    assertThat(names.get("results").get(0).get("tags").has("host")).isTrue();
    assertThat(names.get("results").get(0).get("tags").has("dc")).isTrue();
    // tag_values(metric, host, dc=lga): m=metric{host=*,dc=lga}.
    JsonNode values =
        json(
            tsdb.send(
                "GET",
                "/api/search/lookup?m=" + enc(metric + "{host=*,dc=lga}") + "&limit=1000",
                null));
    List<String> hosts = new ArrayList<>();
    values.get("results").forEach(r -> hosts.add(r.get("tags").get("host").asText()));
    assertThat(hosts).containsExactlyInAnyOrder("web01", "web02");
  }

  @Test
  void aPanelQueryAsGrafanaBuildsIt() throws Exception {
    // performTimeSeriesQuery with tsdbVersion 3 (2.3+): showQuery, globalAnnotations, a filter
    // panel with rate, counter options and a downsample with a fill policy.
    String body =
        """
        {"start":%d,"end":%d,"queries":[
          {"metric":"%s","aggregator":"sum","downsample":"1m-avg-zero",
           "rate":true,"rateOptions":{"counter":true,"dropResets":true},
           "filters":[{"type":"wildcard","tagk":"host","filter":"web*","groupBy":true}]},
          {"metric":"%s","aggregator":"avg","downsample":"5m-max",
           "tags":{"dc":"lga"}}],
         "msResolution":false,"globalAnnotations":true,"showQuery":true}
        """
            .formatted(t0 * 1000, (t0 + 3599) * 1000, metric, metric);
    JsonNode answer = json(tsdb.send("POST", "/api/query", body));
    assertThat(answer).hasSize(3);
    for (JsonNode series : answer) {
      assertThat(series.get("metric").asText()).isEqualTo(metric);
      assertThat(series.has("dps")).isTrue();
      assertThat(series.get("query").has("index")).isTrue();
    }
    assertThat(answer.get(0).get("query").get("index").asInt()).isZero();
    assertThat(answer.get(0).get("tags").get("host").asText()).isEqualTo("web01");
    // web01 grows by 10 every 30 s: a rate of 1/3 per second in each whole minute.
    assertThat(answer.get(0).get("dps").get(Long.toString(t0 + 120)).asDouble())
        .isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(answer.get(2).get("query").get("index").asInt()).isEqualTo(1);
    assertThat(answer.get(2).get("aggregateTags")).extracting(JsonNode::asText).contains("host");
    // Relative start and no end, as Grafana sends for "last 6 hours".
    String relative =
        """
        {"start":"6h-ago","queries":[{"metric":"%s","aggregator":"sum","downsample":"1h-sum",
         "tags":{"host":"*"}}],"msResolution":false,"globalAnnotations":true}
        """
            .formatted(metric);
    assertThat(json(tsdb.send("POST", "/api/query", relative))).hasSize(2);
  }
}
