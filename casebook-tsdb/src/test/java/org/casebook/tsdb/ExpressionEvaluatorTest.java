package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.tsdb.ExpressionRequest.ExpressionSpec;
import org.casebook.tsdb.ExpressionRequest.JoinOperator;
import org.casebook.tsdb.ExpressionRequest.MetricVariable;
import org.casebook.tsdb.ExpressionRequest.OutputSpec;
import org.junit.jupiter.api.Test;

/**
 * Joins and evaluation of {@code /api/query/exp} over answered sub-queries, without HBase: each
 * case is a behaviour of OpenTSDB 2.4.1's {@code UnionIterator}, {@code IntersectionIterator} and
 * {@code ExpressionIterator}.
 */
class ExpressionEvaluatorTest {
  private static final long T = 1_700_000_000_000L;

  private static QueryResult group(String metric, Map<String, String> tags, long... tsValue) {
    return group(metric, tags, List.of(), tsValue);
  }

  /** A group with points at {@code T + ts} seconds: pairs of (seconds, value). */
  private static QueryResult group(
      String metric, Map<String, String> tags, List<String> agg, long... tsValue) {
    List<ResultPoint> points = new ArrayList<>();
    for (int i = 0; i < tsValue.length; i += 2) {
      points.add(ResultPoint.ofLong(T + tsValue[i] * 1000, tsValue[i + 1]));
    }
    return new QueryResult(metric, tags, agg, points);
  }

  private static OpenTsdbQuery query(String... metrics) {
    OpenTsdbQuery.Builder b =
        new OpenTsdbQuery.Builder(T + 3_600_000)
            .start(Long.toString(T / 1000))
            .end(Long.toString(T / 1000 + 600));
    for (String m : metrics) {
      b.m("sum:" + m);
    }
    return b.build(false, false, false);
  }

  private static MetricVariable metric(String id) {
    return new MetricVariable(id, Set.of("host"), 0);
  }

  private static ExpressionSpec expr(String id, String expr, JoinOperator op) {
    return new ExpressionSpec(id, expr, op, false, true, Double.NaN);
  }

  private static ExpressionRequest request(
      List<MetricVariable> metrics, List<ExpressionSpec> exprs, List<OutputSpec> outputs) {
    String[] names = metrics.stream().map(m -> "m" + m.id()).toArray(String[]::new);
    return new ExpressionRequest(query(names), metrics, exprs, outputs);
  }

  private static List<List<Double>> rows(ExpressionAnswer.Output o) {
    List<List<Double>> out = new ArrayList<>();
    for (int r = 0; r < o.rowCount(); r++) {
      List<Double> row = new ArrayList<>();
      row.add((double) (o.timestampMs(r) - T) / 1000);
      for (int s = 0; s < o.series().size(); s++) {
        row.add(o.value(r, s));
      }
      out.add(row);
    }
    return out;
  }

  private final Map<String, String> web01 = Map.of("host", "web01");
  private final Map<String, String> web02 = Map.of("host", "web02");
  private final Map<String, String> web03 = Map.of("host", "web03");

  /** a has web01..03, b lacks web03; a has a point b has not and b one a has not. */
  private List<List<QueryResult>> twoMetrics() {
    return List.of(
        List.of(
            group("ma", web01, 0, 10, 10, 20),
            group("ma", web02, 0, 30, 10, 40, 20, 50),
            group("ma", web03, 0, 5)),
        List.of(group("mb", web01, 0, 1, 10, 2), group("mb", web02, 0, 3, 30, 4)));
  }

  @Test
  void unionStandsAZeroInForAMissingSeriesAndTheFillForAMissingPoint() {
    ExpressionRequest req =
        request(
            List.of(metric("a"), new MetricVariable("b", Set.of("host"), 100)),
            List.of(expr("e", "a + b", JoinOperator.UNION)),
            List.of());
    ExpressionAnswer.Output e = ExpressionEvaluator.evaluate(req, twoMetrics()).outputs().get(0);
    assertThat(e.id()).isEqualTo("e");
    assertThat(e.series()).hasSize(3);
    // Columns web01, web02, web03; b's fill is 100, web03 has no b at all: 0 (not the fill).
    assertThat(rows(e))
        .containsExactly(
            List.of(0.0, 11.0, 33.0, 5.0),
            List.of(10.0, 22.0, 140.0, 0.0),
            List.of(20.0, 100.0, 150.0, 0.0),
            List.of(30.0, 100.0, 4.0, 0.0));
    assertThat(e.series().get(2).commonTags()).isEqualTo(web03);
    assertThat(e.series().get(0).metrics()).containsExactly("ma", "mb");
    assertThat(e.firstTimestampMs()).isEqualTo(T);
    assertThat(e.lastTimestampMs()).isEqualTo(T + 30_000);
  }

