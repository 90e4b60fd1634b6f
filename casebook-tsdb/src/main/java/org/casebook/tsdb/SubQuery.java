package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * One sub-query of {@code /api/query}: what OpenTSDB 2.4 keeps in {@code TSSubQuery} once
 * validated.
 *
 * @param aggregator the function across the series of a group
 * @param metric the metric name
 * @param rate whether values are turned into per-second rates (after downsampling)
 * @param rateOptions counter options for the rate
 * @param downsample the downsampling, if any
 * @param filters the tag filters; those with {@link TagFilter#groupBy()} group the results
 * @param explicitTags whether a series must carry exactly the filtered tag keys and no other
 * @param rollupUsage whether hourly rollups may answer the downsampling
 */
record SubQuery(
    Aggregator aggregator,
    String metric,
    boolean rate,
    RateOptions rateOptions,
    Optional<DownsampleSpec> downsample,
    List<TagFilter> filters,
    boolean explicitTags,
    RollupUsage rollupUsage) {

  SubQuery {
    Objects.requireNonNull(aggregator, "aggregator is null");
    Objects.requireNonNull(rollupUsage, "rollupUsage is null");
    Objects.requireNonNull(metric, "metric is null");
    Objects.requireNonNull(rateOptions, "rateOptions is null");
    Objects.requireNonNull(downsample, "downsample is null");
    filters = List.copyOf(filters);
  }

  /** A sub-query without {@code rollupUsage}. */
  SubQuery(
      Aggregator aggregator,
      String metric,
      boolean rate,
      RateOptions rateOptions,
      Optional<DownsampleSpec> downsample,
      List<TagFilter> filters,
      boolean explicitTags) {
    this(
        aggregator, metric, rate, rateOptions, downsample, filters, explicitTags, RollupUsage.AUTO);
  }

  /** The fill policy of the downsampler, NONE without one; NULL makes NaN print as null. */
  FillPolicy fillPolicy() {
    return downsample.map(DownsampleSpec::fillPolicy).orElse(FillPolicy.NONE);
  }

  /** The aggregator named {@code name}, failing with OpenTSDB's validation messages. */
  static Aggregator aggregatorNamed(String name, String field) {
    if (name == null || name.isEmpty()) {
      throw new InvalidInputException(field, "Missing the aggregation function");
    }
    return Aggregator.byName(name)
        .orElseThrow(
            () -> new InvalidInputException(field, "No such aggregation function: " + name));
  }

  /**
   * The tag keys of the filters. OpenTSDB answers 400 "No such name for 'tagk'" when one has no
   * UID; the store must check that (and the metric) before running the engine.
   */
  Set<String> filterTagKeys() {
    Set<String> keys = new LinkedHashSet<>();
    filters.forEach(f -> keys.add(f.tagKey()));
    return Set.copyOf(keys);
  }

  /**
   * The values of case-sensitive literal_or filters. OpenTSDB resolves each to a UID and answers
   * 400 "No such name for 'tagv': 'x'" when one was never written (with its default {@code
   * tsd.query.skip_unresolved_tagvs=false}); the store must check that before running the engine.
   */
  Set<String> literalTagValues() {
    Set<String> values = new LinkedHashSet<>();
    filters.stream().filter(TagFilter::isScanLiteral).forEach(f -> values.addAll(f.literals()));
    return Set.copyOf(values);
  }

  /**
   * Parses the {@code m=} form {@code
   * agg:[interval-agg[-fill]:][rate[{counter[,[max][,reset]]}]:][explicit_tags:]metric[{group-by
   * filters}][{other filters}]} as OpenTSDB's {@code QueryRpc.parseMTypeSubQuery} does: the string
   * is cut at every ':' (even inside braces), the middle parts may come in any order, a part
   * starting with a digit is the downsampler, and unknown middle parts are ignored. Errors name
   * field "m".
   *
   * <p>OpenTSDB 2.4.1 answers 400 for aggregator, downsample and rate errors but 500 for errors in
   * the metric and braces part (messages starting "When parsing", "Missing '}'", "Metric cannot").
   */
  static SubQuery parseM(String m) {
    if (m == null || m.isEmpty()) {
      throw new InvalidInputException("m", "The query string was empty");
    }
    String[] parts = split(m, ':');
    if (parts.length < 2 || parts.length > 5) {
      throw new InvalidInputException(
          "m",
          "Invalid parameter m="
              + m
              + " ("
              + (parts.length < 2 ? "not enough" : "too many")
              + " :-separated parts)");
    }
    List<TagFilter> filters = new ArrayList<>();
    String metric = parseMetricAndFilters(parts[parts.length - 1], filters);
    boolean rate = false;
    RateOptions rateOptions = RateOptions.DEFAULT;
    String downsample = null;
    boolean explicitTags = false;
    for (int x = 1; x < parts.length - 1; x++) {
      String part = parts[x];
      String lower = part.toLowerCase(Locale.ROOT);
      if (lower.startsWith("rate")) {
        rate = true;
        if (part.indexOf('{') >= 0) {
          rateOptions = RateOptions.parseM(part);
        }
      } else if (!part.isEmpty() && Character.isDigit(part.charAt(0))) {
        downsample = part;
      } else if (lower.startsWith("explicit_tags")) {
        explicitTags = true;
      }
    }
    // The rest is what TSSubQuery.validateAndSetQuery checks, in its order.
    Aggregator aggregator = aggregatorNamed(parts[0], "m");
    if (metric.isEmpty()) {
      throw new InvalidInputException("m", "Missing the metric or tsuids, provide at least one");
    }
    Optional<DownsampleSpec> spec =
        downsample == null ? Optional.empty() : Optional.of(DownsampleSpec.parse(downsample, "m"));
    return new SubQuery(aggregator, metric, rate, rateOptions, spec, filters, explicitTags);
  }

  /**
   * Splits the {@code metric{group-by}{filters}} part (OpenTSDB {@code
   * Tags.parseWithMetricAndFilters}): the second braces are read first as plain filters, then each
   * {@code k=v} of the first braces becomes a group-by filter, or makes an equal existing filter a
   * group-by.
   */
  private static String parseMetricAndFilters(String metric, List<TagFilter> filters) {
    if (metric.isEmpty()) {
      throw new InvalidInputException("m", "Metric cannot be null or empty");
    }
    int curly = metric.indexOf('{');
    if (curly < 0) {
      return metric;
    }
    int len = metric.length();
    if (metric.charAt(len - 1) != '}') {
      throw new InvalidInputException("m", "Missing '}' at the end of: " + metric);
    }
    if (curly == len - 2) {
      return metric.substring(0, len - 2);
    }
    int close = metric.indexOf('}');
    if (close != len - 1) {
      int filterBracket = metric.lastIndexOf('{');
      for (String filter : split(metric.substring(filterBracket + 1, len - 1), ',')) {
        if (filter.isEmpty()) {
          break;
        }
        Map.Entry<String, String> kv = parseTag(filter, "When parsing filter '" + filter + "': ");
        filters.add(TagFilter.fromTagValue(kv.getKey(), kv.getValue(), false, "m"));
      }
    }
    for (String tag : split(metric.substring(curly + 1, close), ',')) {
      if (tag.isEmpty() && close != len - 1) {
        break;
      }
      Map.Entry<String, String> kv = parseTag(tag, "When parsing tag '" + tag + "': ");
      List<TagFilter> merged =
          TagFilter.addGroupByFilters(filters, Map.of(kv.getKey(), kv.getValue()), "m");
      filters.clear();
      filters.addAll(merged);
    }
    return metric.substring(0, curly);
  }

  private static Map.Entry<String, String> parseTag(String tag, String context) {
    String[] kv = split(tag, '=');
    if (kv.length != 2 || kv[0].isEmpty() || kv[1].isEmpty()) {
      throw new InvalidInputException("m", context + "invalid tag: " + tag);
    }
    return Map.entry(kv[0], kv[1]);
  }

  /** Splits at every {@code c}, keeping empty parts (OpenTSDB {@code Tags.splitString}). */
  static String[] split(String s, char c) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == c) {
        parts.add(s.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(s.substring(start));
    return parts.toArray(new String[0]);
  }
}
