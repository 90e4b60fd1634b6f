package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** The aggregation functions alone, and across misaligned series with each interpolation. */
class QueryEngineAggregatorTest {
  /** An hour boundary (2023-11-14T22:00:00Z), so scan windows start here. */
  static final long T0 = 1_699_999_200_000L;

  static DataPoint lp(long seconds, long value) {
    return DataPoint.ofLong(T0 + seconds * 1000, value);
  }

  static DataPoint dp(long seconds, double value) {
    return DataPoint.ofDouble(T0 + seconds * 1000, value);
  }

  static Series series(String host, DataPoint... points) {
    return new Series("m", Map.of("host", host), List.of(points));
  }

  static SubQuery query(String aggregator) {
    return new SubQuery(
        SubQuery.aggregatorNamed(aggregator, "aggregator"),
        "m",
        false,
        RateOptions.DEFAULT,
        Optional.empty(),
        List.of(),
        false);
  }

  static List<ResultPoint> run(SubQuery q, List<Series> data) {
    List<QueryResult> results = QueryEngine.run(q, T0, T0 + 3_599_000, data, TagOrder.BY_NAME);
    assertThat(results).hasSize(1);
    return results.get(0).points();
  }

  /** "seconds=value" per point, values as OpenTSDB would print them (i: integer, d: double). */
  static List<String> text(List<ResultPoint> points) {
    List<String> out = new ArrayList<>();
    for (ResultPoint p : points) {
      long s = (p.timestampMs() - T0) / 1000;
      switch (p.kind()) {
        case INTEGER -> out.add(s + "=i" + p.longValue());
        case DOUBLE -> out.add(s + "=d" + p.doubleValue());
        case NULL -> out.add(s + "=null");
      }
    }
    return out;
  }

  // A: 0s=10, 20s=30; B: 10s=100, 30s=200 (integers). At 10s A lerps to 20, at 20s B to 150.
  static final List<Series> MISALIGNED =
      List.of(series("a", lp(0, 10), lp(20, 30)), series("b", lp(10, 100), lp(30, 200)));

