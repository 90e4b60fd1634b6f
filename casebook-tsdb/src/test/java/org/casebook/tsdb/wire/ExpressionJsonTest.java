package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.tsdb.ExpressionRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading {@code /api/query/exp} bodies: OpenTSDB's checks, each naming its field, and the echo.
 */
class ExpressionJsonTest {
  private static final long NOW = 1_700_000_000_000L;

  private static final String VALID =
      """
      {"time":{"start":"1h-ago","aggregator":"sum",
        "downsampler":{"interval":"1m","aggregator":"avg","fillPolicy":{"policy":"nan"}}},
       "filters":[{"id":"f","tags":[{"type":"literal_or","tagk":"host","filter":"a|b",
         "groupBy":true}]}],
       "metrics":[{"id":"a","metric":"m.a","filter":"f","fillPolicy":{"value":5}},
                  {"id":"b","metric":"m.b","aggregator":"MAX"}],
       "expressions":[{"id":"e","expr":"a + b"}],
       "outputs":[{"id":"e","alias":"x"}]}
      """;

  private static ExpressionJson read(String body) throws Exception {
    return ExpressionJson.fromJson(Json.mapper().readTree(body), NOW);
  }

  @Test
  void readsARequestAndEchoesItAsOpenTsdbSerialisesIt() throws Exception {
    ExpressionJson q = read(VALID);
    ExpressionRequest r = q.request();
    assertThat(r.query().startMs()).isEqualTo(NOW - 3_600_000);
    assertThat(r.query().endMs()).isEqualTo(NOW);
    assertThat(r.metrics().get(0).filterTagKeys()).containsExactly("host");
    // A fill without a policy is a scalar when its value is not 0 (NumericFillPolicy.validate).
    assertThat(r.metrics().get(0).fillValue()).isEqualTo(5.0);
    assertThat(r.metrics().get(1).fillValue()).isEqualTo(0.0);
    assertThat(r.expressions().get(0).join()).isEqualTo(ExpressionRequest.JoinOperator.UNION);
    assertThat(r.expressions().get(0).fillValue()).isNaN();
    assertThat(r.outputs().get(0).alias()).isEqualTo("x");
    JsonNode echo = q.echo();
    assertThat(echo.get("name").isNull()).isTrue();
    assertThat(echo.get("time").get("end").isNull()).isTrue();
    assertThat(echo.get("metrics").get(0).get("fillPolicy").toString())
        .isEqualTo("{\"policy\":\"scalar\",\"value\":5.0}");
    assertThat(echo.get("metrics").get(1).get("aggregator").asText()).isEqualTo("MAX");
    assertThat(echo.get("expressions").get(0).get("join").get("operator").asText())
        .isEqualTo("union");
  }

  /** Each row: a text to replace in the valid body, its replacement, the field named. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "\"start\":\"1h-ago\",|\"start\":\"\",|time.start",
        "\"start\":\"1h-ago\",|\"start\":\"yesterday\",|time.start",
        "\"aggregator\":\"sum\",|\"aggregator\":\"nope\",|time.aggregator",
        "\"interval\":\"1m\"|\"interval\":\"\"|time.downsampler.interval",
        "\"policy\":\"nan\"|\"policy\":\"sometimes\"|time.downsampler.fillPolicy.policy",
        "\"policy\":\"nan\"|\"policy\":\"scalar\",\"value\":2|time.downsampler.fillPolicy",
        "\"type\":\"literal_or\"|\"type\":\"nosuch\"|filters[0].tags[0]",
        "\"id\":\"f\"|\"id\":\"f.1\"|filters[0].id",
        "\"filter\":\"f\"|\"filter\":\"g\"|metrics[0].filter",
        "\"metric\":\"m.a\"|\"metric\":\"\"|metrics[0].metric",
        "\"id\":\"a\"|\"id\":\"b\"|metrics[1].id",
        "\"id\":\"a\"|\"id\":\"1\"|metrics[0].id",
        "\"aggregator\":\"MAX\"|\"aggregator\":\"most\"|metrics[1].aggregator",
        "{\"value\":5}|{\"policy\":\"nan\",\"value\":5}|metrics[0].fillPolicy.value",
        "\"expr\":\"a + b\"|\"expr\":\"\"|expressions[0].expr",
        "\"expr\":\"a + b\"|\"expr\":\"a + b + z\"|expressions[0].expr",
        "\"outputs\"|\"output\"|output",
        "\"alias\":\"x\"|\"alias\":{}|outputs[0].alias",
      })
  void refusesWhatOpenTsdbRefusesNamingTheField(String from, String to, String field) {
    assertThat(VALID).contains(from);
    String body = VALID.replaceFirst(java.util.regex.Pattern.quote(from), to);
    assertThatThrownBy(() -> read(body))
        .isInstanceOf(InvalidInputException.class)
        .hasFieldOrPropertyWithValue("field", field);
  }

  @Test
  void theEndMustComeAfterTheStart() {
    String body =
        VALID.replace("\"start\":\"1h-ago\",", "\"start\":\"1h-ago\",\"end\":\"2h-ago\",");
    assertThatThrownBy(() -> read(body)).hasFieldOrPropertyWithValue("field", "time.end");
  }
}
