package org.casebook.tsdb;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One series a join works on: a group of a metric's answer, or a series an expression computed. It
 * carries what OpenTSDB's join looks at (tags, aggregated tag keys, the tag keys of the query's
 * filters) and its points.
 */
final class ExpressionSeries {
  final Map<String, String> tags;
  final List<String> aggregatedTags;
  final Set<String> metrics;
  final Set<String> queryTagKeys;
  final long[] timestamps;
  final double[] values;

  /** Takes over the arrays (ascending timestamps, one value each). */
  ExpressionSeries(
      Map<String, String> tags,
      List<String> aggregatedTags,
      Set<String> metrics,
      Set<String> queryTagKeys,
      long[] timestamps,
      double[] values) {
    this.tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    this.aggregatedTags = List.copyOf(aggregatedTags);
    this.metrics = Collections.unmodifiableSet(new TreeSet<>(metrics));
    this.queryTagKeys = Set.copyOf(queryTagKeys);
    this.timestamps = timestamps;
    this.values = values;
  }

  /** A group of a metric's answer; a null point (the null fill) is NaN. */
  static ExpressionSeries of(QueryResult group, Set<String> queryTagKeys) {
    List<ResultPoint> points = group.points();
    long[] ts = new long[points.size()];
    double[] vs = new double[points.size()];
    for (int i = 0; i < ts.length; i++) {
      ResultPoint p = points.get(i);
      ts[i] = p.timestampMs();
      vs[i] =
          switch (p.kind()) {
            case INTEGER -> p.longValue();
            case DOUBLE -> p.doubleValue();
            case NULL -> Double.NaN;
          };
    }
    return new ExpressionSeries(
        group.tags(), group.aggregateTags(), Set.of(group.metric()), queryTagKeys, ts, vs);
  }
}
