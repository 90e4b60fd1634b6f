package org.casebook.tsdb;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;

/**
 * A whole {@code /api/query} request, as OpenTSDB 2.4's {@code TSQuery}: from a JSON body or from
 * the query string ({@code start}, {@code end}, {@code m=} repeated, {@code ms}, …), and its answer
 * written in OpenTSDB's shape.
 *
 * @param index each sub-query's position in the request (echoed by {@code showQuery})
 */
record OpenTsdbQuery(
    long startMs,
    long endMs,
    List<SubQuery> queries,
    List<JsonNode> echoes,
    boolean msResolution,
    boolean showQuery,
    boolean arrays) {

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
          "preAggregate",
          "filterTagKs");

  static OpenTsdbQuery fromJson(JsonNode body, long nowMs) {
    if (!body.isObject()) {
      throw new InvalidInputException("body", "a query object expected");
    }
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!QUERY_FIELDS.contains(f)) {
        throw new InvalidInputException(f, "Unrecognized field \"" + f + "\"");
      }
    }
    refuseTrue(body, "showTSUIDs");
    refuseTrue(body, "delete");
    refuseTrue(body, "useCalendar");
    ZoneId zone = QueryTimes.zone(text(body, "timezone"));
    long start = QueryTimes.parse(text(body, "start"), "start", nowMs, zone);
    String endText = text(body, "end");
    long end = endText == null ? nowMs : QueryTimes.parse(endText, "end", nowMs, zone);
    JsonNode qs = body.get("queries");
    if (qs == null || !qs.isArray() || qs.isEmpty()) {
      throw new InvalidInputException("queries", "Missing queries");
    }
    List<SubQuery> subs = new ArrayList<>();
    List<JsonNode> echoes = new ArrayList<>();
    for (int i = 0; i < qs.size(); i++) {
      subs.add(subQuery(qs.get(i), "queries[" + i + "]"));
      echoes.add(qs.get(i));
    }
    return checked(
        new OpenTsdbQuery(
            start, end, subs, echoes, bool(body, "msResolution"), bool(body, "showQuery"), false));
  }

  static OpenTsdbQuery fromParams(Map<String, List<String>> params, long nowMs) {
    for (String f : List.of("show_tsuids", "delete", "use_calendar")) {
      if (flag(params, f)) {
        throw new InvalidInputException(f, f + " is not supported");
      }
    }
    if (params.containsKey("tsuid")) {
      throw new InvalidInputException("tsuid", "queries by tsuid are not supported; use m=");
    }
    ZoneId zone = QueryTimes.zone(last(params, "tz"));
    long start = QueryTimes.parse(last(params, "start"), "start", nowMs, zone);
    String endText = last(params, "end");
    long end = endText == null ? nowMs : QueryTimes.parse(endText, "end", nowMs, zone);
    List<String> ms = params.getOrDefault("m", List.of());
    if (ms.isEmpty()) {
      throw new InvalidInputException("m", "Missing sub queries");
    }
    List<SubQuery> subs = new ArrayList<>();
    List<JsonNode> echoes = new ArrayList<>();
    for (String m : ms) {
      subs.add(SubQuery.parseM(m));
      echoes.add(Json.mapper().getNodeFactory().textNode(m));
    }
    return checked(
        new OpenTsdbQuery(
            start,
            end,
            subs,
            echoes,
            flag(params, "ms") || flag(params, "msResolution"),
            flag(params, "show_query"),
            flag(params, "arrays")));
  }

  private static OpenTsdbQuery checked(OpenTsdbQuery q) {
    if (q.startMs >= q.endMs) {
      throw new InvalidInputException("end", "End time must be greater than the start time");
    }
    return q;
  }

  private static SubQuery subQuery(JsonNode q, String path) {
    if (!q.isObject()) {
      throw new InvalidInputException(path, "a sub-query must be an object");
    }
    for (Iterator<String> it = q.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!SUB_QUERY_FIELDS.contains(f)) {
        throw new InvalidInputException(path + "." + f, "Unrecognized field \"" + f + "\"");
      }
    }
    JsonNode tsuids = q.get("tsuids");
    if (tsuids != null && !tsuids.isNull() && !tsuids.isEmpty()) {
      throw new InvalidInputException(path + ".tsuids", "queries by tsuid are not supported");
    }
    Aggregator aggregator = SubQuery.aggregatorNamed(text(q, "aggregator"), path + ".aggregator");
    String metric = text(q, "metric");
    if (metric == null || metric.isEmpty()) {
      throw new InvalidInputException(
          path + ".metric", "Missing the metric or tsuids, provide at least one");
    }
    String ds = text(q, "downsample");
    Optional<DownsampleSpec> downsample =
        ds == null || ds.isEmpty()
            ? Optional.empty()
            : Optional.of(DownsampleSpec.parse(ds, path + ".downsample"));
    RateOptions rateOptions = RateOptions.DEFAULT;
    JsonNode ro = q.get("rateOptions");
    if (ro != null && !ro.isNull()) {
      rateOptions = rateOptions(ro, path + ".rateOptions");
    }
    // Field order decides between tags and filters, as OpenTSDB's setters do.
    List<TagFilter> filters = List.of();
    for (Iterator<Map.Entry<String, JsonNode>> it = q.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equals("tags") && !e.getValue().isNull()) {
        filters = TagFilter.fromTags(stringMap(e.getValue(), path + ".tags"));
      } else if (e.getKey().equals("filters") && !e.getValue().isNull()) {
        filters = filters(e.getValue(), path + ".filters");
      }
    }
    return new SubQuery(
        aggregator,
        metric,
        bool(q, "rate"),
        rateOptions,
        downsample,
        filters,
        bool(q, "explicitTags"));
  }

  private static List<TagFilter> filters(JsonNode node, String path) {
    if (!node.isArray()) {
      throw new InvalidInputException(path, "filters must be an array");
    }
    List<TagFilter> out = new ArrayList<>();
    for (JsonNode f : node) {
      if (!f.isObject()) {
        throw new InvalidInputException(path, "a filter must be an object");
      }
      for (Iterator<String> it = f.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!Set.of("type", "tagk", "filter", "groupBy").contains(name)) {
          throw new InvalidInputException(path + "." + name, "Unrecognized field \"" + name + "\"");
        }
      }
      out.add(
          TagFilter.fromJson(
              text(f, "type"), text(f, "tagk"), text(f, "filter"), bool(f, "groupBy")));
    }
    return out;
  }

  private static RateOptions rateOptions(JsonNode ro, String path) {
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
    return new RateOptions(counter, counterMax, resetValue, dropResets);
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

  private static void refuseTrue(JsonNode body, String field) {
    if (bool(body, field)) {
      throw new InvalidInputException(field, field + " is not supported");
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

  private static String last(Map<String, List<String>> params, String name) {
    List<String> v = params.get(name);
    return v == null || v.isEmpty() ? null : v.get(v.size() - 1);
  }

  /** A flag parameter: present without a value, or {@code true}. */
  private static boolean flag(Map<String, List<String>> params, String name) {
    String v = last(params, name);
    return v != null && (v.isEmpty() || v.equalsIgnoreCase("true"));
  }

  /** The answer, written as OpenTSDB writes it. */
  byte[] render(List<List<QueryResult>> perQuery) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.writeStartArray();
      for (int i = 0; i < perQuery.size(); i++) {
        for (QueryResult r : perQuery.get(i)) {
          g.writeStartObject();
          g.writeStringField("metric", r.metric());
          g.writeObjectFieldStart("tags");
          for (Map.Entry<String, String> t : r.tags().entrySet()) {
            g.writeStringField(t.getKey(), t.getValue());
          }
          g.writeEndObject();
          g.writeArrayFieldStart("aggregateTags");
          for (String t : r.aggregateTags()) {
            g.writeString(t);
          }
          g.writeEndArray();
          if (showQuery) {
            g.writeFieldName("query");
            writeEcho(g, i);
          }
          g.writeFieldName("dps");
          if (arrays) {
            g.writeStartArray();
            for (ResultPoint p : r.points()) {
              g.writeStartArray();
              g.writeNumber(msResolution ? p.timestampMs() : p.timestampMs() / 1000);
              writeValue(g, p);
              g.writeEndArray();
            }
            g.writeEndArray();
          } else {
            g.writeStartObject();
            for (ResultPoint p : r.points()) {
              g.writeFieldName(
                  Long.toString(msResolution ? p.timestampMs() : p.timestampMs() / 1000));
              writeValue(g, p);
            }
            g.writeEndObject();
          }
          g.writeEndObject();
        }
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory", e);
    }
    return out.toByteArray();
  }

  private void writeEcho(JsonGenerator g, int i) throws IOException {
    JsonNode echo = echoes.get(i);
    if (echo.isObject()) {
      com.fasterxml.jackson.databind.node.ObjectNode copy =
          ((com.fasterxml.jackson.databind.node.ObjectNode) echo).deepCopy();
      copy.put("index", i);
      g.writeTree(copy);
    } else {
      g.writeStartObject();
      g.writeStringField("m", echo.asText());
      g.writeNumberField("index", i);
      g.writeEndObject();
    }
  }

  private static void writeValue(JsonGenerator g, ResultPoint p) throws IOException {
    switch (p.kind()) {
      case INTEGER -> g.writeNumber(p.longValue());
      case NULL -> g.writeNull();
      case DOUBLE -> {
        double d = p.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          g.writeString(Double.toString(d));
        } else {
          g.writeNumber(d);
        }
      }
    }
  }
}
