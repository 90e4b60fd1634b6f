package org.casebook.tsdb;

import org.casebook.core.InvalidInputException;

/**
 * Settings of the time-series store.
 *
 * @param saltBuckets 0 for no salt, else 2..256 leading buckets (data table pre-split to match);
 *     fixed when the tables are first created, and checked against them afterwards
 * @param maxTags the most tags a point may carry (OpenTSDB's {@code tsd.storage.max_tags})
 * @param compactionDelaySeconds how long after an hour ends its rows are compacted
 * @param maxFutureSeconds how far in the future a timestamp may be
 */
public record TsdbConfig(
    int saltBuckets, int maxTags, int compactionDelaySeconds, long maxFutureSeconds) {
  public TsdbConfig {
    if (saltBuckets != 0 && (saltBuckets < 2 || saltBuckets > 256)) {
      throw new InvalidInputException("saltBuckets", "salt buckets must be 0 or 2..256");
    }
    if (maxTags < 1 || maxTags > 32) {
      throw new InvalidInputException("maxTags", "max tags must be 1..32");
    }
    if (compactionDelaySeconds < 0) {
      throw new InvalidInputException("compactionDelaySeconds", "must be >= 0");
    }
    if (maxFutureSeconds < 0) {
      throw new InvalidInputException("maxFutureSeconds", "must be >= 0");
    }
  }

  /** No salt, 8 tags (as OpenTSDB), compaction a minute after the hour, a day into the future. */
  public static TsdbConfig defaults() {
    return new TsdbConfig(0, 8, 60, 86_400);
  }

  /**
   * Defaults overridden by {@code CASEBOOK_TSDB_SALT_BUCKETS}, {@code CASEBOOK_TSDB_MAX_TAGS} and
   * {@code CASEBOOK_TSDB_COMPACTION_DELAY_SECONDS} when set.
   */
  public static TsdbConfig fromEnvironment() {
    TsdbConfig d = defaults();
    return new TsdbConfig(
        intEnv("CASEBOOK_TSDB_SALT_BUCKETS", d.saltBuckets()),
        intEnv("CASEBOOK_TSDB_MAX_TAGS", d.maxTags()),
        intEnv("CASEBOOK_TSDB_COMPACTION_DELAY_SECONDS", d.compactionDelaySeconds()),
        d.maxFutureSeconds());
  }

  public TsdbConfig withSaltBuckets(int buckets) {
    return new TsdbConfig(buckets, maxTags, compactionDelaySeconds, maxFutureSeconds);
  }

  public TsdbConfig withCompactionDelaySeconds(int seconds) {
    return new TsdbConfig(saltBuckets, maxTags, seconds, maxFutureSeconds);
  }

  private static int intEnv(String name, int fallback) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new InvalidInputException(name, name + " must be an integer, got '" + v + "'");
    }
  }
}
