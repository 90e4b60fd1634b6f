package org.casebook.trails;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An event as JSON, the same shape as a log line: {@code uid}, {@code type}, {@code ts} (ISO-8601)
 * and the behaviour's fields flattened beside them.
 */
public record EventView(
    String uid, String type, String ts, @JsonIgnore Map<String, Object> fields) {
  public EventView {
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** The fields, written at the top level next to uid, type and ts. */
  @JsonAnyGetter
  public Map<String, Object> flattened() {
    return fields;
  }

  public static List<EventView> of(List<Event> events) {
    return events.stream().map(Event::toJson).toList();
  }
}
