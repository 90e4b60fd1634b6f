package org.casebook.tsdb;

import java.util.Map;
import org.casebook.core.InvalidInputException;

/**
 * A point as sent (telnet {@code put} or HTTP {@code /api/put}), checked as OpenTSDB 2.4 checks it;
 * the messages use OpenTSDB's wording, because collectors log them.
 *
 * @param millis whether the timestamp was sent in milliseconds (13 digits)
 * @param narrowFloat whether a float value is stored in 4 bytes (its text fits a float exactly)
 */
record IncomingPoint(
    String metric,
    long timestampMs,
    boolean millis,
    DataPoint value,
    boolean narrowFloat,
    Map<String, String> tags) {
  static final int MAX_NAME_CHARS = 256;

  IncomingPoint {
    // Parsed points own their (small, fresh) tag map: no copy on the write path.
    tags = java.util.Collections.unmodifiableMap(tags);
  }

  /** Parses and checks one point; an {@link InvalidInputException} names what is wrong. */
  static IncomingPoint parse(
      String metric, String timestamp, String value, Map<String, String> tags, Limits limits) {
    if (metric == null || metric.isEmpty()) {
      throw new InvalidInputException("metric", "empty metric name");
    }
    checkName("metric name", metric, "metric");
    if (timestamp == null || timestamp.isEmpty()) {
      throw new InvalidInputException("timestamp", "empty timestamp");
    }
    long ts = parseTimestamp(timestamp);
    boolean millis = timestamp.length() > 10;
    long tsMs = millis ? ts : ts * 1000;
    if (tsMs > limits.nowMs() + limits.maxFutureMs()) {
      throw new InvalidInputException(
          "timestamp", "timestamp=" + timestamp + " is too far in the future");
    }
    if (value == null || value.isEmpty()) {
      throw new InvalidInputException("value", "empty value");
    }
    if (tags.isEmpty()) {
      throw new InvalidInputException(
          "tags", "Need at least one tag (metric=" + metric + ", tags=" + tags + ")");
    }
    if (tags.size() > limits.maxTags()) {
      throw new InvalidInputException(
          "tags",
          "Too many tags: "
              + tags.size()
              + " maximum allowed: "
              + limits.maxTags()
              + ", tags: "
              + tags);
    }
    for (Map.Entry<String, String> t : tags.entrySet()) {
      checkName("tag name with value [" + t.getValue() + "]", t.getKey(), "tags");
      checkName("tag value with key [" + t.getKey() + "]", t.getValue(), "tags");
    }
    DataPoint dp;
    boolean narrow = false;
    if (looksLikeInteger(value)) {
      try {
        dp = DataPoint.ofLong(tsMs, Long.parseLong(value));
      } catch (NumberFormatException e) {
        String bare = value.replaceFirst("^[+-]", "");
        if (bare.equalsIgnoreCase("NaN") || bare.equalsIgnoreCase("Infinity")) {
          throw new InvalidInputException(
              "value", "value is NaN or Infinite: " + value + " for metric=" + metric);
        }
        throw new InvalidInputException(
            "value", "Unable to parse value to a number: " + value + " (not a 64-bit integer)");
      }
    } else {
      double d;
      try {
        d = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new InvalidInputException("value", "Unable to parse value to a number: " + value);
      }
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new InvalidInputException(
            "value", "value is NaN or Infinite: " + value + " for metric=" + metric);
      }
      if (!isDecimalText(value)) {
        throw new InvalidInputException("value", "Unable to parse value to a number: " + value);
      }
      narrow = (float) d == d;
      dp = DataPoint.ofDouble(tsMs, narrow ? (float) d : d);
    }
    return new IncomingPoint(metric, tsMs, millis, dp, narrow, tags);
  }

  private static long parseTimestamp(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '-' && i == 0) {
        throw new InvalidInputException("timestamp", "invalid timestamp: " + text);
      }
      if (c < '0' || c > '9') {
        throw new InvalidInputException("timestamp", "invalid timestamp: " + text);
      }
    }
    if (text.length() != 10 && text.length() != 13) {
      throw new InvalidInputException(
          "timestamp",
          "bad timestamp=" + text + ": a timestamp is 10 digits (seconds) or 13 (milliseconds)");
    }
    long ts = Long.parseLong(text);
    if (ts <= 0) {
      throw new InvalidInputException("timestamp", "invalid timestamp: " + text);
    }
    return ts;
  }

  /** OpenTSDB's rule: no '.', 'e' or 'E' means an integer. */
  private static boolean looksLikeInteger(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '.' || c == 'e' || c == 'E') {
        return false;
      }
    }
    return true;
  }

  /**
   * Decimal text only ({@code [+-]digits[.digits][(e|E)[+-]digits]}): Java's parser also takes
   * "0x1p3", "1f", "Infinity".
   */
  private static boolean isDecimalText(String value) {
    int i = 0;
    int n = value.length();
    if (i < n && (value.charAt(i) == '+' || value.charAt(i) == '-')) {
      i++;
    }
    int digits = 0;
    while (i < n && Character.isDigit(value.charAt(i)) && value.charAt(i) < 128) {
      i++;
      digits++;
    }
    if (i < n && value.charAt(i) == '.') {
      i++;
      while (i < n && value.charAt(i) >= '0' && value.charAt(i) <= '9') {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (i < n && (value.charAt(i) == 'e' || value.charAt(i) == 'E')) {
      i++;
      if (i < n && (value.charAt(i) == '+' || value.charAt(i) == '-')) {
        i++;
      }
      int exponent = 0;
      while (i < n && value.charAt(i) >= '0' && value.charAt(i) <= '9') {
        i++;
        exponent++;
      }
      if (exponent == 0) {
        return false;
      }
    }
    return i == n;
  }

  /** OpenTSDB's character rule for names: letters, digits, and {@code - _ . /}. */
  static void checkName(String what, String s, String field) {
    if (s == null || s.isEmpty()) {
      throw new InvalidInputException(field, "Invalid " + what + ": empty string");
    }
    if (s.length() > MAX_NAME_CHARS) {
      throw new InvalidInputException(
          field, "Invalid " + what + ": longer than " + MAX_NAME_CHARS + " characters");
    }
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' || c == '/')) {
        throw new InvalidInputException(
            field,
            "Invalid "
                + what
                + " (\""
                + s
                + "\"): illegal character: "
                + new String(Character.toChars(c)));
      }
      i += Character.charCount(c);
    }
  }

  /** What a point is checked against. */
  record Limits(int maxTags, long nowMs, long maxFutureMs) {}
}
