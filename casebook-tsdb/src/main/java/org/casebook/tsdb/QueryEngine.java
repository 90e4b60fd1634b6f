package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Answers one sub-query from the series the store read, as OpenTSDB 2.4.1 answers {@code
 * /api/query}: select series by the filters, group them, downsample then rate each series,
 * aggregate each group across its series with interpolation, and cut to the query's range.
 *
 * <p>The store must pass every series of the metric with its points inside {@link
 * ScanWindow#of}{@code (start, end, downsample)}; points outside the window are ignored, so reading
 * wider is harmless. Pure computation: no I/O, no state.
 */
final class QueryEngine {
  /** OpenTSDB's {@code tsd.query.filter.expansion_limit} default. */
  private static final int EXPANSION_LIMIT = 4096;

  /** Points of a query's series before its groups are aggregated side by side. */
  static final long PARALLEL_POINTS = 16_384;

  private QueryEngine() {}

  /**
   * The results of {@code query} over [startMs, endMs] (both inclusive, as OpenTSDB's), in
   * OpenTSDB's output order: one result for all series without group-by; with group-by one per
   * combination of group-by tag values, ordered by those values' UIDs (group-by keys in key UID
   * order); with the {@code none} aggregator one per series in series (row key) order. Nothing at
   * all when no series has a point in the window.
   */
  static List<QueryResult> run(
      SubQuery query, long startMs, long endMs, List<Series> stored, TagOrder order) {
    return run(query, startMs, endMs, stored, order, false);
  }

  /**
   * As {@link #run(SubQuery, long, long, List, TagOrder)}; with {@code downsampled}, each series'
   * points are its downsampled points already (from rollups), and are not downsampled again.
   */
  static List<QueryResult> run(
      SubQuery query,
      long startMs,
      long endMs,
      List<Series> stored,
      TagOrder order,
      boolean downsampled) {
    if (endMs <= startMs) {
      throw new IllegalArgumentException("end " + endMs + " must be after start " + startMs);
    }
    ScanWindow window = ScanWindow.of(startMs, endMs, query.downsample());
    SeriesSelector selector = new SeriesSelector(query, order);
    List<Series> selected = new ArrayList<>();
    for (Series s : stored) {
      if (!s.metric().equals(query.metric()) || !selector.matches(s.tags())) {
        continue;
      }
      List<DataPoint> inWindow = window.cut(s.points());
      if (inWindow.size() == s.points().size()) {
        selected.add(s);
      } else if (!inWindow.isEmpty()) {
        selected.add(new Series(s.metric(), s.tags(), inWindow));
      }
    }
    selected.sort(order.series());

    List<List<Series>> groups = group(selected, query, order);
    long points = 0;
    for (Series s : selected) {
      points += s.points().size();
    }
    // Groups are independent: a large answer's are aggregated side by side.
    Stream<List<Series>> each =
        groups.size() > 1 && points >= PARALLEL_POINTS ? groups.parallelStream() : groups.stream();
    return each.map(
            members -> aggregateGroup(members, query, startMs, endMs, window, order, downsampled))
        .toList();
  }

  /** Whether a series with these tag names and values is one {@code query} selects. */
  static java.util.function.Predicate<Map<String, String>> selector(
      SubQuery query, TagOrder order) {
    return new SeriesSelector(query, order)::matches;
  }

  private static List<List<Series>> group(List<Series> selected, SubQuery query, TagOrder order) {
    if (selected.isEmpty()) {
      return List.of();
    }
    if (query.aggregator().function() == Aggregator.Function.NONE) {
      // OpenTSDB's raw aggregator skips grouping: one result per series.
      return selected.stream().map(List::of).toList();
    }
    List<String> groupByKeys =
        query.filters().stream()
            .filter(TagFilter::groupBy)
            .map(TagFilter::tagKey)
            .distinct()
            .sorted(order.keys())
            .toList();
    if (groupByKeys.isEmpty()) {
      return List.of(selected);
    }
    Comparator<List<String>> byValueIds =
        (a, b) -> {
          for (int i = 0; i < a.size(); i++) {
            int c = order.values().compare(a.get(i), b.get(i));
            if (c != 0) {
              return c;
            }
          }
          return 0;
        };
    TreeMap<List<String>, List<Series>> groups = new TreeMap<>(byValueIds);
    for (Series s : selected) {
      List<String> key = new ArrayList<>(groupByKeys.size());
      for (String k : groupByKeys) {
        key.add(s.tags().get(k));
      }
      // A series without a group-by key cannot pass the scan; OpenTSDB drops it if it did.
      if (!key.contains(null)) {
        groups.computeIfAbsent(List.copyOf(key), k -> new ArrayList<>()).add(s);
      }
    }
    return List.copyOf(groups.values());
  }

  private static QueryResult aggregateGroup(
      List<Series> members,
      SubQuery query,
      long startMs,
      long endMs,
      ScanWindow window,
      TagOrder order,
      boolean downsampled) {
    List<List<DataPoint>> views = new ArrayList<>(members.size());
    for (Series s : members) {
      List<DataPoint> view = s.points();
      if (query.downsample().isPresent() && !downsampled) {
        view = SeriesTransforms.downsample(view, query.downsample().get(), window, startMs, endMs);
      }
      if (query.rate()) {
        view = SeriesTransforms.rate(view, query.rateOptions());
      }
      views.add(view);
    }
    boolean nullForNaN = query.fillPolicy() == FillPolicy.NULL;
    ResultPoints.Builder points = new ResultPoints.Builder(longest(views));
    // OpenTSDB's serializer prints only [start, end] of what it aggregated.
    GroupAggregator.PointSink printed =
        (x, integer, longValue, doubleValue) -> {
          if (x < startMs || x > endMs) {
            return;
          }
          if (integer) {
            points.addLong(x, longValue);
          } else if (Double.isNaN(doubleValue) && nullForNaN) {
            points.addNull(x);
          } else {
            points.addDouble(x, doubleValue);
          }
        };
    GroupAggregator.aggregate(
        views, window.startMs(), window.endMs(), query.aggregator(), query.rate(), printed);
    return commonTags(members, order, points.build());
  }

  private static int longest(List<List<DataPoint>> views) {
    int longest = 0;
    for (List<DataPoint> v : views) {
      longest = Math.max(longest, v.size());
    }
    return longest;
  }

  /**
   * OpenTSDB's {@code SpanGroup.computeTags}: a key stays a tag while every series that has it has
   * the same value; one differing value moves it to the aggregated keys for good.
   */
  private static QueryResult commonTags(
      List<Series> members, TagOrder order, List<ResultPoint> points) {
    Map<String, String> tags = new HashMap<>();
    Set<String> aggregated = new HashSet<>();
    for (Series s : members) {
      for (Map.Entry<String, String> tag : s.tags().entrySet()) {
        if (aggregated.contains(tag.getKey())) {
          continue;
        }
        String seen = tags.putIfAbsent(tag.getKey(), tag.getValue());
        if (seen != null && !seen.equals(tag.getValue())) {
          aggregated.add(tag.getKey());
          tags.remove(tag.getKey());
        }
      }
    }
    Map<String, String> ordered = new LinkedHashMap<>();
    tags.keySet().stream().sorted(order.keys()).forEach(k -> ordered.put(k, tags.get(k)));
    List<String> aggregateTags = aggregated.stream().sorted(order.keys()).toList();
    return new QueryResult(members.get(0).metric(), ordered, aggregateTags, points);
  }

  /**
   * Which series a sub-query selects: OpenTSDB's row key regex (every filtered key present; for the
   * case-sensitive literals of a key, the value among their union; with explicit tags no other key)
   * and then each remaining filter's own test.
   */
  private static final class SeriesSelector {
    private final SubQuery query;
    private final Set<String> requiredKeys = new HashSet<>();
    private final Map<String, Set<String>> scanLiterals = new HashMap<>();
    private final List<TagFilter> postScanFilters = new ArrayList<>();

    SeriesSelector(SubQuery query, TagOrder order) {
      this.query = query;
      Map<String, List<TagFilter>> byKey = new TreeMap<>(order.keys());
      for (TagFilter f : query.filters()) {
        byKey.computeIfAbsent(f.tagKey(), k -> new ArrayList<>()).add(f);
        if (f.type() != TagFilterType.NOT_KEY) {
          requiredKeys.add(f.tagKey());
        }
      }
      int literalCount = 0;
      for (Map.Entry<String, List<TagFilter>> entry : byKey.entrySet()) {
        Set<String> union = new HashSet<>();
        List<TagFilter> literalFilters = new ArrayList<>();
        for (TagFilter f : entry.getValue()) {
          // OpenTSDB resolves literals to UIDs only for case-sensitive literal_or filters within
          // the expansion limit; those then move from post-scan checks into the row key regex,
          // which ORs all of them for the key.
          if (f.isScanLiteral() && f.literals().size() <= EXPANSION_LIMIT) {
            union.addAll(f.literals());
            literalFilters.add(f);
          }
        }
        boolean inScan = !union.isEmpty() && union.size() + literalCount <= EXPANSION_LIMIT;
        if (inScan) {
          scanLiterals.put(entry.getKey(), Set.copyOf(union));
          literalCount += union.size();
        }
        for (TagFilter f : entry.getValue()) {
          if (!(inScan && literalFilters.contains(f))) {
            postScanFilters.add(f);
          }
        }
      }
    }

    boolean matches(Map<String, String> tags) {
      if (query.filters().isEmpty()) {
        // No row filter at all in OpenTSDB, so explicit tags has no effect either.
        return true;
      }
      for (String key : requiredKeys) {
        String value = tags.get(key);
        if (value == null) {
          return false;
        }
        Set<String> allowed = scanLiterals.get(key);
        if (allowed != null && !allowed.contains(value)) {
          return false;
        }
      }
      if (query.explicitTags() && !requiredKeys.equals(tags.keySet())) {
        return false;
      }
      for (TagFilter f : postScanFilters) {
        if (!f.matches(tags)) {
          return false;
        }
      }
      return true;
    }
  }
}
