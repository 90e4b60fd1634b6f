package org.casebook.tsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.tsdb.ExpressionRequest;
import org.casebook.tsdb.OpenTsdbQuery;

/**
 * {@code /api/query/exp} as JSON: OpenTSDB 2.4's expression query body ({@code time}, {@code
 * filters}, {@code metrics}, {@code expressions}, {@code outputs}) read into an {@link
 * ExpressionRequest}, and the request as OpenTSDB 2.4.1 echoes it under {@code query} in its answer
 * (the shape OpenTSDB serialises its own request objects in; {@link ExpressionAnswerJson} writes
 * the answer).
 *
 * <p>Fields OpenTSDB reads and does not apply are refused, naming the field: {@code
 * metrics[i].timeOffset} (2.4.1 checks it is a date and queries without it). Unknown fields are
 * refused too (OpenTSDB ignores them).
 *
 * @param request the checked request
 * @param echo the request as OpenTSDB echoes it
 */
public record ExpressionJson(ExpressionRequest request, JsonNode echo) {
  private static final Set<String> QUERY_FIELDS =
      Set.of("name", "time", "filters", "metrics", "expressions", "outputs");
  private static final Set<String> TIME_FIELDS =
      Set.of("start", "end", "timezone", "downsampler", "aggregator", "rate");
  private static final Set<String> DOWNSAMPLER_FIELDS =
      Set.of("interval", "aggregator", "fillPolicy");
  private static final Set<String> FILL_FIELDS = Set.of("policy", "value");
  private static final Set<String> FILTER_FIELDS = Set.of("id", "tags", "explicitTags");
  private static final Set<String> TAG_FILTER_FIELDS = Set.of("type", "tagk", "filter", "groupBy");
  private static final Set<String> METRIC_FIELDS =
      Set.of("id", "metric", "filter", "timeOffset", "aggregator", "fillPolicy");
  private static final Set<String> EXPRESSION_FIELDS = Set.of("id", "expr", "join", "fillPolicy");
  private static final Set<String> JOIN_FIELDS =
      Set.of("operator", "useQueryTags", "includeAggTags");
  private static final Set<String> OUTPUT_FIELDS = Set.of("id", "alias");

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  public ExpressionJson {
    Objects.requireNonNull(request, "request is null");
    Objects.requireNonNull(echo, "echo is null");
  }

  /** A fill policy read: what OpenTSDB's {@code NumericFillPolicy} keeps once checked. */
  private record Fill(String policy, double value) {
    ObjectNode echo() {
      ObjectNode n = NODES.objectNode();
      n.put("policy", policy);
      n.put("value", value);
      return n;
    }
  }

  /** A filter of {@code filters}, checked, with its tag filters as given. */
  private record FilterSet(String id, JsonNode tags, boolean explicitTags, ObjectNode echo) {}

