package org.casebook.frontier;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.casebook.core.settings.NamedRules;

/**
 * How long a crawl keeps its URLs, per crawl ID ({@code news=30d,*=1y}): a URL first stored longer
 * ago than its crawl's rule is removed as PurgeURLs removes it, by the server hourly and by {@code
 * frontier purge}. A crawl no rule names, with no {@code *} rule, keeps its URLs (as URLFrontier's
 * reference does).
 */
record FrontierRetention(Map<String, Long> keepDaysByCrawl) {
  static final FrontierRetention FOREVER = new FrontierRetention(Map.of());
  private static final long DAY_MS = 86_400_000L;

  FrontierRetention {
    keepDaysByCrawl = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(keepDaysByCrawl));
  }

  /** Reads {@code CRAWL=DURATION,...} in whole days (units d, w, y); empty text is forever. */
  static FrontierRetention parse(String text) {
    Map<String, Long> rules = new LinkedHashMap<>();
    NamedRules.parse(text, "CRAWL", "news=30d or *=1y")
        .forEach(
            (crawl, duration) -> {
              String rule = crawl + "=" + duration;
              if (!crawl.equals("*")) {
                try {
                  UrlRules.crawlId(crawl);
                } catch (RuntimeException e) {
                  throw new IllegalArgumentException(
                      "rule '" + rule + "': not a crawl ID: " + e.getMessage(), e);
                }
              }
              long ms = NamedRules.durationMs(duration, rule);
              if (ms % DAY_MS != 0) {
                throw new IllegalArgumentException(
                    "rule '" + rule + "': URLs are kept in whole days (units d, w, y)");
              }
              rules.put(crawl, ms / DAY_MS);
            });
    return rules.isEmpty() ? FOREVER : new FrontierRetention(rules);
  }

  /** Days the URLs of {@code crawlId} are kept; empty: forever. */
  OptionalLong keepDays(String crawlId) {
    Long days = keepDaysByCrawl.getOrDefault(crawlId, keepDaysByCrawl.get("*"));
    return days == null ? OptionalLong.empty() : OptionalLong.of(days);
  }

  boolean keepsEverything() {
    return keepDaysByCrawl.isEmpty();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    keepDaysByCrawl.forEach(
        (crawl, days) ->
            b.append(b.length() > 0 ? "," : "").append(crawl).append('=').append(days).append('d'));
    return b.toString();
  }
}
