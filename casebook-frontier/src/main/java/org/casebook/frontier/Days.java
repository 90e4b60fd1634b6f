package org.casebook.frontier;

import java.time.LocalDate;

/** Days of the daily statistics: UTC, as days since the epoch in keys and ISO dates outside. */
final class Days {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private Days() {}

  static int of(long millis) {
    return (int) Math.floorDiv(millis, MILLIS_PER_DAY);
  }

  static String iso(int day) {
    return LocalDate.ofEpochDay(day).toString();
  }
}