  /** Reads OpenTSDB's expression query body; {@code nowMs} is what relative times count from. */
  static ExpressionJson fromJson(JsonNode body, long nowMs) {
    if (!body.isObject()) {
      throw new InvalidInputException("body", "a query object expected");
    }
    knownFields(body, QUERY_FIELDS, "");
    ObjectNode echo = NODES.objectNode();
    echo.set("name", nullable(body.get("name"), "name"));
    JsonNode time = body.get("time");
    if (time == null || time.isNull()) {
      throw new InvalidInputException("time", "missing time");
    }
    object(time, "time");
    knownFields(time, TIME_FIELDS, "time.");
    // The echo's fields in the order OpenTSDB writes them; the downsampler's is set in place.
    ObjectNode timeEcho = echo.putObject("time");
    String start = text(time, "start", "time.start");
    if (start == null || start.isEmpty()) {
      throw new InvalidInputException("time.start", "missing or empty start");
    }
    String end = text(time, "end", "time.end");
    OpenTsdbQuery.Builder query = new OpenTsdbQuery.Builder(nowMs);
    under("time.timezone", () -> query.timezone(text(time, "timezone", "time.timezone")));
    under("time.start", () -> query.start(start));
    under("time.end", () -> query.end(end == null || end.isEmpty() ? null : end));
    timeEcho.put("start", start);
    timeEcho.put("end", end);
    timeEcho.put("timezone", text(time, "timezone", "time.timezone"));
    timeEcho.putNull("downsampler");
    timeEcho.put("aggregator", text(time, "aggregator", "time.aggregator"));
    String aggregator = aggregator(time, "time.aggregator", true);
    String downsample = downsampler(time.get("downsampler"), timeEcho);
    boolean rate = bool(time, "rate", "time.rate");
    timeEcho.put("rate", rate);

    Map<String, FilterSet> filters = filters(body.get("filters"), echo);
    List<ExpressionRequest.MetricVariable> variables = new ArrayList<>();
    ArrayNode metricEcho = NODES.arrayNode();
    JsonNode metrics = body.get("metrics");
    if (metrics == null || metrics.isNull() || !metrics.isArray() || metrics.isEmpty()) {
      throw new InvalidInputException("metrics", "missing or empty metrics");
    }
    for (int i = 0; i < metrics.size(); i++) {
      String path = "metrics[" + i + "]";
      JsonNode m = object(metrics.get(i), path);
      knownFields(m, METRIC_FIELDS, path + ".");
      String id = id(m, path);
      String metric = text(m, "metric", path + ".metric");
      if (metric == null || metric.isEmpty()) {
        throw new InvalidInputException(path + ".metric", "missing or empty metric");
      }
      if (nullable(m.get("timeOffset"), path + ".timeOffset").isTextual()) {
        throw new InvalidInputException(
            path + ".timeOffset",
            "timeOffset is not supported: OpenTSDB 2.4.1 reads it and queries without it");
      }
      String metricAggregator = aggregator(m, path + ".aggregator", false);
      Fill fill = fill(m.get("fillPolicy"), path + ".fillPolicy");
      String filterId = text(m, "filter", path + ".filter");
      OpenTsdbQuery.SubQueryBuilder sub = new OpenTsdbQuery.SubQueryBuilder(path);
      sub.aggregator(metricAggregator != null ? metricAggregator : aggregator);
      sub.metric(metric);
      under("time.downsampler", () -> sub.downsample(downsample));
      sub.rate(rate);
      Set<String> tagKeys = new LinkedHashSet<>();
      if (filterId != null && !filterId.isEmpty()) {
        FilterSet f = filters.get(filterId);
        if (f == null) {
          throw new InvalidInputException(
              path + ".filter",
              filters.isEmpty()
                  ? "No filter defined: " + filterId
                  : "unrecognized filter id " + filterId + " in metric " + id);
        }
        sub.filters();
        for (JsonNode t : f.tags()) {
          tagKeys.add(t.get("tagk").asText());
          sub.filter(
              text(t, "type", "type"),
              text(t, "tagk", "tagk"),
              text(t, "filter", "filter"),
              bool(t, "groupBy", "groupBy"));
        }
        sub.explicitTags(f.explicitTags());
      }
      query.add(sub);
      variables.add(
          new ExpressionRequest.MetricVariable(id, tagKeys, fill == null ? 0 : fill.value()));
      ObjectNode e = metricEcho.addObject();
      e.put("metric", metric);
      e.put("id", id);
      e.put("filter", filterId);
      e.put("aggregator", text(m, "aggregator", path + ".aggregator"));
      e.putNull("timeOffset");
      e.set("fillPolicy", fill == null ? NODES.nullNode() : fill.echo());
    }
    echo.set("metrics", metricEcho);
    List<ExpressionRequest.ExpressionSpec> expressions = expressions(body.get("expressions"), echo);
    List<ExpressionRequest.OutputSpec> outputs = outputs(body.get("outputs"), echo);
    OpenTsdbQuery built = under("time.end", () -> query.build(false, false, false));
    ExpressionRequest request = new ExpressionRequest(built, variables, expressions, outputs);
    return new ExpressionJson(request, echo);
  }

