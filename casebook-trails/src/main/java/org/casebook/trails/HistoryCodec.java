package org.casebook.trails;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.casebook.core.Json;

/**
 * The value of a history cell (both designs): the record minus its key parts (uid, ts) as a JSON
 * object, {@code {"type":"order","product":"p141","price":"73.69"}}, every field as text; extra
 * fields follow under their names marked as in the events table ({@code "+campaign":"x"}).
 */
final class HistoryCodec {
  /** Reads a value as an ordered map (the one reader, its type resolved once). */
  private static final ObjectReader READER =
      Json.mapper().readerFor(new TypeReference<LinkedHashMap<String, Object>>() {});

  private HistoryCodec() {}

  static byte[] encode(Event e) {
    Map<String, String> value = new LinkedHashMap<>();
    value.put("type", e.type().label());
    value.putAll(e.fields());
    e.extras().forEach((k, v) -> value.put(TrailsKeys.EXTRA_MARK + k, v));
    return Json.writeBytes(value);
  }

  /** The event a history value holds; {@code uid} and {@code ts} come from its key. */
  static Event decode(String uid, long ts, byte[] value, BehaviourLookup behaviours) {
    try {
      Map<String, Object> stored = READER.readValue(value);
      Behaviour b = behaviours.byLabel(String.valueOf(stored.get("type"))).orElseThrow();
      Map<String, String> fields = new LinkedHashMap<>();
      for (Behaviour.Field f : b.fields()) {
        Object v = stored.get(f.name());
        if (v != null) {
          fields.put(f.name(), v.toString());
        }
      }
      Map<String, String> extras = new TreeMap<>();
      stored.forEach(
          (k, v) -> {
            if (k.startsWith(TrailsKeys.EXTRA_MARK) && v != null) {
              extras.put(k.substring(TrailsKeys.EXTRA_MARK.length()), v.toString());
            }
          });
      return new Event(uid, b, ts, fields, extras);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("corrupt history value for " + uid + " at " + ts, e);
    }
  }
}
