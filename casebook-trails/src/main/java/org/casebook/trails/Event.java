package org.casebook.trails;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One behaviour record: who, what, when, and the behaviour's fields as normalised text (numbers
 * without leading zeros, amounts with two decimals). Fields may be a subset when a query asked for
 * only some.
 */
public record Event(String uid, Behaviour type, long ts, Map<String, String> fields) {
  public Event {
    Objects.requireNonNull(uid, "uid is null");
    Objects.requireNonNull(type, "type is null");
    fields =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(Objects.requireNonNull(fields, "fields is null")));
  }

  public Instant instant() {
    return Instant.ofEpochMilli(ts);
  }

  /** The record in the shape of a log line (counts and amounts as numbers). */
  public EventView toJson() {
    Map<String, Object> values = new LinkedHashMap<>();
    fields.forEach(
        (name, value) ->
            values.put(
                name,
                switch (type.field(name).map(Behaviour.Field::kind).orElse(Behaviour.Kind.TEXT)) {
                  case COUNT -> Long.parseLong(value);
                  case MONEY -> new java.math.BigDecimal(value);
                  case TEXT -> value;
                }));
    return new EventView(uid, type.label(), instant().toString(), values);
  }
}