  /**
   * {@code time.downsampler} as a downsampling specifier ({@code 1m-avg-zero}), or null; its echo
   * goes into {@code timeEcho}.
   */
  private static String downsampler(JsonNode d, ObjectNode timeEcho) {
    String path = "time.downsampler";
    if (d == null || d.isNull()) {
      return null;
    }
    object(d, path);
    knownFields(d, DOWNSAMPLER_FIELDS, path + ".");
    String interval = text(d, "interval", path + ".interval");
    if (interval == null || interval.isEmpty()) {
      throw new InvalidInputException(path + ".interval", "Missing or empty interval");
    }
    // OpenTSDB reads the interval as a duration: neither "0all" nor a whole specifier.
    if (interval.indexOf('-') >= 0 || interval.contains("all")) {
      throw new InvalidInputException(path + ".interval", "Invalid interval: " + interval);
    }
    String aggregator = aggregator(d, path + ".aggregator", true);
    Fill fill = fill(d.get("fillPolicy"), path + ".fillPolicy");
    if (fill != null && fill.policy().equals("scalar")) {
      throw new InvalidInputException(
          path + ".fillPolicy",
          "a scalar fill is not supported by the downsampler (none, nan, null, zero are)");
    }
    ObjectNode e = timeEcho.putObject("downsampler");
    e.put("interval", interval);
    e.put("aggregator", text(d, "aggregator", path + ".aggregator"));
    e.set("fillPolicy", fill == null ? NODES.nullNode() : fill.echo());
    // OpenTSDB 2.4.1 drops the downsampler's fill policy; here it is the downsampler's fill.
    String spec = interval + "-" + aggregator;
    if (fill != null && !fill.policy().equals("none")) {
      spec += "-" + fill.policy();
    }
    String checked = spec;
    under(path, () -> new OpenTsdbQuery.SubQueryBuilder("time").downsample(checked));
    return spec;
  }

  private static Map<String, FilterSet> filters(JsonNode node, ObjectNode echo) {
    Map<String, FilterSet> out = new HashMap<>();
    if (node == null || node.isNull()) {
      echo.putNull("filters");
      return out;
    }
    if (!node.isArray()) {
      throw new InvalidInputException("filters", "filters must be an array");
    }
    ArrayNode filterEcho = echo.putArray("filters");
    for (int i = 0; i < node.size(); i++) {
      String path = "filters[" + i + "]";
      JsonNode f = object(node.get(i), path);
      knownFields(f, FILTER_FIELDS, path + ".");
      String id = text(f, "id", path + ".id");
      if (id == null || id.isEmpty()) {
        throw new InvalidInputException(path + ".id", "Missing or empty id");
      }
      validateId(id, path + ".id");
      if (out.containsKey(id)) {
        throw new InvalidInputException(path + ".id", "duplicated filter id: " + id);
      }
      JsonNode tags = f.get("tags");
      ArrayNode tagsEcho = NODES.arrayNode();
      if (tags != null && !tags.isNull()) {
        if (!tags.isArray()) {
          throw new InvalidInputException(path + ".tags", "tags must be an array");
        }
        for (int j = 0; j < tags.size(); j++) {
          String tagPath = path + ".tags[" + j + "]";
          JsonNode t = object(tags.get(j), tagPath);
          knownFields(t, TAG_FILTER_FIELDS, tagPath + ".");
          String type = text(t, "type", tagPath + ".type");
          String tagk = text(t, "tagk", tagPath + ".tagk");
          String filter = text(t, "filter", tagPath + ".filter");
          boolean groupBy = bool(t, "groupBy", tagPath + ".groupBy");
          // Checked now, as OpenTSDB builds each filter when it reads the body.
          under(
              tagPath,
              () -> new OpenTsdbQuery.SubQueryBuilder(path).filter(type, tagk, filter, groupBy));
          ObjectNode e = tagsEcho.addObject();
          e.put("tagk", tagk);
          e.put("filter", filter);
          e.put("group_by", groupBy);
          e.put("type", type.toLowerCase(Locale.ROOT));
        }
      }
      boolean explicit = bool(f, "explicitTags", path + ".explicitTags");
      ObjectNode e = filterEcho.addObject();
      e.put("id", id);
      e.set("tags", tags == null || tags.isNull() ? NODES.nullNode() : tagsEcho);
      e.put("explicitTags", explicit);
      out.put(
          id,
          new FilterSet(id, tags == null || tags.isNull() ? NODES.arrayNode() : tags, explicit, e));
    }
    return out;
  }

