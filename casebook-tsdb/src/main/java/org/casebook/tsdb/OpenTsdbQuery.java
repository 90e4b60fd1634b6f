package org.casebook.tsdb;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.casebook.core.InvalidInputException;

/**
 * A whole {@code /api/query} request, as OpenTSDB 2.4's {@code TSQuery}: a time range and its
 * sub-queries, checked. The query string form ({@code start}, {@code end}, {@code m=} repeated,
 * {@code ms}, …) is read by {@link #fromParams}; other forms (OpenTSDB's JSON body) are read field
 * by field into a {@link Builder}, which checks each field as it comes, so errors come in the order
 * OpenTSDB reports them.
 *
 * <p>What OpenTSDB 2.4.1 reads, and what becomes of it here:
 *
 * <ul>
 *   <li>honoured: {@code start}, {@code end}, {@code tz}/{@code timezone}, {@code m}/{@code
 *       queries} (aggregator, metric, downsample, rate, rateOptions, tags, filters, explicitTags),
 *       {@code ms}/{@code msResolution}, {@code show_query}/{@code showQuery}, {@code arrays} (by
 *       its presence on the query string of a GET or a POST, as OpenTSDB's serializer reads it),
 *       {@code delete}; in the wire layer {@code no_annotations}/{@code noAnnotations} and {@code
 *       global_annotations}/{@code globalAnnotations}; {@code index} (numbered by position, as
 *       OpenTSDB renumbers it); {@code rollupUsage} only as {@code ROLLUP_RAW} (raw is all there
 *       is);
 *   <li>refused with a 400 naming the parameter: {@code tsuid}/{@code tsuids}, {@code
 *       show_tsuids}/{@code showTSUIDs}, {@code use_calendar}/{@code useCalendar}, {@code
 *       show_stats}/{@code showStats}, {@code show_summary}/{@code showSummary}, {@code padding},
 *       {@code options}, {@code jsonp}, {@code percentiles}, {@code showHistogramBuckets}, {@code
 *       preAggregate}, {@code useMultiGets}, other {@code rollupUsage} values, and any field
 *       OpenTSDB does not know.
 * </ul>
 *
 * @param startMs the start, inclusive
 * @param endMs the end, inclusive; after the start
 * @param queries the sub-queries, answered in order
 * @param msResolution whether answers keep milliseconds
 * @param showQuery whether each answer echoes its sub-query
 * @param arrays whether points are written as {@code [time, value]} arrays
 */
