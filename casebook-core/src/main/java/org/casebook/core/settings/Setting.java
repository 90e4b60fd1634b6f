package org.casebook.core.settings;

import java.time.ZoneId;
import java.util.Objects;
import java.util.function.Function;

/**
 * One setting a system declares in its descriptor: a name, what kind of value it takes, its default
 * and one line of help. Its key is {@code <system>.<name>} (in a settings file and {@code --set}),
 * its environment variable {@code CASEBOOK_<SYSTEM>_<NAME>} with dashes as underscores.
 *
 * @param name lower-case words joined by dashes, e.g. {@code salt-buckets}
 * @param type what the value is, for people: {@code integer 0..256}, {@code time zone}
 * @param defaultValue the value when no source sets one
 * @param help one line
 * @param parser turns text into a value, throwing {@link IllegalArgumentException} with a message
 *     saying what is accepted when it cannot
 */
public record Setting<T>(
    String name, String type, T defaultValue, String help, Function<String, T> parser) {
  public Setting {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(type, "type is null");
    Objects.requireNonNull(defaultValue, "defaultValue is null");
    Objects.requireNonNull(help, "help is null");
    Objects.requireNonNull(parser, "parser is null");
    if (!name.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*") || name.length() > 60) {
      throw new IllegalArgumentException(
          "setting name must be lower-case words and dashes: " + name);
    }
  }

  /** An integer in {@code min..max}. */
  public static Setting<Integer> ofInt(
      String name, int defaultValue, int min, int max, String help) {
    Setting<Long> asLong = ofLong(name, defaultValue, min, max, help);
    return new Setting<>(
        name, asLong.type(), defaultValue, help, text -> asLong.parser().apply(text).intValue());
  }

  /** A long in {@code min..max}. */
  public static Setting<Long> ofLong(
      String name, long defaultValue, long min, long max, String help) {
    check(defaultValue >= min && defaultValue <= max, name, "default outside " + min + ".." + max);
    return new Setting<>(
        name,
        "integer " + min + ".." + max,
        defaultValue,
        help,
        text -> {
          long v;
          try {
            v = Long.parseLong(text.strip());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be an integer, got '" + text + "'", e);
          }
          if (v < min || v > max) {
            throw new IllegalArgumentException("must be " + min + ".." + max + ", got " + v);
          }
          return v;
        });
  }

  /** {@code true} or {@code false}. */
  public static Setting<Boolean> ofBoolean(String name, boolean defaultValue, String help) {
    return new Setting<>(
        name,
        "true or false",
        defaultValue,
        help,
        text -> {
          String t = text.strip();
          if (t.equalsIgnoreCase("true")) {
            return true;
          }
          if (t.equalsIgnoreCase("false")) {
            return false;
          }
          throw new IllegalArgumentException("must be true or false, got '" + text + "'");
        });
  }

  /** A time zone: an IANA id ({@code Asia/Shanghai}) or an offset ({@code +08:00}). */
  public static Setting<ZoneId> ofZone(String name, ZoneId defaultValue, String help) {
    return new Setting<>(
        name,
        "time zone",
        defaultValue,
        help,
        text -> {
          try {
            return ZoneId.of(text.strip());
          } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException(
                "must be a time zone such as Asia/Shanghai or +08:00, got '" + text + "'", e);
          }
        });
  }

  /**
   * {@code namespace}: the HBase namespace of a system's tables (1–64 letters, digits or
   * underscores, as HBase allows), so that a second instance — a benchmark's, a test's — keeps
   * tables of its own on the same HBase.
   */
  public static Setting<String> ofNamespace(String defaultValue, String help) {
    return ofText(
        "namespace",
        defaultValue,
        "HBase namespace",
        help,
        text -> {
          String ns = text.strip();
          if (!ns.matches("[A-Za-z0-9_]{1,64}")) {
            throw new IllegalArgumentException(
                "must be 1-64 letters, digits or underscores (an HBase namespace), got '"
                    + text
                    + "'");
          }
          return ns;
        });
  }

  /** Text that {@code check} accepts (it throws {@link IllegalArgumentException} otherwise). */
  public static Setting<String> ofText(
      String name, String defaultValue, String type, String help, Function<String, String> check) {
    return new Setting<>(name, type, check.apply(defaultValue), help, check);
  }

  /** {@code <scope>.<name>}: the key in a settings file and in {@code --set}. */
  public String key(String scope) {
    return scope + "." + name;
  }

  /** {@code CASEBOOK_<SCOPE>_<NAME>}, upper case, dashes as underscores. */
  public String environmentVariable(String scope) {
    return ("CASEBOOK_" + scope + "_" + name).toUpperCase(java.util.Locale.ROOT).replace('-', '_');
  }

  /** The value as it is written in a source (the inverse of the parser, for printing). */
  public String render(Object value) {
    return String.valueOf(value);
  }

  private static void check(boolean ok, String name, String message) {
    if (!ok) {
      throw new IllegalArgumentException(name + ": " + message);
    }
  }
}
