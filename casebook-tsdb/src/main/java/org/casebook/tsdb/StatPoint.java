package org.casebook.tsdb;

import java.util.Map;
import java.util.Objects;

/**
 * One figure of {@code /api/stats}, as OpenTSDB lists its own: a metric name, the time it was read
 * (epoch seconds), the value as text and its tags.
 */
public record StatPoint(String metric, long timestamp, String value, Map<String, String> tags) {
  public StatPoint {
    Objects.requireNonNull(metric, "metric is null");
    Objects.requireNonNull(value, "value is null");
    tags = Map.copyOf(tags);
  }
}
