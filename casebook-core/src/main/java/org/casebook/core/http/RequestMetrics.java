package org.casebook.core.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Request counts and latency histograms per route, rendered in Prometheus text format. */
public final class RequestMetrics {
  private static final double[] BUCKETS_SECONDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private record Key(String method, String route, int status) {}

  private static final class Series {
    final LongAdder[] buckets = new LongAdder[BUCKETS_SECONDS.length];
    final LongAdder count = new LongAdder();
    final LongAdder sumNanos = new LongAdder();

    Series() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }
  }

  private final Map<Key, Series> series = new ConcurrentHashMap<>();

  public void record(String method, String route, int status, long nanos) {
    Series s = series.computeIfAbsent(new Key(method, route, status), k -> new Series());
    s.count.increment();
    s.sumNanos.add(nanos);
    double seconds = nanos / 1e9;
    for (int i = 0; i < BUCKETS_SECONDS.length; i++) {
      if (seconds <= BUCKETS_SECONDS[i]) {
        s.buckets[i].increment();
      }
    }
  }

  /** Appends the request series in Prometheus text exposition format. */
  public void render(StringBuilder out) {
    out.append("# HELP casebook_http_requests_total HTTP requests by method, route and status.\n");
    out.append("# TYPE casebook_http_requests_total counter\n");
    series.forEach((k, s) -> out.append("casebook_http_requests_total").append(labels(k, null))
        .append(' ').append(s.count.sum()).append('\n'));
    out.append("# HELP casebook_http_request_duration_seconds HTTP request latency.\n");
    out.append("# TYPE casebook_http_request_duration_seconds histogram\n");
    series.forEach((k, s) -> {
      for (int i = 0; i < BUCKETS_SECONDS.length; i++) {
        out.append("casebook_http_request_duration_seconds_bucket").append(labels(k, Double.toString(BUCKETS_SECONDS[i])))
            .append(' ').append(s.buckets[i].sum()).append('\n');
      }
      out.append("casebook_http_request_duration_seconds_bucket").append(labels(k, "+Inf")).append(' ')
          .append(s.count.sum()).append('\n');
      out.append("casebook_http_request_duration_seconds_sum").append(labels(k, null)).append(' ')
          .append(s.sumNanos.sum() / 1e9).append('\n');
      out.append("casebook_http_request_duration_seconds_count").append(labels(k, null)).append(' ')
          .append(s.count.sum()).append('\n');
    });
  }

  private static String labels(Key k, String le) {
    StringBuilder sb = new StringBuilder("{method=\"").append(k.method()).append("\",route=\"")
        .append(escape(k.route())).append("\",status=\"").append(k.status()).append('"');
    if (le != null) {
      sb.append(",le=\"").append(le).append('"');
    }
    return sb.append('}').toString();
  }

  /** Escapes a Prometheus label value. */
  public static String escapeLabel(String v) {
    return escape(v);
  }

  static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
