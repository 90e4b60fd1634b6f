package org.casebook.core.settings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The text of a setting that is a list of rules, {@code NAME=VALUE,...} (such as a retention per
 * metric prefix or per document type): each rule's name and value, in the order written, checked
 * for form and for a name given twice. What a name and a value may be is the caller's to check.
 */
public final class NamedRules {
  private NamedRules() {}

  /**
   * The rules of {@code text} (empty text: none).
   *
   * @param nameWord what a name is, for messages: {@code PREFIX}, {@code TYPE}
   * @param example a well-formed list, for messages
   * @throws IllegalArgumentException naming the rule at fault
   */
  public static Map<String, String> parse(String text, String nameWord, String example) {
    String t = text == null ? "" : text.strip();
    Map<String, String> rules = new LinkedHashMap<>();
    if (t.isEmpty()) {
      return rules;
    }
    for (String part : t.split(",")) {
      String p = part.strip();
      int eq = p.lastIndexOf('=');
      if (eq <= 0 || eq == p.length() - 1) {
        throw new IllegalArgumentException(
            "each rule is " + nameWord + "=DURATION (such as " + example + "), got '" + p + "'");
      }
      String name = p.substring(0, eq).strip();
      if (rules.put(name, p.substring(eq + 1).strip()) != null) {
        throw new IllegalArgumentException(
            nameWord.toLowerCase(java.util.Locale.ROOT) + " '" + name + "' has two rules");
      }
    }
    return Collections.unmodifiableMap(rules);
  }

  /**
   * A duration of a rule, a number and a unit ({@code h}, {@code d}, {@code w}, {@code y} of 365
   * days), in milliseconds: at least one unit, at most a thousand years.
   *
   * @param rule the whole rule, for messages
   * @throws IllegalArgumentException naming the rule
   */
  public static long durationMs(String duration, String rule) {
    String d = duration.strip();
    if (d.length() < 2) {
      throw new IllegalArgumentException("rule '" + rule + "': a duration is a number and a unit");
    }
    long n;
    try {
      n = Long.parseLong(d.substring(0, d.length() - 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "rule '" + rule + "': a duration is a number and a unit (h, d, w, y)", e);
    }
    long unit =
        switch (d.charAt(d.length() - 1)) {
          case 'h' -> 3_600_000L;
          case 'd' -> 86_400_000L;
          case 'w' -> 7 * 86_400_000L;
          case 'y' -> 365 * 86_400_000L;
          default ->
              throw new IllegalArgumentException(
                  "rule '" + rule + "': the unit is h, d, w or y, got '" + d + "'");
        };
    if (n < 1 || n > 1000L * 365 * 86_400_000L / unit) {
      throw new IllegalArgumentException(
          "rule '" + rule + "': the number must be 1 or more, and at most a thousand years");
    }
    return n * unit;
  }
}
