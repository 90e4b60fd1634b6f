package org.casebook.archive.wire;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Weibo's time format, {@code Tue May 31 17:46:55 +0800 2011}, as epoch milliseconds. */
final class WeiboTime {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss Z yyyy", Locale.ROOT);

  private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  private static final String[] MONTHS = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };

  /**
   * Epoch millis of a Weibo time such as {@code Tue May 31 17:46:55 +0800 2011}. The exact shape is
   * decoded by position (the formatter's text lookups dominated import profiles); anything else
   * goes to the formatter, which accepts or rejects it with the same rules.
   */
  static long parse(String t) {
    if (t.length() == 30
        && t.charAt(3) == ' '
        && t.charAt(7) == ' '
        && t.charAt(10) == ' '
        && t.charAt(13) == ':'
        && t.charAt(16) == ':'
        && t.charAt(19) == ' '
        && t.charAt(25) == ' '
        && (t.charAt(20) == '+' || t.charAt(20) == '-')) {
      int day = indexOf(DAYS, t.substring(0, 3));
      int month = indexOf(MONTHS, t.substring(4, 7));
      int dom = digits(t, 8, 2);
      int hour = digits(t, 11, 2);
      int minute = digits(t, 14, 2);
      int second = digits(t, 17, 2);
      int offH = digits(t, 21, 2);
      int offM = digits(t, 23, 2);
      int year = digits(t, 26, 4);
      if (day >= 0
          && month >= 0
          && dom > 0
          && hour >= 0
          && hour < 24
          && minute >= 0
          && minute < 60
          && second >= 0
          && second < 60
          && offH >= 0
          && offH < 18
          && offM >= 0
          && offM < 60
          && year > 0) {
        try {
          java.time.LocalDate date = java.time.LocalDate.of(year, month + 1, dom);
          if (date.getDayOfWeek().getValue() == day + 1) {
            int sign = t.charAt(20) == '-' ? -1 : 1;
            java.time.ZoneOffset offset =
                java.time.ZoneOffset.ofHoursMinutes(sign * offH, sign * offM);
            return date.atTime(hour, minute, second).toEpochSecond(offset) * 1000L;
          }
        } catch (java.time.DateTimeException e) {
          // Not a real date: the formatter below reports it.
        }
      }
    }
    return ZonedDateTime.parse(t, FORMAT).toInstant().toEpochMilli();
  }

  private static int indexOf(String[] names, String s) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(s)) {
        return i;
      }
    }
    return -1;
  }

  private static int digits(String s, int from, int n) {
    int v = 0;
    for (int i = from; i < from + n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private WeiboTime() {}
}
