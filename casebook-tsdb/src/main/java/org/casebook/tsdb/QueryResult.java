package org.casebook.tsdb;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One element of a {@code /api/query} answer array: one group of one sub-query.
 *
 * @param metric the metric name
 * @param tags the tags every series of the group has with the same value (a key missing from some
 *     series still counts, as in OpenTSDB), in tag key UID order; OpenTSDB prints them in the
 *     iteration order of a {@code java.util.HashMap} holding them
 * @param aggregateTags the keys whose values differ between the series, in tag key UID order (the
 *     order OpenTSDB prints)
 * @param points the points in time order, already cut to the query's [start, end]; may be empty
 *     (OpenTSDB still prints the group, with {@code "dps":{}})
 */
public record QueryResult(
    String metric, Map<String, String> tags, List<String> aggregateTags, List<ResultPoint> points) {
  public QueryResult {
    Objects.requireNonNull(metric, "metric is null");
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    aggregateTags = List.copyOf(aggregateTags);
    // Points held in arrays are immutable already, and are kept so for the answer's writer.
    points = points instanceof ResultPoints ? points : List.copyOf(points);
  }
}
