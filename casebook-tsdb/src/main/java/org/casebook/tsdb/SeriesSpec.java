package org.casebook.tsdb;

import java.util.List;
import java.util.Objects;

/**
 * A series specification {@code metric{k=v,k2=*}} of a lookup or last-point query.
 *
 * @param metric the metric name
 * @param tags the pairs in the order given ({@code *} as a value: any value of that key)
 */
public record SeriesSpec(String metric, List<TagPair> tags) {
  public SeriesSpec {
    Objects.requireNonNull(metric, "metric is null");
    tags = List.copyOf(tags);
  }
}