  @Test
  void intersectionDropsATagSetOneSideLacksAndItsTimestamps() {
    List<List<QueryResult>> results =
        List.of(
            List.of(group("ma", web01, 0, 10), group("ma", web03, 5, 1)),
            List.of(group("mb", web01, 0, 1), group("mb", web02, 7, 3)));
    ExpressionRequest req =
        request(
            List.of(metric("a"), metric("b")),
            List.of(expr("e", "a * b", JoinOperator.INTERSECTION)),
            List.of());
    ExpressionAnswer.Output e = ExpressionEvaluator.evaluate(req, results).outputs().get(0);
    assertThat(e.series()).hasSize(1);
    assertThat(rows(e)).containsExactly(List.of(0.0, 10.0));
  }

  @Test
  void anEmptyIntersectionIsAnErrorNamingTheExpression() {
    List<List<QueryResult>> results =
        List.of(List.of(group("ma", web01, 0, 10)), List.of(group("mb", web02, 0, 1)));
    ExpressionRequest req =
        request(
            List.of(metric("a"), metric("b")),
            List.of(expr("e", "a * b", JoinOperator.INTERSECTION)),
            List.of());
    assertThatThrownBy(() -> ExpressionEvaluator.evaluate(req, results))
        .isInstanceOf(InvalidInputException.class)
        .hasFieldOrPropertyWithValue("field", "expressions[0].join")
        .hasMessageContaining("No intersections found");
  }

  @Test
  void noSeriesAtAllIsAnEmptyOutput() {
    ExpressionRequest req =
        request(
            List.of(metric("a"), metric("b")),
            List.of(expr("e", "a * b", JoinOperator.INTERSECTION)),
            List.of());
    ExpressionAnswer.Output e =
        ExpressionEvaluator.evaluate(req, List.of(List.of(), List.of())).outputs().get(0);
    assertThat(e.rowCount()).isZero();
    assertThat(e.series()).isEmpty();
    assertThat(e.firstTimestampMs()).isZero();
  }

  @Test
  void aggregatedTagsJoinUnlessTheJoinLeavesThemOut() {
    List<List<QueryResult>> results =
        List.of(
            List.of(group("ma", Map.of("dc", "lga"), List.of("host"), 0, 1)),
            List.of(group("mb", Map.of("dc", "lga"), List.of(), 0, 2)));
    List<MetricVariable> ms = List.of(metric("a"), metric("b"));
    ExpressionRequest with =
        request(ms, List.of(expr("e", "a + b", JoinOperator.UNION)), List.of());
    assertThat(ExpressionEvaluator.evaluate(with, results).outputs().get(0).series()).hasSize(2);
    ExpressionRequest without =
        request(
            ms,
            List.of(new ExpressionSpec("e", "a + b", JoinOperator.UNION, false, false, 0)),
            List.of());
    ExpressionAnswer.Output e = ExpressionEvaluator.evaluate(without, results).outputs().get(0);
    assertThat(rows(e)).containsExactly(List.of(0.0, 3.0));
    assertThat(e.series().get(0).aggregatedTags()).containsExactly("host");
  }

  @Test
  void useQueryTagsJoinsOnTheFilteredKeysOnly() {
    List<List<QueryResult>> results =
        List.of(
            List.of(group("ma", Map.of("host", "web01", "dc", "lga"), 0, 1)),
            List.of(group("mb", Map.of("host", "web01"), 0, 2)));
    List<MetricVariable> ms = List.of(new MetricVariable("a", Set.of("host"), 0), metric("b"));
    ExpressionRequest plain =
        request(ms, List.of(expr("e", "a + b", JoinOperator.INTERSECTION)), List.of());
    assertThatThrownBy(() -> ExpressionEvaluator.evaluate(plain, results))
        .hasMessageContaining("No intersections");
    ExpressionRequest byQueryTags =
        request(
            ms,
            List.of(new ExpressionSpec("e", "a + b", JoinOperator.INTERSECTION, true, true, 0)),
            List.of());
    assertThat(rows(ExpressionEvaluator.evaluate(byQueryTags, results).outputs().get(0)))
        .containsExactly(List.of(0.0, 3.0));
  }