  @Test
  void eachAggregatorAcrossMisalignedIntegerSeries() {
    Map<String, List<String>> expected =
        Map.ofEntries(
            Map.entry("sum", List.of("0=i10", "10=i120", "20=i180", "30=i200")),
            Map.entry("zimsum", List.of("0=i10", "10=i100", "20=i30", "30=i200")),
            Map.entry("pfsum", List.of("0=i10", "10=i110", "20=i130", "30=i200")),
            Map.entry("min", List.of("0=i10", "10=i20", "20=i30", "30=i200")),
            Map.entry("mimmin", List.of("0=i10", "10=i100", "20=i30", "30=i200")),
            Map.entry("max", List.of("0=i10", "10=i100", "20=i150", "30=i200")),
            Map.entry("mimmax", List.of("0=i10", "10=i100", "20=i30", "30=i200")),
            Map.entry("avg", List.of("0=i10", "10=i60", "20=i90", "30=i200")),
            Map.entry("count", List.of("0=i1", "10=i2", "20=i2", "30=i1")),
            // first/last interpolate with zero: the missing series counts as 0.
            Map.entry("first", List.of("0=i10", "10=i0", "20=i30", "30=i200")),
            Map.entry("last", List.of("0=i10", "10=i100", "20=i0", "30=i200")),
            // Welford over {20,100}: sqrt(3200/2) = 40; over {30,150}: sqrt(7200/2) = 60.
            Map.entry("dev", List.of("0=i0", "10=i40", "20=i60", "30=i0")),
            Map.entry("diff", List.of("0=i0", "10=i80", "20=i120", "30=i0")),
            Map.entry("mult", List.of("0=i10", "10=i2000", "20=i4500", "30=i200")),
            // upper middle element, no averaging
            Map.entry("median", List.of("0=i10", "10=i100", "20=i150", "30=i200")),
            // legacy estimator: position 0.5*(2+1) = 1.5 between 20 and 100
            Map.entry("p50", List.of("0=i10", "10=i60", "20=i90", "30=i200")),
            Map.entry("squareSum", List.of("0=i100", "10=i10000", "20=i900", "30=i40000")));
    for (Map.Entry<String, List<String>> e : expected.entrySet()) {
      assertThat(text(run(query(e.getKey()), MISALIGNED))).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void integerLerpTruncatesAndAFloatAnywhereMakesTheGroupFloat() {
    // A: 0s=0, 3s=10; B: 1s=5. At 1s A lerps to 0 + 1*10/3 = 3 in long arithmetic.
    List<Series> ints = List.of(series("a", lp(0, 0), lp(3, 10)), series("b", lp(1, 5)));
    assertThat(text(run(query("sum"), ints))).containsExactly("0=i0", "1=i8", "3=i10");
    List<Series> oneFloat = List.of(series("a", lp(0, 0), dp(3, 10.0)), series("b", lp(1, 5)));
    // The float next point of A turns every point where it is current or next into a double.
    assertThat(text(run(query("sum"), oneFloat)))
        .containsExactly("0=d0.0", "1=d" + (5 + 10.0 / 3), "3=d10.0");
    // Even a float that is only B's NEXT point makes the first aggregate a double.
    List<Series> futureFloat = List.of(series("a", lp(0, 1), lp(10, 2)), series("b", dp(5, 1.5)));
    assertThat(text(run(query("sum"), futureFloat))).containsExactly("0=d1.0", "5=d3.0", "10=i2");
  }

  @Test
  void noneAggregatorGivesEverySeriesAlone() {
    List<QueryResult> results =
        QueryEngine.run(query("none"), T0, T0 + 3_599_000, MISALIGNED, TagOrder.BY_NAME);
    assertThat(results).hasSize(2);
    assertThat(results.get(0).tags()).isEqualTo(Map.of("host", "a"));
    assertThat(text(results.get(0).points())).containsExactly("0=i10", "20=i30");
    assertThat(text(results.get(1).points())).containsExactly("10=i100", "30=i200");
  }

  @Test
  void integerAndDoubleFunctionsOnTheirOwn() {
    Aggregator avg = Aggregator.byName("avg").orElseThrow();
    assertThat(avg.runLong(new long[] {1, 2}, 2)).isEqualTo(1);
    assertThat(avg.runDouble(new double[] {1, Double.NaN, 2}, 3)).isEqualTo(1.5);
    assertThat(Aggregator.SUM.runDouble(new double[] {Double.NaN, Double.NaN}, 2)).isNaN();
    assertThat(Aggregator.SUM.runLong(new long[] {Long.MAX_VALUE, 1}, 2)).isEqualTo(Long.MIN_VALUE);
    Aggregator dev = Aggregator.byName("dev").orElseThrow();
    // 2,4,4,4,5,5,7,9: OpenTSDB's dev is the population deviation, sqrt(32/8) = 2.
    double[] d = {2, 4, 4, 4, 5, 5, 7, 9};
    assertThat(dev.runDouble(d, 8)).isEqualTo(2.0);
    assertThat(dev.runDouble(new double[] {1, 2}, 2)).isEqualTo(0.5);
    assertThat(dev.runLong(new long[] {2, 4, 4, 4, 5, 5, 7, 9}, 8)).isEqualTo(2);
    assertThat(dev.runDouble(new double[] {Double.NaN, 3, Double.NaN}, 3)).isEqualTo(0.0);
    Aggregator count = Aggregator.byName("count").orElseThrow();
    assertThat(count.runDouble(new double[] {1, Double.NaN, 3}, 3)).isEqualTo(2.0);
    Aggregator diff = Aggregator.byName("diff").orElseThrow();
    assertThat(diff.runDouble(new double[] {Double.NaN, 3, 10}, 3)).isEqualTo(7.0);
    assertThat(diff.runDouble(new double[] {Double.NaN, 3, Double.NaN}, 3)).isNaN();
    Aggregator min = Aggregator.byName("min").orElseThrow();
    assertThat(min.runDouble(new double[] {Double.NaN, 3, 1}, 3)).isEqualTo(1.0);
    Aggregator mult = Aggregator.byName("mult").orElseThrow();
    assertThat(mult.runDouble(new double[] {2, Double.NaN}, 2)).isNaN();
    Aggregator median = Aggregator.byName("median").orElseThrow();
    assertThat(median.runDouble(new double[] {4, 1, 3, 2}, 4)).isEqualTo(3.0);
  }

  @Test
  void percentileEstimators() {
    long[] ints = {4, 1, 3, 2};
    double[] doubles = {4, 1, 3, 2};
    // legacy: position p(n+1); 0.5*5 = 2.5 -> 2.5; 0.99*5 >= n -> the largest
    assertThat(agg("p50").runDouble(doubles, 4)).isEqualTo(2.5);
    assertThat(agg("p50").runLong(ints, 4)).isEqualTo(2);
    assertThat(agg("p99").runDouble(doubles, 4)).isEqualTo(4.0);
    assertThat(agg("p75").runDouble(doubles, 4)).isEqualTo(3.75);
    // R-3 (integer path only): the rint(np)-th value; rint(2.0) = 2 -> 2; rint(3.0) -> 3
    assertThat(agg("ep50r3").runLong(ints, 4)).isEqualTo(2);
    assertThat(agg("ep75r3").runLong(ints, 4)).isEqualTo(3);
    // position 1 + (n-1)p; 0.9 -> 3.7 -> 3.7, truncated to 3 on the integer path
    assertThat(agg("ep90r7").runLong(new long[] {10, 20, 30, 40}, 4)).isEqualTo(37);
    assertThat(agg("ep90r7").runLong(ints, 4)).isEqualTo(3);
    // OpenTSDB's double path ignores the estimator: ep90r7 = p90 (legacy 0.9*5 = 4.5 -> 4)
    assertThat(agg("ep90r7").runDouble(doubles, 4)).isEqualTo(4.0);
    assertThat(agg("p999").runDouble(new double[] {7}, 1)).isEqualTo(7.0);
    assertThat(agg("p50").runDouble(new double[] {Double.NaN, Double.NaN}, 2)).isNaN();
  }

  static Aggregator agg(String name) {
    return Aggregator.byName(name).orElseThrow();
  }

  @Test
  void aggregatorNamesAndErrors() {
    assertThat(Aggregator.names())
        .hasSize(35)
        .contains(
            "sum", "zimsum", "pfsum", "mult", "none", "squareSum", "p999", "ep50r3", "ep999r7")
        .doesNotContain("multiply");
    assertThat(Aggregator.byName("Sum")).isEmpty();
    assertThatThrownBy(() -> SubQuery.aggregatorNamed("foo", "aggregator"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("No such aggregation function: foo")
        .hasFieldOrPropertyWithValue("field", "aggregator");
    assertThatThrownBy(() -> SubQuery.aggregatorNamed("", "aggregator"))
        .hasMessage("Missing the aggregation function");
  }

  @Test
  void groupWithoutPointsInRangeStillAnswersAndNoDataAnswersNothing() {
    // Data only after the query end but inside the scanned hour: the group exists, empty.
    List<Series> late = List.of(series("a", lp(3000, 1)));
    List<QueryResult> results =
        QueryEngine.run(query("sum"), T0, T0 + 1_000_000, late, TagOrder.BY_NAME);
    assertThat(results).hasSize(1);
    assertThat(results.get(0).points()).isEmpty();
    assertThat(QueryEngine.run(query("sum"), T0, T0 + 1_000_000, List.of(), TagOrder.BY_NAME))
        .isEmpty();
    // A point outside the scan window is ignored altogether.
    List<Series> tooLate = List.of(series("a", lp(7200, 1)));
    assertThat(QueryEngine.run(query("sum"), T0, T0 + 1_000_000, tooLate, TagOrder.BY_NAME))
        .isEmpty();
  }

  @Test
  void interpolationUsesPointsBeyondTheQueryEnd() {
    // Query ends at 15s; B's point at 30s (same hour, so read) shapes the value at 10s.
    List<QueryResult> results =
        QueryEngine.run(query("sum"), T0, T0 + 15_000, MISALIGNED, TagOrder.BY_NAME);
    assertThat(text(results.get(0).points())).containsExactly("0=i10", "10=i120");
  }
}
