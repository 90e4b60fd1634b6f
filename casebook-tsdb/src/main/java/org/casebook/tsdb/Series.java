package org.casebook.tsdb;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One time series read for a query: its metric, its tags (names, not ids) and its points in
 * ascending time order, one point per timestamp (the store keeps the last written of duplicates).
 */
record Series(String metric, Map<String, String> tags, List<DataPoint> points) {
  /**
   * The series takes over {@code points}: they are wrapped, not copied (a query's series hold
   * hundreds of thousands of points), so the caller must not change the list afterwards.
   */
  Series {
    Objects.requireNonNull(metric, "metric is null");
    tags = Map.copyOf(tags);
    Objects.requireNonNull(points, "points is null");
    // Points held in arrays are immutable already, and are kept so for the group's aggregation.
    points = points instanceof DataPoints ? points : Collections.unmodifiableList(points);
  }
}
