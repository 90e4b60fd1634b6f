package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import org.casebook.core.InvalidInputException;
import org.casebook.core.settings.NamedRules;

/**
 * How long points are kept, by metric name prefix (the per-metric TTL OpenTSDB's users ask for):
 * the longest prefix that a metric starts with decides; {@code *} matches every metric; a metric no
 * rule matches is kept forever. Written as in the setting: {@code sys.=30d,*=2y}.
 *
 * <p>One table holds every metric, so a family TTL cannot tell them apart; the data rows lead with
 * the metric and then the hour, so each metric's expired hours are one bounded key range that a
 * purge deletes ({@link PointStore#purgeBefore}).
 */
public record TsdbRetention(List<Rule> rules) {
  /** No rule: every point kept forever (OpenTSDB's own behaviour). */
  public static final TsdbRetention FOREVER = new TsdbRetention(List.of());

  /**
   * One rule.
   *
   * @param prefix a metric name prefix, or {@code *} for every metric
   * @param keepMs how long points are kept
   * @param written the duration as written, e.g. {@code 30d}
   */
  public record Rule(String prefix, long keepMs, String written) {
    boolean matches(String metric) {
      return prefix.equals("*") || metric.startsWith(prefix);
    }

    int specificity() {
      return prefix.equals("*") ? -1 : prefix.length();
    }
  }

  public TsdbRetention {
    rules = List.copyOf(rules);
  }

  /** Reads {@code PREFIX=DURATION,...}; empty text is {@link #FOREVER}. */
  public static TsdbRetention parse(String text) {
    List<Rule> rules = new ArrayList<>();
    NamedRules.parse(text, "PREFIX", "sys.=30d or *=2y")
        .forEach(
            (prefix, duration) -> {
              String rule = prefix + "=" + duration;
              long ms;
              try {
                ms = TsdbDuration.parseMillis(duration, "retention");
              } catch (InvalidInputException e) {
                throw new IllegalArgumentException(
                    "rule '" + rule + "': " + e.getMessage() + " (units h, d, w, n, y)", e);
              }
              if (ms < 3_600_000L) {
                throw new IllegalArgumentException(
                    "rule '" + rule + "': points are purged by the hour, so keep at least 1h");
              }
              rules.add(new Rule(prefix, ms, duration));
            });
    return rules.isEmpty() ? FOREVER : new TsdbRetention(rules);
  }

  /** How long {@code metric}'s points are kept; empty: forever. */
  public OptionalLong keepMs(String metric) {
    return rules.stream()
        .filter(r -> r.matches(metric))
        .max(Comparator.comparingInt(Rule::specificity))
        .map(r -> OptionalLong.of(r.keepMs()))
        .orElse(OptionalLong.empty());
  }

  public boolean keepsEverything() {
    return rules.isEmpty();
  }

  /** The setting's text (empty for {@link #FOREVER}). */
  @Override
  public String toString() {
    return String.join(",", rules.stream().map(r -> r.prefix() + "=" + r.written()).toList());
  }
}