  @Test
  void aNestedExpressionJoinsAsAVariableWithItsOwnFill() {
    List<List<QueryResult>> results =
        List.of(
            List.of(group("ma", web01, 0, 10, 10, 20)),
            List.of(group("mb", web01, 0, 1, 10, 2)),
            List.of(group("mc", web01, 0, 100, 5, 200)));
    ExpressionRequest req =
        request(
            List.of(metric("a"), metric("b"), metric("c")),
            List.of(
                new ExpressionSpec("e", "c + f", JoinOperator.UNION, false, true, -1),
                new ExpressionSpec("f", "a - b", JoinOperator.UNION, false, true, -1)),
            List.of(new OutputSpec("e", "sum"), new OutputSpec("f", null)));
    ExpressionAnswer answer = ExpressionEvaluator.evaluate(req, results);
    ExpressionAnswer.Output e = answer.outputs().get(0);
    assertThat(e.alias()).isEqualTo("sum");
    // f has no point at 5 s: its fill, -1; c has none at 10 s: c's fill, 0.
    assertThat(rows(e))
        .containsExactly(List.of(0.0, 109.0), List.of(5.0, 199.0), List.of(10.0, 18.0));
    assertThat(e.series().get(0).metrics()).containsExactly("ma", "mb", "mc");
    assertThat(rows(answer.outputs().get(1)))
        .containsExactly(List.of(0.0, 9.0), List.of(10.0, 18.0));
  }

  @Test
  void aMetricAsAnOutputListsItsGroupsSideBySide() {
    ExpressionRequest req =
        request(
            List.of(metric("a"), metric("b")),
            List.of(expr("e", "a + b", JoinOperator.UNION)),
            List.of(new OutputSpec("b", "raw")));
    ExpressionAnswer.Output b = ExpressionEvaluator.evaluate(req, twoMetrics()).outputs().get(0);
    assertThat(b.alias()).isEqualTo("raw");
    assertThat(rows(b))
        .containsExactly(List.of(0.0, 1.0, 3.0), List.of(10.0, 2.0, 0.0), List.of(30.0, 0.0, 4.0));
    assertThat(b.series().get(1).commonTags()).isEqualTo(web02);
    assertThat(b.series().get(1).metrics()).containsExactly("mb");
  }

  @Test
  void withoutOutputsEveryExpressionIsAnsweredOrElseEveryMetric() {
    ExpressionRequest exprs =
        request(
            List.of(metric("a"), metric("b")),
            List.of(expr("e", "a + b", JoinOperator.UNION), expr("f", "a * 2", JoinOperator.UNION)),
            List.of());
    assertThat(ExpressionEvaluator.evaluate(exprs, twoMetrics()).outputs())
        .extracting(ExpressionAnswer.Output::id)
        .containsExactly("e", "f");
    ExpressionRequest metrics = request(List.of(metric("a"), metric("b")), List.of(), List.of());
    assertThat(ExpressionEvaluator.evaluate(metrics, twoMetrics()).outputs())
        .extracting(ExpressionAnswer.Output::id)
        .containsExactly("a", "b");
  }

  @Test
  void aNanPointTakesTheVariablesFill() {
    QueryResult withNan =
        new QueryResult(
            "ma",
            web01,
            List.of(),
            List.of(ResultPoint.ofDouble(T, Double.NaN), ResultPoint.ofNull(T + 1000)));
    ExpressionRequest req =
        request(
            List.of(new MetricVariable("a", Set.of(), 7)),
            List.of(expr("e", "a * 2", JoinOperator.UNION)),
            List.of());
    assertThat(rows(ExpressionEvaluator.evaluate(req, List.of(List.of(withNan))).outputs().get(0)))
        .containsExactly(List.of(0.0, 14.0), List.of(1.0, 14.0));
  }

  @Test
  void requestChecksNameTheirFields() {
    List<MetricVariable> ms = List.of(metric("a"), metric("b"));
    assertThatThrownBy(
            () -> request(ms, List.of(expr("e", "a + c", JoinOperator.UNION)), List.of()))
        .hasFieldOrPropertyWithValue("field", "expressions[0].expr")
        .hasMessage("Expression [a + c] was missing input c");
    assertThatThrownBy(
            () -> request(ms, List.of(expr("e", "a + e", JoinOperator.UNION)), List.of()))
        .hasMessage("Self referencing expression found: e");
    assertThatThrownBy(
            () ->
                request(
                    ms,
                    List.of(
                        expr("e", "a + f", JoinOperator.UNION), expr("f", "e", JoinOperator.UNION)),
                    List.of()))
        .hasMessageStartingWith("Circular reference found");
    assertThatThrownBy(() -> request(ms, List.of(expr("a", "b", JoinOperator.UNION)), List.of()))
        .hasFieldOrPropertyWithValue("field", "expressions[0].id");
    assertThatThrownBy(() -> request(ms, List.of(), List.of(new OutputSpec("x", null))))
        .hasFieldOrPropertyWithValue("field", "outputs[0].id");
  }

  @Test
  void openTsdbWalksVariablesInHashMapOrder() {
    assertThat(SeriesJoin.openTsdbOrder(List.of("b", "a"))).containsExactly("a", "b");
  }
}
