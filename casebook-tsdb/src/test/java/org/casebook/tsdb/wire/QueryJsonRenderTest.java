package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.casebook.core.Json;
import org.casebook.tsdb.AnnotatedAnswer;
import org.casebook.tsdb.Annotation;
import org.casebook.tsdb.QueryResult;
import org.casebook.tsdb.ResultPoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A large answer is written in runs side by side: it must read exactly as its groups written one by
 * one, in order, whatever the groups' sizes and however the runs fall.
 */
class QueryJsonRenderTest {
  private static final long HOUR_MS = 3_600_000L;

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aLargeAnswerIsItsGroupsWrittenOneByOneInOrder(boolean arrays) throws Exception {
    QueryJson q = query(arrays);
    List<QueryResult> groups = new ArrayList<>();
    // Uneven groups: the runs are cut by points, not by groups.
    int[] sizes = {30_000, 7, 0, 25_000, 1, 12_000, 40_000, 3};
    for (int g = 0; g < sizes.length; g++) {
      List<ResultPoint> points = new ArrayList<>();
      for (int i = 0; i < sizes[g]; i++) {
        long t = 1_700_000_000_000L + (i + g) * HOUR_MS;
        points.add(
            i % 3 == 0
                ? new ResultPoint(t, ResultPoint.Kind.INTEGER, i * 7L - g, i * 7.0 - g)
                : new ResultPoint(t, ResultPoint.Kind.DOUBLE, 0, (i + g) / 7.0));
      }
      groups.add(new QueryResult("m", Map.of("host", "web" + g), List.of("dc"), points));
    }
    Annotation global =
        new Annotation("", 1_700_000_000L, 0, "deploy \"v2\"", "", Map.of("who", "ops"));
    List<List<Annotation>> notes = new ArrayList<>();
    for (int g = 0; g < sizes.length; g++) {
      notes.add(g == 3 ? List.of(global) : List.of());
    }

    byte[] whole = q.render(new AnnotatedAnswer(List.of(groups), List.of(notes), List.of(global)));

    StringBuilder oneByOne = new StringBuilder("[");
    for (int g = 0; g < groups.size(); g++) {
      String alone =
          new String(
              q.render(
                  new AnnotatedAnswer(
                      List.of(List.of(groups.get(g))),
                      List.of(List.of(notes.get(g))),
                      List.of(global))),
              StandardCharsets.UTF_8);
      oneByOne.append(g == 0 ? "" : ",").append(alone, 1, alone.length() - 1);
    }
    oneByOne.append(']');
    assertThat(new String(whole, StandardCharsets.UTF_8)).isEqualTo(oneByOne.toString());

    JsonNode parsed = Json.mapper().readTree(whole);
    assertThat(parsed).hasSize(sizes.length);
    for (int g = 0; g < sizes.length; g++) {
      assertThat(parsed.get(g).get("tags").get("host").asText()).isEqualTo("web" + g);
      assertThat(parsed.get(g).get("dps")).hasSize(sizes[g]);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void anEmptyAnswerIsAnEmptyArray(boolean arrays) {
    byte[] empty = query(arrays).render(List.of(List.of()));
    assertThat(new String(empty, StandardCharsets.UTF_8)).isEqualTo("[]");
  }

  private static QueryJson query(boolean arrays) {
    try {
      return QueryJson.fromJson(
          Json.mapper()
              .readTree(
                  "{\"start\":1700000000,\"showQuery\":true,"
                      + "\"queries\":[{\"aggregator\":\"sum\",\"metric\":\"m\"}]}"),
          1_800_000_000_000L,
          arrays);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