public record OpenTsdbQuery(
    long startMs,
    long endMs,
    List<SubQuery> queries,
    boolean msResolution,
    boolean showQuery,
    boolean arrays) {
  public OpenTsdbQuery {
    queries = List.copyOf(queries);
    if (startMs >= endMs) {
      throw new InvalidInputException("end", "End time must be greater than the start time");
    }
  }

  /** Reads the query string of {@code GET /api/query} (each parameter's values in order). */
  public static OpenTsdbQuery fromParams(Map<String, List<String>> params, long nowMs) {
    for (String f : List.of("show_tsuids", "delete", "use_calendar")) {
      if (flag(params, f)) {
        throw new InvalidInputException(f, f + " is not supported");
      }
    }
    // OpenTSDB turns these on by their presence, whatever their value.
    for (String f : List.of("show_stats", "show_summary", "padding", "jsonp")) {
      if (params.containsKey(f)) {
        throw new InvalidInputException(f, f + " is not supported");
      }
    }
    if (params.containsKey("tsuid")) {
      throw new InvalidInputException("tsuid", "queries by tsuid are not supported; use m=");
    }
    Builder b =
        new Builder(nowMs)
            .timezone(last(params, "tz"))
            .start(last(params, "start"))
            .end(last(params, "end"));
    List<String> ms = params.getOrDefault("m", List.of());
    if (ms.isEmpty()) {
      throw new InvalidInputException("m", "Missing sub queries");
    }
    ms.forEach(b::m);
    return b.build(
        flag(params, "ms") || flag(params, "msResolution"),
        flag(params, "show_query"),
        params.containsKey("arrays"));
  }

  private static String last(Map<String, List<String>> params, String name) {
    List<String> v = params.get(name);
    return v == null || v.isEmpty() ? null : v.get(v.size() - 1);
  }

  /** A flag parameter: present without a value, or {@code true}. */
  private static boolean flag(Map<String, List<String>> params, String name) {
    String v = last(params, name);
    return v != null && (v.isEmpty() || v.equalsIgnoreCase("true"));
  }

  /**
   * A query read field by field: time zone, then start and end, then the sub-queries; each field is
   * checked when it is given.
   */
  public static final class Builder {
    private final long nowMs;
    private ZoneId zone = QueryTimes.zone(null);
    private Long startMs;
    private long endMs;
    private final List<SubQuery> queries = new ArrayList<>();

    /** {@code nowMs}: what relative times ({@code 1h-ago}) and a missing end are taken from. */
    public Builder(long nowMs) {
      this.nowMs = nowMs;
      this.endMs = nowMs;
    }

    /** The zone of dates without one (null: UTC). */
    public Builder timezone(String name) {
      zone = QueryTimes.zone(name);
      return this;
    }

    public Builder start(String text) {
      startMs = QueryTimes.parse(text, "start", nowMs, zone);
      return this;
    }

    /** The end (null: now). */
    public Builder end(String text) {
      endMs = text == null ? nowMs : QueryTimes.parse(text, "end", nowMs, zone);
      return this;
    }

    /** A sub-query in the {@code m=} form; errors name field {@code m}. */
    public Builder m(String m) {
      queries.add(SubQuery.parseM(m));
      return this;
    }

    /** A sub-query read field by field. */
    public Builder add(SubQueryBuilder sub) {
      queries.add(sub.build());
      return this;
    }

    public OpenTsdbQuery build(boolean msResolution, boolean showQuery, boolean arrays) {
      if (startMs == null) {
        throw new IllegalStateException("no start given");
      }
      return new OpenTsdbQuery(startMs, endMs, queries, msResolution, showQuery, arrays);
    }
  }

  /**
   * One sub-query read field by field (OpenTSDB's JSON {@code queries[i]}); each field is checked
   * when it is given, and errors name the field under {@code path} ({@code queries[0].downsample}).
   */
  public static final class SubQueryBuilder {
    private final String path;
    private Aggregator aggregator;
    private String metric;
    private Optional<DownsampleSpec> downsample = Optional.empty();
    private RateOptions rateOptions = RateOptions.DEFAULT;
    private boolean rate;
    private final List<TagFilter> filters = new ArrayList<>();
    private boolean explicitTags;
    private RollupUsage rollupUsage = RollupUsage.AUTO;

    public SubQueryBuilder(String path) {
      this.path = Objects.requireNonNull(path, "path is null");
    }

    public SubQueryBuilder aggregator(String name) {
      aggregator = SubQuery.aggregatorNamed(name, path + ".aggregator");
      return this;
    }

    public SubQueryBuilder metric(String name) {
      if (name == null || name.isEmpty()) {
        throw new InvalidInputException(
            path + ".metric", "Missing the metric or tsuids, provide at least one");
      }
      metric = name;
      return this;
    }

    /** A downsampling specifier such as {@code 1m-avg} (null or empty: none). */
    public SubQueryBuilder downsample(String spec) {
      downsample =
          spec == null || spec.isEmpty()
              ? Optional.empty()
              : Optional.of(DownsampleSpec.parse(spec, path + ".downsample"));
      return this;
    }

    /** OpenTSDB's {@code rateOptions}. */
    public SubQueryBuilder rateOptions(
        boolean counter, long counterMax, long resetValue, boolean dropResets) {
      rateOptions = new RateOptions(counter, counterMax, resetValue, dropResets);
      return this;
    }

    public SubQueryBuilder rate(boolean value) {
      rate = value;
      return this;
    }

    /** The legacy {@code tags} map (values as in {@code m=}); replaces the filters so far. */
    public SubQueryBuilder tags(Map<String, String> tags) {
      filters.clear();
      filters.addAll(TagFilter.fromTags(tags));
      return this;
    }

    /** Starts a {@code filters} array; replaces the filters so far (the later field wins). */
    public SubQueryBuilder filters() {
      filters.clear();
      return this;
    }

    /** One object of the {@code filters} array. */
    public SubQueryBuilder filter(String type, String tagk, String filter, boolean groupBy) {
      TagFilter f = TagFilter.fromJson(type, tagk, filter, groupBy);
      filters.add(f);
      return this;
    }

    public SubQueryBuilder explicitTags(boolean value) {
      explicitTags = value;
      return this;
    }

    /**
     * OpenTSDB's {@code rollupUsage} ({@code ROLLUP_RAW}, {@code ROLLUP_NOFALLBACK}, {@code
     * ROLLUP_FALLBACK}, {@code ROLLUP_FALLBACK_RAW}; null: rollups where whole hours are rolled up,
     * points for the rest).
     */
    public SubQueryBuilder rollupUsage(String usage) {
      rollupUsage = RollupUsage.parse(usage, path + ".rollupUsage");
      return this;
    }

    SubQuery build() {
      return new SubQuery(
          aggregator, metric, rate, rateOptions, downsample, filters, explicitTags, rollupUsage);
    }
  }
}
