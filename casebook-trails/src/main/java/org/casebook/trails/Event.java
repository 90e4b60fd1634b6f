package org.casebook.trails;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One behaviour record: who, what, when, the behaviour's fields as normalised text (numbers without
 * leading zeros, amounts with two decimals), and the extra fields of its log line that the
 * behaviour does not declare, as text (bounded, see {@code LogParser}). Fields may be a subset when
 * a query asked for only some.
 */
public record Event(
    String uid, Behaviour type, long ts, Map<String, String> fields, Map<String, String> extras) {
  /** Longest uid, in code points (the one limit for ids in logs, queries and paths). */
  public static final int MAX_UID_CHARS = 128;

  public Event {
    Objects.requireNonNull(uid, "uid is null");
    Objects.requireNonNull(type, "type is null");
    fields =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(Objects.requireNonNull(fields, "fields is null")));
    extras =
        extras == null || extras.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(extras));
  }

  /** A record without extra fields. */
  public Event(String uid, Behaviour type, long ts, Map<String, String> fields) {
    this(uid, type, ts, fields, Map.of());
  }

  public Instant instant() {
    return Instant.ofEpochMilli(ts);
  }
}
