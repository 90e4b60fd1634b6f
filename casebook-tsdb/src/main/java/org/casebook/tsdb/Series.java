package org.casebook.tsdb;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One time series read for a query: its metric, its tags (names, not ids) and its points in
 * ascending time order, one point per timestamp (the store keeps the last written of duplicates).
 */
record Series(String metric, Map<String, String> tags, List<DataPoint> points) {
  Series {
    Objects.requireNonNull(metric, "metric is null");
    tags = Map.copyOf(tags);
    points = List.copyOf(points);
  }
}
