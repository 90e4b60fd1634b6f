package org.casebook.tsdb;

import java.util.Locale;
import org.casebook.core.InvalidInputException;

/**
 * OpenTSDB 2.4's duration syntax ({@code DateTime.parseDuration}), used by downsample intervals and
 * relative times such as {@code 1h-ago}: leading digits, then a unit read from the LAST character
 * only: {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}, {@code w}, {@code n} (30 days),
 * {@code y} (365 days). Anything between the digits and that last character is ignored, as there.
 */
final class TsdbDuration {
  private TsdbDuration() {}

  /** The duration in milliseconds; errors name {@code field}. */
  static long parseMillis(String duration, String field) {
    if (duration == null || duration.isEmpty()) {
      throw new InvalidInputException(field, "Cannot parse null or empty duration");
    }
    int unit = 0;
    while (Character.isDigit(duration.charAt(unit))) {
      unit++;
      if (unit >= duration.length()) {
        throw new InvalidInputException(
            field, "Invalid duration, must have an integer and unit: " + duration);
      }
    }
    long interval;
    try {
      interval = Long.parseLong(duration.substring(0, unit));
    } catch (NumberFormatException e) {
      throw new InvalidInputException(field, "Invalid duration (number): " + duration);
    }
    if (interval <= 0) {
      throw new InvalidInputException(field, "Zero or negative duration: " + duration);
    }
    char unitChar = duration.toLowerCase(Locale.ROOT).charAt(duration.length() - 1);
    if (unitChar == 's' && duration.charAt(duration.length() - 2) == 'm') {
      return interval;
    }
    long multiplier =
        switch (unitChar) {
          case 's' -> 1;
          case 'm' -> 60;
          case 'h' -> 3600;
          case 'd' -> 3600 * 24;
          case 'w' -> 3600 * 24 * 7;
          case 'n' -> 3600 * 24 * 30;
          case 'y' -> 3600 * 24 * 365;
          default ->
              throw new InvalidInputException(field, "Invalid duration (suffix): " + duration);
        };
    multiplier *= 1000;
    if ((double) interval * multiplier > Long.MAX_VALUE) {
      throw new InvalidInputException(field, "Duration must be < Long.MAX_VALUE ms: " + duration);
    }
    return interval * multiplier;
  }
}
