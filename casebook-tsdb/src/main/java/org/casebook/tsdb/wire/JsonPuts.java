package org.casebook.tsdb.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.tsdb.IncomingPoint;
import org.casebook.tsdb.PutResult;
import org.casebook.tsdb.TsdbService;

/**
 * OpenTSDB's {@code /api/put} body — one point object or an array of them — read into checked
 * points and written with one service write: every good point is stored, each bad one reported.
 *
 * <p>The common body (every point an object of string or number {@code metric}, {@code timestamp},
 * {@code value} and string {@code tags}, all good) is read in one streaming pass without building a
 * JSON tree; anything else is read again as a tree point by point, so errors are worded and
 * reported exactly as OpenTSDB does.
 */
final class JsonPuts {
  private static final Set<String> POINT_FIELDS = Set.of("metric", "timestamp", "value", "tags");

  private JsonPuts() {}

  /**
   * Stores the points of {@code body}: durable when this returns with {@code sync}, else within the
   * write buffer's flush period (200 ms), as OpenTSDB's.
   */
  static PutResult put(TsdbService service, byte[] body, boolean sync) {
    List<IncomingPoint> plain = plainPoints(body, service.limits());
    if (plain != null) {
      service.write(plain, sync);
      return new PutResult(plain.size(), 0, List.of());
    }
    JsonNode tree = readTree(body);
    List<JsonNode> items = new ArrayList<>();
    if (tree.isArray()) {
      tree.forEach(items::add);
    } else if (tree.isObject()) {
      items.add(tree);
    } else {
      throw new InvalidInputException("body", "a data point object or an array of them expected");
    }
    if (items.isEmpty()) {
      throw new InvalidInputException("body", "No datapoints found in content");
    }
    IncomingPoint.Limits limits = service.limits();
    List<IncomingPoint> good = new ArrayList<>(items.size());
    List<PutResult.PointError> errors = new ArrayList<>();
    for (JsonNode item : items) {
      try {
        good.add(parsePoint(item, limits));
      } catch (InvalidInputException e) {
        errors.add(new PutResult.PointError(asMap(item), e.getMessage()));
      }
    }
    if (!good.isEmpty()) {
      service.write(good, sync);
    }
    return new PutResult(good.size(), errors.size(), errors);
  }

  /** A request body as a JSON tree; OpenTSDB's errors for an empty or broken one. */
  static JsonNode readTree(byte[] body) {
    if (body.length == 0) {
      throw new InvalidInputException("body", "Missing request content");
    }
    try {
      return Json.mapper().readTree(body);
    } catch (IOException e) {
      throw new InvalidInputException("body", "Unable to parse the given JSON");
    }
  }

  /**
   * The points of a plain body read in one streaming pass; null for anything else, which the tree
   * reading then reads and reports point by point.
   */
  static List<IncomingPoint> plainPoints(byte[] body, IncomingPoint.Limits limits) {
    try (JsonParser p = Json.mapper().createParser(body)) {
      JsonToken root = p.nextToken();
      List<IncomingPoint> points = new ArrayList<>();
      if (root == JsonToken.START_OBJECT) {
        IncomingPoint one = plainPoint(p, limits);
        if (one == null) {
          return null;
        }
        points.add(one);
      } else if (root == JsonToken.START_ARRAY) {
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          IncomingPoint next = t == JsonToken.START_OBJECT ? plainPoint(p, limits) : null;
          if (next == null) {
            return null;
          }
          points.add(next);
        }
      } else {
        return null;
      }
      return points.isEmpty() || p.nextToken() != null ? null : points;
    } catch (IOException | InvalidInputException e) {
      return null; // the tree reading words the error exactly
    }
  }

  /** One point object, the parser on its START_OBJECT; null if it is not plain. */
  private static IncomingPoint plainPoint(JsonParser p, IncomingPoint.Limits limits)
      throws IOException {
    String metric = null;
    String timestamp = null;
    String value = null;
    Map<String, String> tags = new LinkedHashMap<>();
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "metric" -> metric = plainScalar(p, v, false);
        case "timestamp" -> timestamp = plainScalar(p, v, true);
        case "value" -> value = plainScalar(p, v, false);
        case "tags" -> {
          if (v != JsonToken.START_OBJECT) {
            return null;
          }
          for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
            String key = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
              return null;
            }
            tags.put(key, p.getText());
          }
        }
        default -> {
          return null;
        }
      }
    }
    if (metric == null || timestamp == null || value == null) {
      return null;
    }
    return IncomingPoint.parse(metric, timestamp, value, tags, limits);
  }

  /** A scalar as the tree reading turns it into text ({@link #scalar}); null if not plain. */
  private static String plainScalar(JsonParser p, JsonToken v, boolean integerOnly)
      throws IOException {
    if (v == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (v == JsonToken.VALUE_NUMBER_INT) {
      return p.getNumberValue().toString();
    }
    if (v == JsonToken.VALUE_NUMBER_FLOAT && !integerOnly) {
      return Double.toString(p.getDoubleValue());
    }
    return null;
  }

  private static Map<String, Object> asMap(JsonNode item) {
    if (!item.isObject()) {
      return Map.of("value", item.toString());
    }
    @SuppressWarnings("unchecked") // an object node converts to a map of its fields
    Map<String, Object> m = Json.mapper().convertValue(item, LinkedHashMap.class);
    return m;
  }

  /** One point of the tree reading, checked; an error names the field at fault. */
  static IncomingPoint parsePoint(JsonNode item, IncomingPoint.Limits limits) {
    if (!item.isObject()) {
      throw new InvalidInputException("body", "a data point must be a JSON object");
    }
    for (Iterator<String> it = item.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!POINT_FIELDS.contains(f)) {
        throw new InvalidInputException(f, "Unrecognized field \"" + f + "\"");
      }
    }
    String metric = scalar(item, "metric");
    String timestamp = scalar(item, "timestamp");
    String value = scalar(item, "value");
    Map<String, String> tags = new LinkedHashMap<>();
    JsonNode t = item.get("tags");
    if (t != null && !t.isNull()) {
      if (!t.isObject()) {
        throw new InvalidInputException("tags", "tags must be an object of tag names to values");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isValueNode() || e.getValue().isNull()) {
          throw new InvalidInputException("tags", "tag " + e.getKey() + " must have a value");
        }
        tags.put(e.getKey(), e.getValue().asText());
      }
    }
    if (metric == null) {
      throw new InvalidInputException("metric", "Metric name was empty");
    }
    if (timestamp == null) {
      throw new InvalidInputException("timestamp", "Invalid timestamp");
    }
    if (value == null) {
      throw new InvalidInputException("value", "Empty value");
    }
    return IncomingPoint.parse(metric, timestamp, value, tags, limits);
  }

  private static String scalar(JsonNode item, String field) {
    JsonNode n = item.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isValueNode()) {
      throw new InvalidInputException(field, field + " must be a string or a number");
    }
    if (n.isFloatingPointNumber() && "timestamp".equals(field)) {
      throw new InvalidInputException(field, "Invalid timestamp: " + n.asText());
    }
    // Integral JSON numbers print without a fraction; others keep their decimal text.
    return n.isNumber() ? n.numberValue().toString() : n.asText();
  }
}
