package org.casebook.tsdb;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.casebook.core.InvalidInputException;

/**
 * An OpenTSDB annotation: a note on a time series (its {@code tsuid}) or, without one, a global
 * note on everything, at a start time. A series' note is known by its tsuid and start time, a
 * global one by its start time.
 *
 * @param tsuid the series' tsuid in hex (metric id then tag pairs, as {@code /api/search/lookup}
 *     and {@code /api/query/last} print it), or empty for a global annotation
 * @param startTime epoch seconds, or milliseconds when it does not fit 32 bits (OpenTSDB's rule)
 * @param endTime as {@code startTime}; 0 when the event has no end
 * @param description a short line, shown by GUIs
 * @param notes a longer text
 * @param custom the caller's own keys and values, sorted; null when none was given
 */
public record Annotation(
    String tsuid,
    long startTime,
    long endTime,
    String description,
    String notes,
    Map<String, String> custom) {
  /** Where OpenTSDB tells milliseconds from seconds: any bit above the low 32. */
  private static final long SECOND_MASK = 0xFFFFFFFF00000000L;

  public Annotation {
    tsuid = tsuid == null ? "" : tsuid;
    description = description == null ? "" : description;
    notes = notes == null ? "" : notes;
    if (startTime < 1) {
      throw new InvalidInputException("startTime", "The start timestamp has not been set");
    }
    if (endTime < 0) {
      throw new InvalidInputException("endTime", "The end timestamp must not be negative");
    }
    custom = custom == null ? null : Collections.unmodifiableMap(new TreeMap<>(custom));
    if (custom != null) {
      custom.forEach((k, v) -> Objects.requireNonNull(v, "custom value of " + k + " is null"));
    }
  }

  /** Whether this is a global annotation (no tsuid). */
  public boolean global() {
    return tsuid.isEmpty();
  }

  /** The start in epoch milliseconds. */
  public long startMs() {
    return toMs(startTime);
  }

  /** The end in epoch milliseconds; 0 when there is none. */
  public long endMs() {
    return toMs(endTime);
  }

  /** A time given in seconds or milliseconds (OpenTSDB's rule), in milliseconds. */
  static long toMs(long secondsOrMs) {
    return (secondsOrMs & SECOND_MASK) != 0 ? secondsOrMs : secondsOrMs * 1000;
  }
}
