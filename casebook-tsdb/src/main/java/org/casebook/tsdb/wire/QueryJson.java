package org.casebook.tsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.tsdb.AnnotatedAnswer;
import org.casebook.tsdb.Annotation;
import org.casebook.tsdb.OpenTsdbQuery;
import org.casebook.tsdb.QueryResult;

/**
 * {@code /api/query} as JSON: a request (OpenTSDB's JSON body, or the query string) read into an
 * {@link OpenTsdbQuery}, and its answer written as OpenTSDB 2.4.1 writes it.
 *
 * @param query the query
 * @param echoes per sub-query, what {@code showQuery} echoes: the sub-query object as sent, or the
 *     {@code m=} text
 * @param delete whether the points the query selects are to be deleted ({@code delete=true})
 * @param seriesNotes whether each group carries its series' annotations (unless {@code
 *     noAnnotations})
 * @param globalNotes whether each group carries the global annotations ({@code globalAnnotations})
 */
public record QueryJson(
    OpenTsdbQuery query,
    List<JsonNode> echoes,
    boolean delete,
    boolean seriesNotes,
    boolean globalNotes) {
  /** Fields of a JSON query OpenTSDB knows; unknown ones are refused, naming the field. */
  private static final Set<String> QUERY_FIELDS =
      Set.of(
          "start",
          "end",
          "queries",
          "timezone",
          "msResolution",
          "showTSUIDs",
          "showQuery",
          "showSummary",
          "showStats",
          "noAnnotations",
          "globalAnnotations",
          "useCalendar",
          "delete",
          "padding",
          "options");

  /**
   * Fields OpenTSDB 2.4.1 reads that change its answer in ways Casebook does not reproduce: refused
   * when set (a value other than false, null or empty), naming the field.
   */
  private static final Map<String, String> REFUSED_QUERY_FIELDS =
      Map.of(
          "showTSUIDs", "showTSUIDs is not supported",
          "useCalendar", "calendar downsampling (useCalendar) is not supported",
          "showSummary", "showSummary (query statistics) is not supported",
          "showStats", "showStats (query statistics) is not supported",
          "padding", "padding is not supported",
          "options", "serializer options are not supported");

  private static final Map<String, String> REFUSED_SUB_QUERY_FIELDS =
      Map.of(
          "percentiles", "histogram queries (percentiles) are not supported",
          "showHistogramBuckets", "histogram queries (showHistogramBuckets) are not supported",
          "preAggregate", "pre-aggregated rollups (preAggregate) are not supported",
          "useMultiGets",
              "useMultiGets is not supported: the read plan is Casebook's own (scans with row"
                  + " filters)");

  private static final Set<String> SUB_QUERY_FIELDS =
      Set.of(
          "aggregator",
          "metric",
          "tsuids",
          "downsample",
          "rate",
          "rateOptions",
          "tags",
          "filters",
          "explicitTags",
          "index",
          "percentiles",
          "showHistogramBuckets",
          "useMultiGets",
          "rollupUsage",
          "preAggregate");

  private static final Set<String> FILTER_FIELDS = Set.of("type", "tagk", "filter", "groupBy");

  public QueryJson {
    Objects.requireNonNull(query, "query is null");
    echoes = List.copyOf(echoes);
  }

  /** The query string of {@code GET /api/query} (each parameter's values in order). */
  public static QueryJson fromParams(Map<String, List<String>> params, long nowMs) {
    Map<String, List<String>> rest = new java.util.LinkedHashMap<>(params);
    // Flags by presence, as OpenTSDB's hasQueryStringParam reads them.
    boolean noAnnotations = rest.remove("no_annotations") != null;
    boolean globalAnnotations = rest.remove("global_annotations") != null;
    List<String> deleteValues = rest.remove("delete");
    String deleteValue =
        deleteValues == null || deleteValues.isEmpty()
            ? null
            : deleteValues.get(deleteValues.size() - 1);
    boolean delete =
        deleteValue != null && (deleteValue.isEmpty() || deleteValue.equalsIgnoreCase("true"));
    OpenTsdbQuery q = OpenTsdbQuery.fromParams(rest, nowMs);
    List<JsonNode> echoes = new ArrayList<>();
    for (String m : params.getOrDefault("m", List.of())) {
      echoes.add(Json.mapper().getNodeFactory().textNode(m));
    }
    return new QueryJson(q, echoes, delete, !noAnnotations, globalAnnotations && !noAnnotations);
  }

  /**
   * OpenTSDB's JSON query body, its fields checked in the order OpenTSDB reads them; {@code
   * arrays}: whether the query string asked for points as arrays.
   */
  static QueryJson fromJson(JsonNode body, long nowMs, boolean arrays) {
    if (!body.isObject()) {
      throw new InvalidInputException("body", "a query object expected");
    }
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!QUERY_FIELDS.contains(f)) {
        throw new InvalidInputException(f, "Unrecognized field \"" + f + "\"");
      }
    }
    for (Map.Entry<String, String> refused : REFUSED_QUERY_FIELDS.entrySet()) {
      refuseSet(body, refused.getKey(), refused.getKey(), refused.getValue());
    }
    OpenTsdbQuery.Builder b = new OpenTsdbQuery.Builder(nowMs);
    b.timezone(text(body, "timezone"));
    b.start(text(body, "start"));
    b.end(text(body, "end"));
    JsonNode qs = body.get("queries");
    if (qs == null || !qs.isArray() || qs.isEmpty()) {
      throw new InvalidInputException("queries", "Missing queries");
    }
    List<JsonNode> echoes = new ArrayList<>();
    for (int i = 0; i < qs.size(); i++) {
      b.add(subQuery(qs.get(i), "queries[" + i + "]"));
      echoes.add(qs.get(i));
    }
    boolean noAnnotations = bool(body, "noAnnotations");
    return new QueryJson(
        b.build(bool(body, "msResolution"), bool(body, "showQuery"), arrays),
        echoes,
        bool(body, "delete"),
        !noAnnotations,
        bool(body, "globalAnnotations") && !noAnnotations);
  }

  private static OpenTsdbQuery.SubQueryBuilder subQuery(JsonNode q, String path) {
    if (!q.isObject()) {
      throw new InvalidInputException(path, "a sub-query must be an object");
    }
    for (Iterator<String> it = q.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!SUB_QUERY_FIELDS.contains(f)) {
        throw new InvalidInputException(path + "." + f, "Unrecognized field \"" + f + "\"");
      }
    }
    for (Map.Entry<String, String> refused : REFUSED_SUB_QUERY_FIELDS.entrySet()) {
      refuseSet(q, refused.getKey(), path + "." + refused.getKey(), refused.getValue());
    }
    JsonNode index = q.get("index");
    if (index != null && !index.isNull() && !index.isIntegralNumber()) {
      // OpenTSDB numbers sub-queries by position whatever index says; it must still be a number.
      throw new InvalidInputException(path + ".index", "index must be an integer");
    }
    JsonNode tsuids = q.get("tsuids");
    if (tsuids != null && !tsuids.isNull() && !tsuids.isEmpty()) {
      throw new InvalidInputException(path + ".tsuids", "queries by tsuid are not supported");
    }
    OpenTsdbQuery.SubQueryBuilder sub = new OpenTsdbQuery.SubQueryBuilder(path);
    sub.aggregator(text(q, "aggregator"));
    sub.metric(text(q, "metric"));
    sub.downsample(text(q, "downsample"));
    sub.rollupUsage(text(q, "rollupUsage"));
    JsonNode ro = q.get("rateOptions");
    if (ro != null && !ro.isNull()) {
      rateOptions(sub, ro, path + ".rateOptions");
    }
    // Field order decides between tags and filters, as OpenTSDB's setters do.
    for (Iterator<Map.Entry<String, JsonNode>> it = q.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equals("tags") && !e.getValue().isNull()) {
        sub.tags(stringMap(e.getValue(), path + ".tags"));
      } else if (e.getKey().equals("filters") && !e.getValue().isNull()) {
        filters(sub, e.getValue(), path + ".filters");
      }
    }
    return sub.rate(bool(q, "rate")).explicitTags(bool(q, "explicitTags"));
  }

  private static void filters(OpenTsdbQuery.SubQueryBuilder sub, JsonNode node, String path) {
    if (!node.isArray()) {
      throw new InvalidInputException(path, "filters must be an array");
    }
    sub.filters();
    for (JsonNode f : node) {
      if (!f.isObject()) {
        throw new InvalidInputException(path, "a filter must be an object");
      }
      for (Iterator<String> it = f.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!FILTER_FIELDS.contains(name)) {
          throw new InvalidInputException(path + "." + name, "Unrecognized field \"" + name + "\"");
        }
      }
      sub.filter(text(f, "type"), text(f, "tagk"), text(f, "filter"), bool(f, "groupBy"));
    }
  }

  private static void rateOptions(OpenTsdbQuery.SubQueryBuilder sub, JsonNode ro, String path) {
    if (!ro.isObject()) {
      throw new InvalidInputException(path, "rateOptions must be an object");
    }
    boolean counter = false;
    long counterMax = Long.MAX_VALUE;
    long resetValue = 0;
    boolean dropResets = false;
    for (Iterator<Map.Entry<String, JsonNode>> it = ro.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "counter" -> counter = v.asBoolean();
        case "counterMax" -> counterMax = number(v, path + ".counterMax");
        case "resetValue" -> resetValue = number(v, path + ".resetValue");
        case "dropResets" -> dropResets = v.asBoolean();
        default ->
            throw new InvalidInputException(
                path + "." + e.getKey(), "Unrecognized field \"" + e.getKey() + "\"");
      }
    }
    sub.rateOptions(counter, counterMax, resetValue, dropResets);
  }

  private static long number(JsonNode v, String path) {
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return v.asLong();
    }
    if (v.isTextual()) {
      try {
        return Long.parseLong(v.asText());
      } catch (NumberFormatException e) {
        throw new InvalidInputException(path, "not an integer: " + v.asText());
      }
    }
    throw new InvalidInputException(path, "not an integer: " + v);
  }

  private static Map<String, String> stringMap(JsonNode node, String path) {
    if (!node.isObject()) {
      throw new InvalidInputException(path, "tags must be an object");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isValueNode() || e.getValue().isNull()) {
        throw new InvalidInputException(path + "." + e.getKey(), "a tag filter must be a string");
      }
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  /** Refuses {@code name} when it is set: not absent, null, false, "false", 0 or empty. */
  private static void refuseSet(JsonNode n, String name, String field, String message) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull() || v.isMissingNode()) {
      return;
    }
    boolean unset =
        (v.isBoolean() && !v.asBoolean())
            || (v.isTextual() && (v.asText().isEmpty() || v.asText().equalsIgnoreCase("false")))
            || (v.isNumber() && v.asDouble() == 0)
            || (v.isContainerNode() && v.isEmpty());
    if (!unset) {
      throw new InvalidInputException(field, message);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isValueNode()) {
      throw new InvalidInputException(field, field + " must be a string or a number");
    }
    return v.asText();
  }

  private static boolean bool(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v != null && (v.isBoolean() ? v.asBoolean() : "true".equalsIgnoreCase(v.asText()));
  }

  // ---- the answer ----

  /** The answer, one element per group of each sub-query in order, without annotations. */
  public byte[] render(List<List<QueryResult>> perQuery) {
    return render(
        new AnnotatedAnswer(
            perQuery,
            perQuery.stream()
                .map(q -> q.stream().map(r -> List.<Annotation>of()).toList())
                .toList(),
            List.of()));
  }

  /**
   * The answer, one element per group of each sub-query in order, as OpenTSDB writes it: with a
   * group's {@code annotations} and the {@code globalAnnotations} when there are any.
   */
  public byte[] render(AnnotatedAnswer answer) {
    return new QueryAnswerJson(query.msResolution(), query.arrays(), echoes)
        .render(answer, query.showQuery());
  }

  /** One line of an answer printed as a table: a series, a time in seconds, a value. */
  public record TableLine(String series, long epochSecond, String value) {}

  /**
   * An answer ({@link #render}) as table lines: each group's {@code metric{"tag":"value",…}} with
   * each of its points, the value as its JSON text.
   */
  public static List<TableLine> tableLines(byte[] answer) {
    JsonNode groups;
    try {
      groups = Json.mapper().readTree(answer);
    } catch (IOException e) {
      throw new IllegalStateException("the answer is not JSON", e);
    }
    List<TableLine> out = new ArrayList<>();
    for (JsonNode g : groups) {
      String series = g.get("metric").asText() + g.get("tags").toString();
      for (Iterator<Map.Entry<String, JsonNode>> it = g.get("dps").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> p = it.next();
        out.add(new TableLine(series, Long.parseLong(p.getKey()), p.getValue().asText()));
      }
    }
    return out;
  }
}
