package org.casebook.trails.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.casebook.core.Ids;
import org.casebook.core.Json;
import org.casebook.trails.Behaviour;
import org.casebook.trails.BehaviourLookup;
import org.casebook.trails.Event;

/**
 * Cleans one log line (JSON, see the module README) into an {@link Event}, or says why not. The
 * behaviour is looked up in the registry given (built-in or declared); a mistyped field, or a
 * missing field of a built-in, rejects the line (a declared behaviour's fields are optional, as
 * fields added to it later are missing from its earlier records). Fields the behaviour does not
 * declare are kept as text extras, within bounds ({@link #MAX_EXTRAS} of them, names of {@link
 * #EXTRA_NAME}, values of at most {@link #MAX_TEXT_CHARS} characters): a line past a bound is
 * rejected, as a mistyped field is, rather than stored in part. The log line is the trails input
 * format; the seed-000 MapReduce job writes its events in the same shape ({@link EventView}), read
 * back with {@link #parseAll}.
 */
public final class LogParser {
  static final int MAX_TEXT_CHARS = 256;

  /** The most extra fields a record keeps. */
  public static final int MAX_EXTRAS = 16;

  /** An extra field's name: what the condition language reads as one word. */
  static final Pattern EXTRA_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  /** The key under which the API writes a record's extra fields (a line may too). */
  public static final String EXTRA = "extra";

  /** The log line's own keys: never extras. */
  private static final Set<String> OWN_KEYS = Set.of("uid", "type", "ts");

  private static final long MAX_TS = Instant.parse("9999-01-01T00:00:00Z").toEpochMilli();

  /** A parsed line: either an event, or the category and full reason of its rejection. */
  public record Parsed(Optional<Event> event, String category, String reason) {
    static Parsed ok(Event e) {
      return new Parsed(Optional.of(e), null, null);
    }

    static Parsed reject(String category, String reason) {
      return new Parsed(Optional.empty(), category, reason);
    }
  }

  private LogParser() {}

  public static Parsed parse(String line, BehaviourLookup behaviours) {
    if (line == null || line.isBlank()) {
      return Parsed.reject("empty line", "empty line");
    }
    JsonNode node;
    try {
      node = Json.mapper().readTree(line);
    } catch (JsonProcessingException e) {
      return Parsed.reject("not JSON", "not JSON: " + e.getOriginalMessage());
    }
    return parse(node, behaviours);
  }

  /**
   * Each record of a JSON array of records in the log line's shape (what {@link EventView} writes),
   * parsed as a log line.
   */
  public static List<Parsed> parseAll(String jsonArray, BehaviourLookup behaviours)
      throws IOException {
    List<Parsed> out = new ArrayList<>();
    for (JsonNode n : Json.mapper().readTree(jsonArray)) {
      out.add(parse(n, behaviours));
    }
    return out;
  }

  private static Parsed parse(JsonNode node, BehaviourLookup behaviours) {
    if (node == null || !node.isObject()) {
      return Parsed.reject("not a JSON object", "not a JSON object");
    }
    JsonNode uidNode = node.get("uid");
    if (uidNode == null || !uidNode.isTextual()) {
      return Parsed.reject("bad uid", uidNode == null ? "missing uid" : "uid must be a string");
    }
    String uid = uidNode.asText();
    String uidProblem = uidProblem(uid);
    if (uidProblem != null) {
      return Parsed.reject("bad uid", "uid " + uidProblem);
    }
    JsonNode typeNode = node.get("type");
    if (typeNode == null || !typeNode.isTextual()) {
      return Parsed.reject("bad type", typeNode == null ? "missing type" : "type must be a string");
    }
    Optional<Behaviour> type = behaviours.byLabel(typeNode.asText());
    if (type.isEmpty()) {
      return Parsed.reject("unknown type", "unknown type '" + abbreviate(typeNode.asText()) + "'");
    }
    JsonNode tsNode = node.get("ts");
    long ts;
    if (tsNode == null) {
      return Parsed.reject("bad ts", "missing ts");
    } else if (tsNode.isIntegralNumber() && tsNode.canConvertToLong()) {
      ts = tsNode.asLong();
    } else if (tsNode.isTextual()) {
      try {
        ts = isoMillis(tsNode.asText());
      } catch (DateTimeParseException | ArithmeticException e) {
        return Parsed.reject(
            "bad ts",
            "bad ts '"
                + abbreviate(tsNode.asText())
                + "': expected ISO-8601 like 2026-09-01T20:15:03Z");
      }
    } else {
      return Parsed.reject("bad ts", "ts must be an ISO-8601 string or epoch milliseconds");
    }
    if (ts < 0 || ts >= MAX_TS) {
      return Parsed.reject("bad ts", "ts out of range");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (Behaviour.Field f : type.get().fields()) {
      JsonNode v = node.get(f.name());
      if ((v == null || v.isNull()) && !type.get().builtIn()) {
        continue; // a declared behaviour's fields are optional: fields added later are absent
      }
      if (v == null || v.isNull()) {
        return Parsed.reject(
            "missing field", "missing field '" + f.name() + "' for " + type.get().label());
      }
      String normalised = normalise(f, v);
      if (normalised == null) {
        return Parsed.reject(
            "bad field value",
            "field '"
                + f.name()
                + "' must be "
                + switch (f.kind()) {
                  case TEXT ->
                      "a string of 1.." + MAX_TEXT_CHARS + " characters without control characters";
                  case COUNT -> "a non-negative integer";
                  case MONEY -> "a non-negative amount with at most 2 decimals";
                });
      }
      fields.put(f.name(), normalised);
    }
    if (fields.isEmpty()) {
      // A record is stored as its field cells: one with none would leave nothing to read back.
      return Parsed.reject(
          "missing field", "a " + type.get().label() + " record needs at least one of its fields");
    }
    Map<String, String> extras = new TreeMap<>();
    String problem = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String name = e.getKey();
      if (OWN_KEYS.contains(name) || fields.containsKey(name) || e.getValue().isNull()) {
        continue;
      }
      if (name.equals(EXTRA) && e.getValue().isObject()) {
        // The API's shape: the extras in one object. Any other "extra" is an extra of that name.
        for (Iterator<Map.Entry<String, JsonNode>> x = e.getValue().fields();
            x.hasNext() && problem == null; ) {
          Map.Entry<String, JsonNode> n = x.next();
          problem = extra(n.getKey(), n.getValue(), type.get(), extras);
        }
      } else {
        problem = extra(name, e.getValue(), type.get(), extras);
      }
      if (problem != null) {
        return Parsed.reject(
            problem.startsWith("more than") ? "too many extra fields" : "bad extra field", problem);
      }
    }
    return Parsed.ok(new Event(uid, type.get(), ts, fields, extras));
  }

