package org.casebook.tsdb;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.casebook.core.Json;

/**
 * An annotation's cell: the JSON OpenTSDB stores for it ({@code tsuid} when not global, {@code
 * startTime}, {@code endTime}, {@code description}, {@code notes}, {@code custom}), so a note reads
 * back exactly as it was given.
 */
final class AnnotationCodec {
  private AnnotationCodec() {}

  private record Stored(
      String tsuid,
      long startTime,
      long endTime,
      String description,
      String notes,
      Map<String, String> custom) {}

  static byte[] encode(Annotation a) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (!a.global()) {
      m.put("tsuid", a.tsuid());
    }
    m.put("startTime", a.startTime());
    m.put("endTime", a.endTime());
    m.put("description", a.description());
    m.put("notes", a.notes());
    m.put("custom", a.custom());
    try {
      return Json.mapper().writeValueAsBytes(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an annotation that is not JSON", e);
    }
  }

  static Annotation decode(byte[] cell) {
    try {
      Stored s = Json.mapper().readValue(cell, Stored.class);
      return new Annotation(
          s.tsuid(), s.startTime(), s.endTime(), s.description(), s.notes(), s.custom());
    } catch (IOException e) {
      throw new IllegalStateException("a stored annotation that is not JSON", e);
    }
  }
}
