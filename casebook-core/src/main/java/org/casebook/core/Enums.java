package org.casebook.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Parses user-facing enum values: case-insensitive, and a 400 listing the accepted values
 * otherwise.
 */
public final class Enums {
  private Enums() {}

  public static <E extends Enum<E>> E parse(Class<E> type, String value, String field) {
    if (value != null) {
      String wanted = value.trim().replace('-', '_').toUpperCase(Locale.ROOT);
      for (E e : type.getEnumConstants()) {
        if (e.name().equals(wanted)) {
          return e;
        }
      }
    }
    throw new InvalidInputException(
        field, field + " must be one of " + labels(type) + ", got '" + value + "'");
  }

  /** {@code a, b or c} in lower case. */
  public static <E extends Enum<E>> String labels(Class<E> type) {
    String all =
        Arrays.stream(type.getEnumConstants()).map(Enums::label).collect(Collectors.joining(", "));
    int last = all.lastIndexOf(", ");
    return last < 0 ? all : all.substring(0, last) + " or " + all.substring(last + 2);
  }

  /** The lower-case name used in URLs, JSON and the CLI. */
  public static String label(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
