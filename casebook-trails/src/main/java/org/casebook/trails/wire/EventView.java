package org.casebook.trails.wire;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.trails.Behaviour;
import org.casebook.trails.Event;

/**
 * An event as JSON, the same shape as a log line: {@code uid}, {@code type}, {@code ts} (ISO-8601)
 * and the behaviour's fields flattened beside them (counts and amounts as numbers); the extra
 * fields the behaviour does not declare, as text, in {@code extra} (left out when none), where
 * {@link LogParser} reads them back as extras.
 */
public record EventView(
    String uid,
    String type,
    String ts,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> extra,
    @JsonIgnore Map<String, Object> fields) {
  public EventView {
    extra = Collections.unmodifiableMap(new LinkedHashMap<>(extra));
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** The fields, written at the top level next to uid, type and ts. */
  @JsonAnyGetter
  public Map<String, Object> flattened() {
    return fields;
  }

  /** The record in the shape of a log line. */
  public static EventView of(Event e) {
    Map<String, Object> values = new LinkedHashMap<>();
    e.fields()
        .forEach(
            (name, value) ->
                values.put(
                    name,
                    switch (e.type()
                        .field(name)
                        .map(Behaviour.Field::kind)
                        .orElse(Behaviour.Kind.TEXT)) {
                      case COUNT -> Long.parseLong(value);
                      case MONEY -> new BigDecimal(value);
                      case TEXT -> value;
                    }));
    return new EventView(e.uid(), e.type().label(), e.instant().toString(), e.extras(), values);
  }

  public static List<EventView> of(List<Event> events) {
    return events.stream().map(EventView::of).toList();
  }
}
