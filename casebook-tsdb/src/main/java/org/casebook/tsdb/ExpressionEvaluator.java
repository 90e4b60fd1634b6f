package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Evaluates the expressions of an {@link ExpressionRequest} over its metrics' answers, as OpenTSDB
 * 2.4's {@code QueryExecutor} and {@code ExpressionIterator} do: the series of the variables are
 * joined by tags ({@link SeriesJoin}), and at every timestamp any of them has a point, each
 * variable's value is its point there, or its fill value where it has none (or a NaN one), or 0
 * where a union found no series of that variable for the tag set. An expression used by another is
 * evaluated first and joins as a variable of its own.
 */
final class ExpressionEvaluator {
  private final ExpressionRequest request;
  private final Map<String, ArithmeticExpression> parsed;
  private final Map<String, List<ExpressionSeries>> metricSeries = new HashMap<>();
  private final Map<String, Double> fills = new HashMap<>();
  private final Map<String, Integer> expressionIndex = new HashMap<>();
  private final Map<String, Evaluated> evaluated = new HashMap<>();

  /** An evaluated expression: its series (sharing one timestamp array) and their metric lists. */
  private record Evaluated(List<ExpressionSeries> series, List<String> printedMetrics) {}

  private ExpressionEvaluator(ExpressionRequest request, List<List<QueryResult>> results) {
    this.request = request;
    this.parsed = request.parsed();
    for (int i = 0; i < request.metrics().size(); i++) {
      ExpressionRequest.MetricVariable m = request.metrics().get(i);
      List<ExpressionSeries> series = new ArrayList<>();
      for (QueryResult r : results.get(i)) {
        series.add(ExpressionSeries.of(r, m.filterTagKeys()));
      }
      metricSeries.put(m.id(), series);
      fills.put(m.id(), m.fillValue());
    }
    for (int i = 0; i < request.expressions().size(); i++) {
      ExpressionRequest.ExpressionSpec e = request.expressions().get(i);
      expressionIndex.put(e.id(), i);
      fills.put(e.id(), e.fillValue());
    }
  }

  /** The answer to {@code request} given its metrics' answers (one list per metric, in order). */
  static ExpressionAnswer evaluate(ExpressionRequest request, List<List<QueryResult>> results) {
    if (results.size() != request.metrics().size()) {
      throw new IllegalArgumentException("one answer per metric expected");
    }
    ExpressionEvaluator ev = new ExpressionEvaluator(request, results);
    // OpenTSDB evaluates every expression, whether an output names it or not.
    request.expressions().forEach(e -> ev.expression(e.id()));
    List<ExpressionRequest.OutputSpec> outputs = request.outputs();
    if (outputs.isEmpty()) {
      List<String> ids =
          request.expressions().isEmpty()
              ? request.metrics().stream().map(ExpressionRequest.MetricVariable::id).toList()
              : request.expressions().stream().map(ExpressionRequest.ExpressionSpec::id).toList();
      outputs = ids.stream().map(id -> new ExpressionRequest.OutputSpec(id, null)).toList();
    }
    List<ExpressionAnswer.Output> out = new ArrayList<>();
    for (ExpressionRequest.OutputSpec o : outputs) {
      out.add(
          ev.evaluated.containsKey(o.id())
              ? ev.expressionOutput(o, ev.evaluated.get(o.id()))
              : ev.metricOutput(o));
    }
    return new ExpressionAnswer(out);
  }

  private Evaluated expression(String id) {
    Evaluated done = evaluated.get(id);
    if (done != null) {
      return done;
    }
    int index = expressionIndex.get(id);
    ExpressionRequest.ExpressionSpec spec = request.expressions().get(index);
    ArithmeticExpression expr = parsed.get(id);
    List<String> variables = expr.variables();
    List<List<ExpressionSeries>> inputs = new ArrayList<>();
    for (String v : variables) {
      inputs.add(expressionIndex.containsKey(v) ? expression(v).series() : metricSeries.get(v));
    }
    SeriesJoin.Joined joined =
        SeriesJoin.join(
            inputs,
            spec.join(),
            spec.useQueryTags(),
            spec.includeAggTags(),
            "expressions[" + index + "].join");
    List<Integer> walkOrder = new ArrayList<>();
    for (String name : SeriesJoin.openTsdbOrder(variables)) {
      walkOrder.add(variables.indexOf(name));
    }
    long[] ts = joined.timestamps();
    List<ExpressionSeries> series = new ArrayList<>();
    for (int[] slots : joined.rows()) {
      series.add(evaluateRow(expr, inputs, slots, ts, walkOrder));
    }
    List<String> printed = series.isEmpty() ? List.of() : List.copyOf(series.get(0).metrics);
    Evaluated e = new Evaluated(series, printed);
    evaluated.put(id, e);
    return e;
  }