  /**
   * Keeps one extra field (JSON null: none) in {@code extras}; null, or what is wrong with it or
   * with their number.
   */
  private static String extra(String name, JsonNode v, Behaviour type, Map<String, String> extras) {
    if (v.isNull()) {
      return null;
    }
    if (!EXTRA_NAME.matcher(name).matches()) {
      return "extra field '"
          + abbreviate(name)
          + "': a name is a letter or '_', then up to 63 letters, digits or '_'";
    }
    // A string as it is; a number or boolean as JSON writes it; an object or array as JSON text.
    String text = v.isValueNode() ? v.asText() : v.toString();
    String problem = Ids.textProblem(text, MAX_TEXT_CHARS, false);
    if (problem != null) {
      return "extra field '" + name + "' " + problem;
    }
    extras.put(name, text);
    return extras.size() > MAX_EXTRAS
        ? "more than " + MAX_EXTRAS + " fields that " + type.label() + " does not declare"
        : null;
  }

  /**
   * Epoch milliseconds of an ISO-8601 instant, as {@link Instant#parse} reads it. The generator's
   * and most loggers' shape ({@code 2026-09-01T20:15:03Z}, optionally {@code .123} before the
   * {@code Z}) is read digit by digit: {@code Instant.parse} was a seventh of the bulk load's map
   * CPU. Anything else, out-of-range fields included, goes to {@code Instant.parse}, which accepts
   * or rejects it.
   */
  static long isoMillis(String s) {
    int n = s.length();
    if ((n == 20 || n == 24)
        && s.charAt(4) == '-'
        && s.charAt(7) == '-'
        && s.charAt(10) == 'T'
        && s.charAt(13) == ':'
        && s.charAt(16) == ':'
        && s.charAt(n - 1) == 'Z'
        && (n == 20 || s.charAt(19) == '.')) {
      int year = digits(s, 0, 4);
      int month = digits(s, 5, 2);
      int day = digits(s, 8, 2);
      int hour = digits(s, 11, 2);
      int minute = digits(s, 14, 2);
      int second = digits(s, 17, 2);
      int millis = n == 24 ? digits(s, 20, 3) : 0;
      if (year >= 0
          && month >= 1
          && month <= 12
          && day >= 1
          && day <= java.time.Month.of(month).length(java.time.Year.isLeap(year))
          && hour >= 0
          && hour <= 23
          && minute >= 0
          && minute <= 59
          && second >= 0
          && second <= 59
          && millis >= 0) {
        long days = java.time.LocalDate.of(year, month, day).toEpochDay();
        return days * 86_400_000L + hour * 3_600_000L + minute * 60_000L + second * 1_000L + millis;
      }
    }
    return Instant.parse(s).toEpochMilli();
  }

  /** The decimal number of {@code count} ASCII digits at {@code from}, or -1 if one is not. */
  private static int digits(String s, int from, int count) {
    int v = 0;
    for (int i = from; i < from + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** The value in canonical text, or null if it does not fit the field's kind. */
  static String normalise(Behaviour.Field f, JsonNode v) {
    switch (f.kind()) {
      case TEXT -> {
        if (!v.isTextual() || textProblem(v.asText(), MAX_TEXT_CHARS) != null) {
          return null;
        }
        return v.asText();
      }
      case COUNT -> {
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
          return null;
        }
        return Long.toString(v.asLong());
      }
      default -> {
        BigDecimal d;
        try {
          d =
              v.isNumber()
                  ? v.decimalValue()
                  : v.isTextual() ? new BigDecimal(v.asText().trim()) : null;
        } catch (NumberFormatException e) {
          return null;
        }
        if (d == null
            || d.signum() < 0
            || d.stripTrailingZeros().scale() > 2
            || d.compareTo(BigDecimal.valueOf(1_000_000_000L)) > 0) {
          return null;
        }
        return d.setScale(2, RoundingMode.UNNECESSARY).toPlainString();
      }
    }
  }

  /**
   * Null if fine, else what is wrong with a text value (the platform's free-text rule, not empty).
   */
  static String textProblem(String s, int maxChars) {
    return s.isEmpty() ? "is empty" : Ids.textProblem(s, maxChars, false);
  }

  /** Null if fine, else what is wrong with a uid (the platform's id rule: also not blank). */
  static String uidProblem(String uid) {
    String problem = textProblem(uid, Event.MAX_UID_CHARS);
    return problem == null && uid.isBlank() ? "is blank" : problem;
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }
}
