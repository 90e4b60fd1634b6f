package org.casebook.tsdb;

import java.util.LinkedHashMap;
import java.util.Map;
import org.casebook.core.InvalidInputException;

/**
 * A point as sent (telnet {@code put}, HTTP {@code /api/put} or an import file line), checked as
 * OpenTSDB 2.4 checks it; the messages use OpenTSDB's wording, because collectors log them. Each
 * protocol's parser makes these, and the service writes them.
 *
 * @param millis whether the timestamp was sent in milliseconds (13 digits)
 * @param narrowFloat whether a float value is stored in 4 bytes (its text fits a float exactly)
 */
public record IncomingPoint(
    String metric,
    long timestampMs,
    boolean millis,
    DataPoint value,
    boolean narrowFloat,
    Map<String, String> tags) {
  public IncomingPoint {
    // Parsed points own their (small, fresh) tag map: no copy on the write path.
    tags = java.util.Collections.unmodifiableMap(tags);
  }

  /**
   * The point of a {@code put} line's words (the command first, then metric, timestamp, value and
   * {@code tagk=tagv} pairs), as telnet sends it and an import file holds it (with {@code put} put
   * in front).
   */
  public static IncomingPoint fromPutWords(String[] words, Limits limits) {
    if (words.length < 5) {
      throw new InvalidInputException(
          "line", "not enough arguments (need least 4, got " + (words.length - 1) + ")");
    }
    Map<String, String> tags = new LinkedHashMap<>();
    for (int i = 4; i < words.length; i++) {
      Tags.parse(tags, words[i]);
    }
    return parse(words[1], words[2], words[3], tags, limits);
  }

  /** Parses and checks one point; an {@link InvalidInputException} names what is wrong. */
  public static IncomingPoint parse(
      String metric, String timestamp, String value, Map<String, String> tags, Limits limits) {
    if (metric == null || metric.isEmpty()) {
      throw new InvalidInputException("metric", "empty metric name");
    }
    Tags.checkName("metric name", metric, "metric");
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
      Tags.checkName("tag name with value [" + t.getValue() + "]", t.getKey(), "tags");
      Tags.checkName("tag value with key [" + t.getKey() + "]", t.getValue(), "tags");
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

  /**
   * What a point is checked against.
   *
   * @param maxTags the most tags a point may carry
   * @param nowMs the time now
   * @param maxFutureMs how far after now a timestamp may be
   */
  public record Limits(int maxTags, long nowMs, long maxFutureMs) {}
}
