package org.casebook.docs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.casebook.core.settings.NamedRules;

/**
 * How long documents are kept, per type ({@code news=365d,bbs=90d,*=2y}): a document whose last
 * change is older than its type's rule is deleted with its comments and index entry by the purge
 * ({@link DocsService#purgeExpired}). A type no rule names, with no {@code *} rule, is kept
 * forever.
 *
 * <p>A family TTL cannot do it: a document's cells carry its versions, which count 1/32 ms (see
 * {@link VersionClock}), not milliseconds, and an index entry and the comments must go with it.
 */
record DocsRetention(Map<String, Long> keepMsByType) {
  static final DocsRetention FOREVER = new DocsRetention(Map.of());

  DocsRetention {
    keepMsByType = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(keepMsByType));
  }

  /** Reads {@code TYPE=DURATION,...} (units h, d, w, y of 365 days); empty text is forever. */
  static DocsRetention parse(String text) {
    Map<String, Long> rules = new LinkedHashMap<>();
    NamedRules.parse(text, "TYPE", "news=365d or *=2y")
        .forEach(
            (type, duration) -> {
              if (!type.equals("*")) {
                DocLimits.typeName(type, "retention");
              }
              rules.put(type, durationMs(duration, type + "=" + duration));
            });
    return rules.isEmpty() ? FOREVER : new DocsRetention(rules);
  }

  private static long durationMs(String d, String rule) {
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
      throw new IllegalArgumentException("rule '" + rule + "': the number must be 1 or more");
    }
    return n * unit;
  }

  /** How long documents of {@code type} are kept; empty: forever. */
  OptionalLong keepMs(String type) {
    Long ms = keepMsByType.getOrDefault(type, keepMsByType.get("*"));
    return ms == null ? OptionalLong.empty() : OptionalLong.of(ms);
  }

  boolean keepsEverything() {
    return keepMsByType.isEmpty();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    keepMsByType.forEach(
        (type, ms) -> {
          if (b.length() > 0) {
            b.append(',');
          }
          b.append(type)
              .append('=')
              .append(ms % 86_400_000L == 0 ? ms / 86_400_000L + "d" : ms / 3_600_000L + "h");
        });
    return b.toString();
  }
}
