package org.casebook.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** A latency histogram from 1 µs to 10 min at 3 significant digits; not thread-safe. */
public final class Latency {
  private final Histogram histogram = new Histogram(1_000L, 600_000_000_000L, 3);

  public void recordNanos(long nanos) {
    histogram.recordValue(Math.max(1_000L, Math.min(nanos, 600_000_000_000L)));
  }

  public void add(Latency other) {
    histogram.add(other.histogram);
  }

  public long count() {
    return histogram.getTotalCount();
  }

  /** The percentile in milliseconds. */
  public double millis(double percentile) {
    return histogram.getValueAtPercentile(percentile) / 1e6;
  }

  public double maxMillis() {
    return histogram.getMaxValue() / 1e6;
  }

  public double meanMillis() {
    return histogram.getMean() / 1e6;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", count());
    m.put("p50Ms", millis(50));
    m.put("p90Ms", millis(90));
    m.put("p99Ms", millis(99));
    m.put("p999Ms", millis(99.9));
    m.put("maxMs", maxMillis());
    m.put("meanMs", meanMillis());
    return m;
  }
}
