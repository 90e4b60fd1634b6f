package org.casebook.tsdb;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.casebook.core.InvalidInputException;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SystemSettings;

/**
 * How the time-series store runs: its declared settings' values, and limits that are not settings.
 *
 * @param namespace the HBase namespace of the {@code uid} and {@code data} tables
 * @param saltBuckets 0 for no salt, else 2..256 leading buckets (data table pre-split to match);
 *     fixed when the tables are first used, and checked against them afterwards
 * @param maxTags the most tags a point may carry (OpenTSDB's {@code tsd.storage.max_tags})
 * @param compactionDelaySeconds how long after an hour ends its rows are compacted
 * @param backgroundCompaction whether finished hours are compacted in the background (OpenTSDB's
 *     {@code tsd.storage.enable_compaction}); {@code tsdb compact} compacts on request either way
 * @param maxFutureSeconds how far in the future a timestamp may be
 * @param allowDelete whether a query may delete what it reads (OpenTSDB's {@code
 *     tsd.http.query.allow_delete})
 * @param retention how long each metric's points are kept, by metric name prefix
 * @param queryLimits how much one query may read, and for how long
 */
public record TsdbConfig(
    String namespace,
    int saltBuckets,
    int maxTags,
    int compactionDelaySeconds,
    boolean backgroundCompaction,
    long maxFutureSeconds,
    boolean allowDelete,
    TsdbRetention retention,
    QueryLimits queryLimits) {

  static final Setting<String> NAMESPACE =
      Setting.ofNamespace(
          TsdbSchema.DEFAULT_NAMESPACE,
          "The HBase namespace of the uid and data tables (as OpenTSDB's"
              + " tsd.storage.hbase.data_table names its table); created when first used.");

  static final Setting<Integer> SALT_BUCKETS =
      new Setting<>(
          "salt-buckets",
          "0 or integer 2..256",
          0,
          "Leading salt buckets of the data rows (0: no salt); fixed when the tables are first"
              + " used.",
          TsdbConfig::parseSaltBuckets);

  static final Setting<Integer> MAX_TAGS =
      Setting.ofInt(
          "max-tags",
          8,
          1,
          32,
          "The most tags a point may carry (OpenTSDB's tsd.storage.max_tags).");

  static final Setting<Integer> COMPACTION_DELAY_SECONDS =
      Setting.ofInt(
          "compaction-delay-seconds",
          60,
          0,
          366 * 86_400,
          "Seconds after an hour ends before its rows are merged into one cell each.");

  static final Setting<Boolean> ENABLE_COMPACTION =
      Setting.ofBoolean(
          "enable-compaction",
          true,
          "Whether finished hours are compacted in the background (OpenTSDB's"
              + " tsd.storage.enable_compaction); `tsdb compact` compacts on request either way.");

  static final Setting<Boolean> ALLOW_DELETE =
      Setting.ofBoolean(
          "allow-delete",
          false,
          "Whether a query with delete=true deletes the points it reads (OpenTSDB's"
              + " tsd.http.query.allow_delete); refused with a 400 while false. `tsdb delete`"
              + " deletes either way.");

  static final Setting<TsdbRetention> RETENTION =
      new Setting<>(
          "retention",
          "PREFIX=DURATION,... (empty: keep forever)",
          TsdbRetention.FOREVER,
          "How long points are kept, by metric name prefix: sys.=30d,*=2y keeps sys.* metrics 30"
              + " days and every other metric 2 years (the longest matching prefix decides; *"
              + " matches every metric; units as OpenTSDB's: h, d, w, n (30 days), y). Older"
              + " hours are purged hourly in the background and by `tsdb purge`.",
          TsdbRetention::parse);

  static final Setting<Long> QUERY_MAX_POINTS =
      Setting.ofLong(
          "query-max-points",
          QueryLimits.DEFAULTS.maxPoints(),
          0,
          Long.MAX_VALUE,
          "The most data points one query may read (OpenTSDB's"
              + " tsd.query.limits.data_points.default); past it the query stops reading and is"
              + " answered 413. 0: no limit.");

  static final Setting<Integer> QUERY_MAX_SERIES =
      Setting.ofInt(
          "query-max-series",
          QueryLimits.DEFAULTS.maxSeries(),
          0,
          Integer.MAX_VALUE,
          "The most time series one query may read; past it the query stops reading and is"
              + " answered 413. 0: no limit.");

  static final Setting<QueryLimits.Timeout> QUERY_TIMEOUT =
      new Setting<>(
          "query-timeout",
          "duration (500ms, 30s, 2m) or 0",
          new QueryLimits.Timeout(QueryLimits.DEFAULTS.timeout()),
          "How long one query may run (OpenTSDB's tsd.query.timeout); past it the query stops"
              + " reading and is answered 413. 0: no limit.",
          QueryLimits.Timeout::parse);

  /** The settings the system declares, in the order {@code config} lists them. */
  static final List<Setting<?>> SETTINGS =
      List.of(
          NAMESPACE,
          SALT_BUCKETS,
          MAX_TAGS,
          COMPACTION_DELAY_SECONDS,
          ENABLE_COMPACTION,
          ALLOW_DELETE,
          RETENTION,
          QUERY_MAX_POINTS,
          QUERY_MAX_SERIES,
          QUERY_TIMEOUT);

  private static final long MAX_FUTURE_SECONDS = 86_400;

  public TsdbConfig {
    try {
      namespace = NAMESPACE.parser().apply(Objects.requireNonNull(namespace, "namespace is null"));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("namespace", "namespace " + e.getMessage());
    }
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
    Objects.requireNonNull(retention, "retention is null");
    Objects.requireNonNull(queryLimits, "queryLimits is null");
  }

  /**
   * Namespace {@code tsdb}, no salt, 8 tags (as OpenTSDB), compaction in the background a minute
   * after the hour, a day into the future, no deleting queries, points kept forever: every setting
   * at its default.
   */
  public static TsdbConfig defaults() {
    return new TsdbConfig(
        TsdbSchema.DEFAULT_NAMESPACE,
        0,
        8,
        60,
        true,
        MAX_FUTURE_SECONDS,
        false,
        TsdbRetention.FOREVER,
        QueryLimits.DEFAULTS);
  }

  /** The effective values of the system's settings. */
  static TsdbConfig from(SystemSettings settings) {
    return new TsdbConfig(
        settings.get(NAMESPACE),
        settings.get(SALT_BUCKETS),
        settings.get(MAX_TAGS),
        settings.get(COMPACTION_DELAY_SECONDS),
        settings.get(ENABLE_COMPACTION),
        MAX_FUTURE_SECONDS,
        settings.get(ALLOW_DELETE),
        settings.get(RETENTION),
        new QueryLimits(
            settings.get(QUERY_MAX_POINTS),
            settings.get(QUERY_MAX_SERIES),
            settings.get(QUERY_TIMEOUT).value()));
  }

  public TsdbConfig withNamespace(String value) {
    return new TsdbConfig(
        value,
        saltBuckets,
        maxTags,
        compactionDelaySeconds,
        backgroundCompaction,
        maxFutureSeconds,
        allowDelete,
        retention,
        queryLimits);
  }

  public TsdbConfig withSaltBuckets(int buckets) {
    return new TsdbConfig(
        namespace,
        buckets,
        maxTags,
        compactionDelaySeconds,
        backgroundCompaction,
        maxFutureSeconds,
        allowDelete,
        retention,
        queryLimits);
  }

  public TsdbConfig withAllowDelete(boolean allow) {
    return new TsdbConfig(
        namespace,
        saltBuckets,
        maxTags,
        compactionDelaySeconds,
        backgroundCompaction,
        maxFutureSeconds,
        allow,
        retention,
        queryLimits);
  }

  public TsdbConfig withRetention(TsdbRetention rules) {
    return new TsdbConfig(
        namespace,
        saltBuckets,
        maxTags,
        compactionDelaySeconds,
        backgroundCompaction,
        maxFutureSeconds,
        allowDelete,
        rules,
        queryLimits);
  }

  public TsdbConfig withQueryLimits(QueryLimits limits) {
    return new TsdbConfig(
        namespace,
        saltBuckets,
        maxTags,
        compactionDelaySeconds,
        backgroundCompaction,
        maxFutureSeconds,
        allowDelete,
        retention,
        limits);
  }

  /**
   * The effective settings as {@code /api/config} lists them: OpenTSDB's key for each that has one
   * ({@code tsd.storage.max_tags}, …), and every setting under its own key ({@code tsdb.max-tags}).
   */
  public Map<String, String> describe() {
    Map<String, String> m = new TreeMap<>();
    m.put("tsd.storage.hbase.data_table", namespace + ":data");
    m.put("tsd.storage.hbase.uid_table", namespace + ":uid");
    m.put("tsd.storage.salt.width", saltBuckets > 1 ? "1" : "0");
    m.put("tsd.storage.salt.buckets", Integer.toString(saltBuckets));
    m.put("tsd.storage.max_tags", Integer.toString(maxTags));
    m.put("tsd.storage.uid.width.metric", Integer.toString(TsdbKeys.UID_WIDTH));
    m.put("tsd.storage.uid.width.tagk", Integer.toString(TsdbKeys.UID_WIDTH));
    m.put("tsd.storage.uid.width.tagv", Integer.toString(TsdbKeys.UID_WIDTH));
    m.put("tsd.storage.enable_compaction", Boolean.toString(backgroundCompaction));
    m.put("tsd.http.query.allow_delete", Boolean.toString(allowDelete));
    m.put("tsd.query.limits.data_points.default", Long.toString(queryLimits.maxPoints()));
    m.put("tsd.query.timeout", Long.toString(queryLimits.timeout().toMillis()));
    put(m, NAMESPACE, namespace);
    put(m, SALT_BUCKETS, saltBuckets);
    put(m, MAX_TAGS, maxTags);
    put(m, COMPACTION_DELAY_SECONDS, compactionDelaySeconds);
    put(m, ENABLE_COMPACTION, backgroundCompaction);
    put(m, ALLOW_DELETE, allowDelete);
    put(m, RETENTION, retention);
    put(m, QUERY_MAX_POINTS, queryLimits.maxPoints());
    put(m, QUERY_MAX_SERIES, queryLimits.maxSeries());
    put(m, QUERY_TIMEOUT, new QueryLimits.Timeout(queryLimits.timeout()));
    return m;
  }

  private static void put(Map<String, String> m, Setting<?> setting, Object value) {
    m.put(setting.key("tsdb"), setting.render(value));
  }

  private static int parseSaltBuckets(String text) {
    int v;
    try {
      v = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be an integer, got '" + text + "'", e);
    }
    if (v != 0 && (v < 2 || v > 256)) {
      throw new IllegalArgumentException("must be 0 (no salt) or 2..256, got " + v);
    }
    return v;
  }
}
