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
              rules.put(type, NamedRules.durationMs(duration, type + "=" + duration));
            });
    return rules.isEmpty() ? FOREVER : new DocsRetention(rules);
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
