package org.casebook.tsdb.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.casebook.tsdb.ResultPoint;

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
  /** About what a point of {@code dps} takes as text: a ten-digit name and a double. */
  private static final int BYTES_PER_POINT = 32;

  /** Points an answer has per processor before its groups are written side by side. */
  private static final long PARALLEL_POINTS = 16_384;

  private static final SerializedString GROUP_SEPARATOR = new SerializedString(",");

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
    List<Group> groups = new ArrayList<>();
    long points = 0;
    for (int i = 0; i < answer.results().size(); i++) {
      List<QueryResult> results = answer.results().get(i);
      for (int j = 0; j < results.size(); j++) {
        groups.add(new Group(i, results.get(j), answer.notes().get(i).get(j)));
        points += results.get(j).points().size();
      }
    }
    List<List<Group>> slices = slices(groups, points);
    // One group has no names to share.
    boolean shareNames = groups.size() > 1;
    List<byte[]> parts =
        slices.size() == 1
            ? List.of(renderGroups(slices.get(0), answer.globals(), shareNames))
            : slices.parallelStream()
                .map(slice -> renderGroups(slice, answer.globals(), shareNames))
                .toList();
    int size = parts.size() + 1;
    for (byte[] part : parts) {
      size += part.length;
    }
    byte[] out = new byte[size];
    out[0] = '[';
    int at = 1;
    for (byte[] part : parts) {
      if (at > 1 && part.length > 0) {
        out[at++] = ',';
      }
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    out[at++] = ']';
    return at == size ? out : Arrays.copyOf(out, at);
  }

  /** A group of the answer: its sub-query's position, its result and its series' notes. */
  private record Group(int query, QueryResult result, List<Annotation> notes) {}

  /**
   * The groups cut into runs of about equal points, one per processor, when the answer is large:
   * writing a month of hourly values is most of such a query's time, and the runs are written side
   * by side. A small answer is one run.
   */
  private static List<List<Group>> slices(List<Group> groups, long points) {
    int processors = Runtime.getRuntime().availableProcessors();
    int count = (int) Math.min(Math.min(processors, groups.size()), points / PARALLEL_POINTS);
    if (count <= 1) {
      return List.of(groups);
    }
    List<List<Group>> slices = new ArrayList<>(count);
    long perSlice = (points + count - 1) / count;
    int from = 0;
    long taken = 0;
    for (int k = 0; k < groups.size(); k++) {
      taken += groups.get(k).result().points().size();
      if (taken >= perSlice * (slices.size() + 1) || k == groups.size() - 1) {
        slices.add(groups.subList(from, k + 1));
        from = k + 1;
      }
    }
    return slices;
  }

  /**
   * Groups written one after another, separated by commas, without the enclosing brackets; {@code
   * shareNames}: the groups' timestamp names are written once and reused.
   */
  private byte[] renderGroups(List<Group> groups, List<Annotation> globals, boolean shareNames) {
    long points = 0;
    for (Group group : groups) {
      points += group.result().points().size();
    }
    // Sized for the points up front: growing a buffer of megabytes copies it again and again.
    ByteArrayOutputStream out =
        new ByteArrayOutputStream((int) Math.min(4096 + points * BYTES_PER_POINT, 1 << 26));
    TimestampNames names = shareNames ? new TimestampNames() : null;
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.setRootValueSeparator(GROUP_SEPARATOR);
      // A month's answer by host is 72,000 values: the fast writer gives the shortest text that
      // reads back as the same double, where Double.toString cost most of the answer's time.
      g.enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature());
      for (Group group : groups) {
        QueryResult r = group.result();
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
        if (query.showQuery()) {
          g.writeFieldName("query");
          writeEcho(g, group.query());
        }
        writeNotes(g, "annotations", group.notes());
        writeNotes(g, "globalAnnotations", globals);
        g.writeFieldName("dps");
        writePoints(g, r.points(), names);
        g.writeEndObject();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory", e);
    }
    return out.toByteArray();
  }

  /**
   * The {@code dps} field names of one answer, each written once: the groups of an answer mostly
   * share their timestamps, in the same ascending order. Names are kept in that order as they are
   * first met; each group walks them from the start.
   */
  private static final class TimestampNames {
    private static final int MAX_KEPT = 100_000;
    private long[] times = new long[64];
    private SerializedString[] names = new SerializedString[64];
    private int kept;
    private int cursor;

    void restart() {
      cursor = 0;
    }

    SerializedString of(long timestamp) {
      while (cursor < kept && times[cursor] < timestamp) {
        cursor++;
      }
      if (cursor < kept && times[cursor] == timestamp) {
        return names[cursor++];
      }
      SerializedString name = new SerializedString(Long.toString(timestamp));
      if (cursor == kept && kept < MAX_KEPT) {
        if (kept == times.length) {
          times = Arrays.copyOf(times, kept * 2);
          names = Arrays.copyOf(names, kept * 2);
        }
        times[kept] = timestamp;
        names[kept++] = name;
        cursor = kept;
      }
      return name;
    }
  }

  /** OpenTSDB writes a list of notes only when it has some. */
  private static void writeNotes(JsonGenerator g, String field, List<Annotation> notes)
      throws IOException {
    if (notes.isEmpty()) {
      return;
    }
    g.writeArrayFieldStart(field);
    for (Annotation a : notes) {
      g.writeObject(AnnotationJson.toMap(a));
    }
    g.writeEndArray();
  }

  /** Writes {@code dps}; {@code names} null: each name written as it comes (one group). */
  private void writePoints(JsonGenerator g, List<ResultPoint> points, TimestampNames names)
      throws IOException {
    boolean ms = query.msResolution();
    if (query.arrays()) {
      g.writeStartArray();
      for (ResultPoint p : points) {
        g.writeStartArray();
        g.writeNumber(ms ? p.timestampMs() : p.timestampMs() / 1000);
        writeValue(g, p);
        g.writeEndArray();
      }
      g.writeEndArray();
    } else {
      g.writeStartObject();
      if (names != null) {
        names.restart();
      }
      for (ResultPoint p : points) {
        long t = ms ? p.timestampMs() : p.timestampMs() / 1000;
        if (names == null) {
          g.writeFieldName(Long.toString(t));
        } else {
          g.writeFieldName(names.of(t));
        }
        writeValue(g, p);
      }
      g.writeEndObject();
    }
  }

  private void writeEcho(JsonGenerator g, int i) throws IOException {
    JsonNode echo = echoes.get(i);
    if (echo.isObject()) {
      ObjectNode copy = ((ObjectNode) echo).deepCopy();
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
