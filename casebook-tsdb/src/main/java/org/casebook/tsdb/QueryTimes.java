package org.casebook.tsdb;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import org.casebook.core.InvalidInputException;

/**
 * Query times as OpenTSDB takes them: {@code now}, relative ({@code 1h-ago}, units ms s m h d w n
 * y), epoch seconds (10 digits) or milliseconds (13, or seconds with a fraction), and {@code
 * yyyy/MM/dd[-HH:mm[:ss]]} in the query's time zone.
 */
final class QueryTimes {
  private static final List<DateTimeFormatter> FORMATS =
      List.of(
          DateTimeFormatter.ofPattern("yyyy/MM/dd-HH:mm:ss", Locale.ROOT),
          DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss", Locale.ROOT),
          DateTimeFormatter.ofPattern("yyyy/MM/dd-HH:mm", Locale.ROOT),
          DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm", Locale.ROOT));
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy/MM/dd");

  private QueryTimes() {}

  /** Milliseconds since the epoch of {@code text}, relative to {@code nowMs}. */
  static long parse(String text, String field, long nowMs, ZoneId zone) {
    if (text == null || text.isBlank()) {
      throw new InvalidInputException(field, "Missing " + field + " time");
    }
    String s = text.strip();
    if (s.equalsIgnoreCase("now")) {
      return nowMs;
    }
    if (s.endsWith("-ago")) {
      return nowMs - TsdbDuration.parseMillis(s.substring(0, s.length() - 4), field);
    }
    if (s.chars().allMatch(c -> c >= '0' && c <= '9' || c == '.')) {
      return epoch(s, field);
    }
    for (DateTimeFormatter f : FORMATS) {
      try {
        return LocalDateTime.parse(s, f).atZone(zone).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        // the next format may fit
      }
    }
    try {
      return LocalDate.parse(s, DATE).atStartOfDay(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(field, "Invalid " + field + " time: " + text);
    }
  }

  private static long epoch(String s, String field) {
    try {
      int dot = s.indexOf('.');
      if (dot >= 0) {
        if (dot != 10 || s.length() > 14 || s.indexOf('.', dot + 1) >= 0) {
          throw new InvalidInputException(field, "Invalid " + field + " time: " + s);
        }
        String ms = (s.substring(dot + 1) + "000").substring(0, 3);
        return Long.parseLong(s.substring(0, dot)) * 1000 + Long.parseLong(ms);
      }
      long v = Long.parseLong(s);
      if (s.length() <= 10) {
        return v * 1000;
      }
      if (s.length() == 13) {
        return v;
      }
    } catch (NumberFormatException e) {
      throw new InvalidInputException(field, "Invalid " + field + " time: " + s);
    }
    throw new InvalidInputException(
        field, "Invalid " + field + " time: " + s + " (10 digits of seconds or 13 of ms)");
  }

  static ZoneId zone(String name) {
    if (name == null || name.isBlank()) {
      return ZoneId.of("UTC");
    }
    try {
      return ZoneId.of(name);
    } catch (DateTimeException e) {
      throw new InvalidInputException("timezone", "Unknown time zone: " + name);
    }
  }
}