  private static List<ExpressionRequest.ExpressionSpec> expressions(
      JsonNode node, ObjectNode echo) {
    List<ExpressionRequest.ExpressionSpec> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      echo.putNull("expressions");
      return out;
    }
    if (!node.isArray()) {
      throw new InvalidInputException("expressions", "expressions must be an array");
    }
    ArrayNode arrayEcho = echo.putArray("expressions");
    for (int i = 0; i < node.size(); i++) {
      String path = "expressions[" + i + "]";
      JsonNode x = object(node.get(i), path);
      knownFields(x, EXPRESSION_FIELDS, path + ".");
      String id = id(x, path);
      String expr = text(x, "expr", path + ".expr");
      if (expr == null || expr.isEmpty()) {
        throw new InvalidInputException(path + ".expr", "missing or empty expr");
      }
      ExpressionRequest.JoinOperator operator = ExpressionRequest.JoinOperator.UNION;
      boolean useQueryTags = false;
      boolean includeAggTags = true;
      JsonNode join = x.get("join");
      if (join != null && !join.isNull()) {
        object(join, path + ".join");
        knownFields(join, JOIN_FIELDS, path + ".join.");
        String op = text(join, "operator", path + ".join.operator");
        if (op == null) {
          throw new InvalidInputException(path + ".join.operator", "Missing join operator");
        }
        operator =
            switch (op.toLowerCase(Locale.ROOT)) {
              case "union" -> ExpressionRequest.JoinOperator.UNION;
              case "intersection" -> ExpressionRequest.JoinOperator.INTERSECTION;
              default ->
                  throw new InvalidInputException(
                      path + ".join.operator", "Unrecognized set operator: " + op);
            };
        useQueryTags = bool(join, "useQueryTags", path + ".join.useQueryTags");
        JsonNode agg = join.get("includeAggTags");
        includeAggTags =
            agg == null
                || agg.isNull()
                || bool(join, "includeAggTags", path + ".join.includeAggTags");
      }
      Fill fill = fill(x.get("fillPolicy"), path + ".fillPolicy");
      out.add(
          new ExpressionRequest.ExpressionSpec(
              id,
              expr,
              operator,
              useQueryTags,
              includeAggTags,
              fill == null ? Double.NaN : fill.value()));
      ObjectNode e = arrayEcho.addObject();
      e.put("id", id);
      e.put("expr", expr);
      ObjectNode joinEcho = e.putObject("join");
      joinEcho.put("operator", operator.name().toLowerCase(Locale.ROOT));
      joinEcho.put("useQueryTags", useQueryTags);
      joinEcho.put("includeAggTags", includeAggTags);
      e.set("fillPolicy", fill == null ? NODES.nullNode() : fill.echo());
    }
    return out;
  }

  private static List<ExpressionRequest.OutputSpec> outputs(JsonNode node, ObjectNode echo) {
    List<ExpressionRequest.OutputSpec> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      echo.putNull("outputs");
      return out;
    }
    if (!node.isArray()) {
      throw new InvalidInputException("outputs", "outputs must be an array");
    }
    ArrayNode arrayEcho = echo.putArray("outputs");
    for (int i = 0; i < node.size(); i++) {
      String path = "outputs[" + i + "]";
      JsonNode o = object(node.get(i), path);
      knownFields(o, OUTPUT_FIELDS, path + ".");
      String id = id(o, path);
      String alias = text(o, "alias", path + ".alias");
      out.add(new ExpressionRequest.OutputSpec(id, alias));
      ObjectNode e = arrayEcho.addObject();
      e.put("id", id);
      e.put("alias", alias);
    }
    return out;
  }

  /** A {@code fillPolicy} object, checked as OpenTSDB's {@code NumericFillPolicy}; null: none. */
  private static Fill fill(JsonNode node, String path) {
    if (node == null || node.isNull()) {
      return null;
    }
    object(node, path);
    knownFields(node, FILL_FIELDS, path + ".");
    double value = 0;
    JsonNode v = node.get("value");
    if (v != null && !v.isNull()) {
      if (v.isNumber()) {
        value = v.asDouble();
      } else if (v.isTextual()) {
        try {
          value = Double.parseDouble(v.asText());
        } catch (NumberFormatException e) {
          throw new InvalidInputException(path + ".value", "not a number: " + v.asText());
        }
      } else {
        throw new InvalidInputException(path + ".value", "not a number: " + v);
      }
    }
    String policy = text(node, "policy", path + ".policy");
    if (policy == null) {
      policy = value == 0 ? "zero" : Double.isNaN(value) ? "nan" : "scalar";
    }
    String p = policy.toLowerCase(Locale.ROOT);
    return switch (p) {
      case "none", "nan" -> {
        if (value != 0 && !Double.isNaN(value)) {
          throw new InvalidInputException(
              path + ".value", "The value for NONE and NAN must be NaN");
        }
        yield new Fill(p, Double.NaN);
      }
      case "zero" -> {
        if (value != 0) {
          throw new InvalidInputException(path + ".value", "The value for ZERO must be 0");
        }
        yield new Fill(p, 0);
      }
      case "null" -> {
        if (value != 0 && !Double.isNaN(value)) {
          throw new InvalidInputException(path + ".value", "The value for NULL must be 0");
        }
        yield new Fill(p, Double.NaN);
      }
      case "scalar" -> new Fill(p, value);
      default ->
          throw new InvalidInputException(path + ".policy", "Unrecognized fill policy: " + policy);
    };
  }

  /** An aggregator name, lower-cased as OpenTSDB looks it up; null when absent and optional. */
  private static String aggregator(JsonNode n, String path, boolean required) {
    String name = text(n, "aggregator", path);
    if (name == null || name.isEmpty()) {
      if (required) {
        throw new InvalidInputException(path, "Missing or empty aggregator");
      }
      return null;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    try {
      new OpenTsdbQuery.SubQueryBuilder("x").aggregator(lower);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(path, "Invalid aggregator: " + name);
    }
    return lower;
  }

  private static String id(JsonNode n, String path) {
    String id = text(n, "id", path + ".id");
    if (id == null || id.isEmpty()) {
      throw new InvalidInputException(path + ".id", "missing or empty id");
    }
    validateId(id, path + ".id");
    return id;
  }

  /** OpenTSDB's {@code Query.validateId}: letters and digits, not one digit alone. */
  private static void validateId(String id, String field) {
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        throw new InvalidInputException(
            field, "Invalid id (\"" + id + "\"): illegal character: " + c);
      }
    }
    if (id.length() == 1 && Character.isDigit(id.charAt(0))) {
      throw new InvalidInputException(field, "The ID cannot be an integer");
    }
  }

  /** Runs {@code check}, its errors naming {@code field} ({@code time.start}). */
  private static <T> T under(String field, Supplier<T> check) {
    try {
      return check.get();
    } catch (InvalidInputException e) {
      throw new InvalidInputException(field, e.getMessage());
    }
  }

  private static JsonNode object(JsonNode n, String path) {
    if (n == null || !n.isObject()) {
      throw new InvalidInputException(path, path + " must be an object");
    }
    return n;
  }

  private static void knownFields(JsonNode n, Set<String> known, String prefix) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!known.contains(f)) {
        throw new InvalidInputException(prefix + f, "Unrecognized field \"" + f + "\"");
      }
    }
  }

  private static JsonNode nullable(JsonNode v, String field) {
    if (v == null || v.isNull()) {
      return NODES.nullNode();
    }
    if (!v.isValueNode()) {
      throw new InvalidInputException(field, field + " must be a string");
    }
    return NODES.textNode(v.asText());
  }

  private static String text(JsonNode n, String name, String field) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isValueNode()) {
      throw new InvalidInputException(field, field + " must be a string or a number");
    }
    return v.asText();
  }

  private static boolean bool(JsonNode n, String name, String field) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      return false;
    }
    if (v.isBoolean()) {
      return v.asBoolean();
    }
    if (v.isTextual()
        && (v.asText().equalsIgnoreCase("true") || v.asText().equalsIgnoreCase("false"))) {
      return v.asText().equalsIgnoreCase("true");
    }
    throw new InvalidInputException(field, field + " must be true or false");
  }
}