  /** One output series: the expression at every timestamp, and what describes it. */
  private ExpressionSeries evaluateRow(
      ArithmeticExpression expr,
      List<List<ExpressionSeries>> inputs,
      int[] slots,
      long[] ts,
      List<Integer> walkOrder) {
    int n = slots.length;
    ExpressionSeries[] joined = new ExpressionSeries[n];
    double[] fill = new double[n];
    for (int v = 0; v < n; v++) {
      joined[v] = slots[v] < 0 ? null : inputs.get(v).get(slots[v]);
      fill[v] = fills.get(expr.variables().get(v));
    }
    int[] cursor = new int[n];
    double[] bound = new double[n];
    double[] values = new double[ts.length];
    for (int r = 0; r < ts.length; r++) {
      for (int v = 0; v < n; v++) {
        ExpressionSeries s = joined[v];
        if (s == null) {
          // OpenTSDB's union stands a zero in for a variable without the tag set.
          bound[v] = 0;
          continue;
        }
        while (cursor[v] < s.timestamps.length && s.timestamps[cursor[v]] < ts[r]) {
          cursor[v]++;
        }
        double value =
            cursor[v] < s.timestamps.length && s.timestamps[cursor[v]] == ts[r]
                ? s.values[cursor[v]]
                : Double.NaN;
        bound[v] = Double.isNaN(value) ? fill[v] : value;
      }
      values[r] = expr.evaluate(bound);
    }
    // The tags shown are those of the first variable (in OpenTSDB's order) that has the series;
    // the metrics and aggregated tag keys are gathered from every variable that has it.
    Map<String, String> tags = Map.of();
    Set<String> metrics = new TreeSet<>();
    Set<String> aggregated = new LinkedHashSet<>();
    boolean first = true;
    for (int v : walkOrder) {
      ExpressionSeries s = joined[v];
      if (s == null) {
        continue;
      }
      if (first) {
        tags = s.tags;
        first = false;
      }
      metrics.addAll(s.metrics);
      aggregated.addAll(s.aggregatedTags);
    }
    return new ExpressionSeries(tags, new ArrayList<>(aggregated), metrics, Set.of(), ts, values);
  }

  private ExpressionAnswer.Output expressionOutput(ExpressionRequest.OutputSpec o, Evaluated e) {
    long[] ts = e.series().isEmpty() ? new long[0] : inRange(e.series().get(0).timestamps);
    int offset = e.series().isEmpty() ? 0 : firstInRange(e.series().get(0).timestamps);
    double[][] rows = new double[ts.length][e.series().size()];
    List<ExpressionAnswer.SeriesMeta> meta = new ArrayList<>();
    for (int s = 0; s < e.series().size(); s++) {
      ExpressionSeries series = e.series().get(s);
      for (int r = 0; r < ts.length; r++) {
        rows[r][s] = series.values[offset + r];
      }
      meta.add(
          new ExpressionAnswer.SeriesMeta(e.printedMetrics(), series.tags, series.aggregatedTags));
    }
    return new ExpressionAnswer.Output(o.id(), o.alias(), ts, rows, meta);
  }

  /**
   * A metric as an output: its groups side by side at every timestamp any of them has, the metric's
   * fill value where one has no point.
   */
  private ExpressionAnswer.Output metricOutput(ExpressionRequest.OutputSpec o) {
    List<ExpressionSeries> series = metricSeries.get(o.id());
    List<long[]> all = new ArrayList<>();
    series.forEach(s -> all.add(s.timestamps));
    long[] ts = inRange(SeriesJoin.mergeTimestamps(all));
    double fill = fills.get(o.id());
    double[][] rows = new double[ts.length][series.size()];
    List<ExpressionAnswer.SeriesMeta> meta = new ArrayList<>();
    List<String> printed = series.isEmpty() ? List.of() : List.copyOf(series.get(0).metrics);
    for (int s = 0; s < series.size(); s++) {
      ExpressionSeries one = series.get(s);
      int cursor = 0;
      for (int r = 0; r < ts.length; r++) {
        while (cursor < one.timestamps.length && one.timestamps[cursor] < ts[r]) {
          cursor++;
        }
        rows[r][s] =
            cursor < one.timestamps.length && one.timestamps[cursor] == ts[r]
                ? one.values[cursor]
                : fill;
      }
      meta.add(new ExpressionAnswer.SeriesMeta(printed, one.tags, one.aggregatedTags));
    }
    return new ExpressionAnswer.Output(o.id(), o.alias(), ts, rows, meta);
  }

  private int firstInRange(long[] ts) {
    int i = 0;
    while (i < ts.length && ts[i] < request.query().startMs()) {
      i++;
    }
    return i;
  }

  /** The timestamps within the query's range (OpenTSDB writes no row outside it). */
  private long[] inRange(long[] ts) {
    int from = firstInRange(ts);
    int to = from;
    while (to < ts.length && ts[to] <= request.query().endMs()) {
      to++;
    }
    return java.util.Arrays.copyOfRange(ts, from, to);
  }
}
