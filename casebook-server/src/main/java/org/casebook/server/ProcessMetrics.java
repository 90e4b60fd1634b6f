package org.casebook.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.EnumSet;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.HBaseRuntime;

/** Process and HBase gauges for {@code /metrics}; HBase figures are cached for a few seconds. */
final class ProcessMetrics {
  private static final long CACHE_NANOS = 5_000_000_000L;
  private final HBaseRuntime runtime;
  private long cachedAt;
  private String cachedHBase = "";

  ProcessMetrics(HBaseRuntime runtime) {
    this.runtime = runtime;
  }

  String render() {
    StringBuilder sb = new StringBuilder();
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    gauge(sb, "casebook_jvm_heap_used_bytes", "JVM heap in use.", heap.getUsed());
    gauge(sb, "casebook_jvm_heap_max_bytes", "JVM heap limit.", heap.getMax());
    gauge(
        sb,
        "casebook_jvm_threads",
        "Live JVM threads.",
        ManagementFactory.getThreadMXBean().getThreadCount());
    gauge(
        sb,
        "casebook_uptime_seconds",
        "Process uptime.",
        ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0);
    sb.append(hbase());
    sb.append(client());
    return sb.toString();
  }

  /** The HBase client's own RPC metrics (per method: calls, p50/p99 latency), if enabled. */
  private String client() {
    if (!(runtime.connection() instanceof org.apache.hadoop.hbase.client.ClusterConnection cc)
        || cc.getConnectionMetrics() == null) {
      return "";
    }
    org.apache.hadoop.hbase.client.MetricsConnection m = cc.getConnectionMetrics();
    StringBuilder sb = new StringBuilder();
    sb.append(
        "# HELP casebook_hbase_client_rpc_seconds HBase client RPC latency by method (summary).\n");
    sb.append("# TYPE casebook_hbase_client_rpc_seconds summary\n");
    m.getRpcTimers()
        .forEach(
            (name, timer) -> {
              String method = escapeLabel(name.replaceFirst("^rpcCallDurationMs_", ""));
              com.codahale.metrics.Snapshot snap = timer.getSnapshot();
              for (double q : new double[] {0.5, 0.99}) {
                sb.append("casebook_hbase_client_rpc_seconds{method=\"")
                    .append(method)
                    .append("\",quantile=\"")
                    .append(q)
                    .append("\"} ")
                    .append(format(snap.getValue(q) / 1e9))
                    .append('\n');
              }
              sb.append("casebook_hbase_client_rpc_seconds_count{method=\"")
                  .append(method)
                  .append("\"} ")
                  .append(timer.getCount())
                  .append('\n');
            });
    counter(
        sb,
        "casebook_hbase_client_meta_cache_misses_total",
        "Region location lookups that missed the cache.",
        m.getMetaCacheMisses());
    return sb.toString();
  }

  private synchronized String hbase() {
    long now = System.nanoTime();
    if (now - cachedAt < CACHE_NANOS && cachedAt != 0) {
      return cachedHBase;
    }
    StringBuilder sb = new StringBuilder();
    try (Admin admin = runtime.connection().getAdmin()) {
      ClusterMetrics m =
          admin.getClusterMetrics(
              EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS, ClusterMetrics.Option.DEAD_SERVERS));
      long regions = 0;
      long reads = 0;
      long writes = 0;
      for (ServerMetrics s : m.getLiveServerMetrics().values()) {
        regions += s.getRegionMetrics().size();
        for (var r : s.getRegionMetrics().values()) {
          reads += r.getReadRequestCount();
          writes += r.getWriteRequestCount();
        }
      }
      gauge(sb, "casebook_hbase_up", "1 when the HBase master answers.", 1);
      gauge(
          sb,
          "casebook_hbase_region_servers",
          "Live region servers.",
          m.getLiveServerMetrics().size());
      gauge(
          sb,
          "casebook_hbase_dead_region_servers",
          "Dead region servers.",
          m.getDeadServerNames().size());
      gauge(sb, "casebook_hbase_regions", "Online regions.", regions);
      counter(
          sb,
          "casebook_hbase_read_requests_total",
          "Read requests served by the region servers.",
          reads);
      counter(
          sb,
          "casebook_hbase_write_requests_total",
          "Write requests served by the region servers.",
          writes);
    } catch (IOException | RuntimeException e) {
      gauge(sb, "casebook_hbase_up", "1 when the HBase master answers.", 0);
    }
    cachedAt = now;
    cachedHBase = sb.toString();
    return cachedHBase;
  }

  private static void gauge(StringBuilder sb, String name, String help, long value) {
    header(sb, name, help, "gauge").append(name).append(' ').append(value).append('\n');
  }

  private static void counter(StringBuilder sb, String name, String help, long value) {
    header(sb, name, help, "counter").append(name).append(' ').append(value).append('\n');
  }

  private static StringBuilder header(StringBuilder sb, String name, String help, String type) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    return sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void gauge(StringBuilder sb, String name, String help, double value) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(name).append(" gauge\n");
    sb.append(name).append(' ').append(format(value)).append('\n');
  }

  /** A Prometheus label value: backslash, quote and newline escaped. */
  static String escapeLabel(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
