package org.casebook.tsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.tsdb.Annotation;
import org.casebook.tsdb.AnnotationChange;

/**
 * Annotations as OpenTSDB's JSON: {@code tsuid}, {@code description}, {@code notes}, {@code custom}
 * (left out when there is none), {@code endTime}, {@code startTime}; a request's fields read
 * strictly (an unknown field is refused, naming it).
 */
final class AnnotationJson {
  private static final Set<String> FIELDS =
      Set.of("tsuid", "startTime", "endTime", "description", "notes", "custom");

  private AnnotationJson() {}

  /** The annotation as OpenTSDB writes one, in its order. */
  static Map<String, Object> toMap(Annotation a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("tsuid", a.tsuid());
    m.put("description", a.description());
    m.put("notes", a.notes());
    if (a.custom() != null) {
      m.put("custom", a.custom());
    }
    m.put("endTime", a.endTime());
    m.put("startTime", a.startTime());
    return m;
  }

  /** One annotation object of a request; errors name the field under {@code path}. */
  static AnnotationChange change(JsonNode n, String path) {
    if (!n.isObject()) {
      throw new InvalidInputException(
          path.isEmpty() ? "body" : path, "an annotation object expected");
    }
    String prefix = path.isEmpty() ? "" : path + ".";
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f)) {
        throw new InvalidInputException(prefix + f, "Unrecognized field \"" + f + "\"");
      }
    }
    return new AnnotationChange(
        text(n, "tsuid", prefix),
        number(n, "startTime", prefix),
        number(n, "endTime", prefix),
        text(n, "description", prefix),
        text(n, "notes", prefix),
        custom(n.get("custom"), prefix + "custom"));
  }

  private static String text(JsonNode n, String name, String prefix) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new InvalidInputException(prefix + name, name + " must be a string");
    }
    return v.asText();
  }

  static Long number(JsonNode n, String name, String prefix) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return v.asLong();
    }
    if (v.isTextual() && v.asText().matches("-?\\d{1,18}")) {
      return Long.parseLong(v.asText());
    }
    throw new InvalidInputException(prefix + name, name + " must be an integer timestamp");
  }

  private static Map<String, String> custom(JsonNode v, String field) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isObject()) {
      throw new InvalidInputException(field, "custom must be an object of strings");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isTextual()) {
        throw new InvalidInputException(
            field + "." + e.getKey(), "a custom value must be a string");
      }
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }
}
