package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * An {@code /api/query/exp} request, read and checked: the metrics as one query (one sub-query per
 * metric, in order, answered by {@link TsdbService#query} with its guardrails), the expressions
 * over them and the outputs. The wire layer reads OpenTSDB's JSON into it; the checks that need the
 * expressions parsed (unknown variables, cycles, outputs naming nothing) are made here, each naming
 * its field ({@code expressions[1].expr}).
 *
 * @param query the metrics' sub-queries, in the order of {@code metrics}
 * @param metrics the metrics' ids and what the join needs of them
 * @param expressions the expressions, in request order
 * @param outputs what to answer, in order; empty: every expression, or every metric without any
 */
public record ExpressionRequest(
    OpenTsdbQuery query,
    List<MetricVariable> metrics,
    List<ExpressionSpec> expressions,
    List<OutputSpec> outputs) {

  /** How the series of an expression's variables are matched: by their tags. */
  public enum JoinOperator {
    /** Every tag set of any variable; a variable without it counts as 0. */
    UNION,
    /** Only the tag sets every variable has. */
    INTERSECTION
  }

  /**
   * A metric of the request.
   *
   * @param id its id, the variable name expressions use
   * @param filterTagKeys the tag keys its filters name (what {@code useQueryTags} joins on)
   * @param fillValue the value at a timestamp where one of its series has no point, or a NaN point
   */
  public record MetricVariable(String id, Set<String> filterTagKeys, double fillValue) {
    public MetricVariable {
      Objects.requireNonNull(id, "id is null");
      filterTagKeys = Set.copyOf(filterTagKeys);
    }
  }

  /**
   * An expression of the request.
   *
   * @param id its id
   * @param expr the arithmetic over metric and expression ids
   * @param join how its variables' series are matched
   * @param useQueryTags whether series are matched on the tags their filters name only
   * @param includeAggTags whether the aggregated tag keys must match too
   * @param fillValue the value of this expression where another expression uses it and it has no
   *     point (or a NaN one)
   */
  public record ExpressionSpec(
      String id,
      String expr,
      JoinOperator join,
      boolean useQueryTags,
      boolean includeAggTags,
      double fillValue) {
    public ExpressionSpec {
      Objects.requireNonNull(id, "id is null");
      Objects.requireNonNull(expr, "expr is null");
      Objects.requireNonNull(join, "join is null");
    }
  }

  /** An output: a metric or expression id, and an alias echoed with it (null: none). */
  public record OutputSpec(String id, String alias) {
    public OutputSpec {
      Objects.requireNonNull(id, "id is null");
    }
  }

  public ExpressionRequest {
    Objects.requireNonNull(query, "query is null");
    metrics = List.copyOf(metrics);
    expressions = List.copyOf(expressions);
    outputs = List.copyOf(outputs);
    if (metrics.size() != query.queries().size()) {
      throw new IllegalArgumentException("one sub-query per metric expected");
    }
    check(metrics, expressions, outputs);
  }

  /** The answer: the metrics queried once, the expressions evaluated over their results. */
  ExpressionAnswer answer(TsdbService service) {
    List<List<QueryResult>> results;
    try {
      results = service.query(query);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(metricField(e), e.getMessage());
    }
    return ExpressionEvaluator.evaluate(this, results);
  }

  /** The field of a sub-query's error here: the metric whose name the message quotes. */
  private String metricField(InvalidInputException e) {
    for (int i = 0; i < metrics.size(); i++) {
      String metric = query.queries().get(i).metric();
      if (e.getMessage().contains("'" + metric + "'")) {
        return "metrics[" + i + "]." + (e.field().equals("filters") ? "filter" : "metric");
      }
    }
    return e.field().equals("filters") ? "filters" : "metrics";
  }

  /** The parsed expressions, by id. */
  Map<String, ArithmeticExpression> parsed() {
    Map<String, ArithmeticExpression> out = new HashMap<>();
    for (int i = 0; i < expressions.size(); i++) {
      ExpressionSpec e = expressions.get(i);
      out.put(e.id(), ArithmeticExpression.parse(e.expr(), "expressions[" + i + "].expr"));
    }
    return out;
  }

  private static void check(
      List<MetricVariable> metrics, List<ExpressionSpec> expressions, List<OutputSpec> outputs) {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < metrics.size(); i++) {
      if (!ids.add(metrics.get(i).id())) {
        throw new InvalidInputException(
            "metrics[" + i + "].id", "duplicated metric id: " + metrics.get(i).id());
      }
    }
    Map<String, Integer> expressionIndex = new HashMap<>();
    for (int i = 0; i < expressions.size(); i++) {
      String id = expressions.get(i).id();
      if (!ids.add(id)) {
        throw new InvalidInputException(
            "expressions[" + i + "].id", "Duplicated variable or expression id: " + id);
      }
      expressionIndex.put(id, i);
    }
    List<ArithmeticExpression> parsed = new ArrayList<>();
    for (int i = 0; i < expressions.size(); i++) {
      ExpressionSpec e = expressions.get(i);
      ArithmeticExpression a = ArithmeticExpression.parse(e.expr(), "expressions[" + i + "].expr");
      for (String v : a.variables()) {
        if (!ids.contains(v)) {
          throw new InvalidInputException(
              "expressions[" + i + "].expr",
              "Expression [" + e.expr() + "] was missing input " + v);
        }
        if (v.equals(e.id())) {
          throw new InvalidInputException(
              "expressions[" + i + "].expr", "Self referencing expression found: " + v);
        }
      }
      parsed.add(a);
    }
    // A depth-first walk over expression references finds a cycle through any expression.
    int[] state = new int[expressions.size()];
    for (int i = 0; i < expressions.size(); i++) {
      visit(i, state, parsed, expressionIndex, expressions);
    }
    for (int i = 0; i < outputs.size(); i++) {
      if (!ids.contains(outputs.get(i).id())) {
        throw new InvalidInputException(
            "outputs[" + i + "].id", "No metric or expression has the id " + outputs.get(i).id());
      }
    }
  }

  private static void visit(
      int i,
      int[] state,
      List<ArithmeticExpression> parsed,
      Map<String, Integer> index,
      List<ExpressionSpec> expressions) {
    if (state[i] == 2) {
      return;
    }
    if (state[i] == 1) {
      throw new InvalidInputException(
          "expressions[" + i + "].expr", "Circular reference found: " + expressions.get(i).id());
    }
    state[i] = 1;
    for (String v : parsed.get(i).variables()) {
      Integer j = index.get(v);
      if (j != null) {
        visit(j, state, parsed, index, expressions);
      }
    }
    state[i] = 2;
  }
}
