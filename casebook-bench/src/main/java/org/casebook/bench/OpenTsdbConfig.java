package org.casebook.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;

/**
 * The files an {@link OpenTsdbPeer} starts with: its {@code opentsdb.conf} (the HBase it shares
 * with Casebook, its tables, buffering, compaction, meta tracking off) and its {@code logback.xml}.
 */
final class OpenTsdbConfig {
  private OpenTsdbConfig() {}

  /** {@code host:port,…} of the ZooKeeper that {@code conf} uses (asynchbase's quorum spec). */
  static String zkQuorum(Configuration conf) {
    String port = conf.get(HConstants.ZOOKEEPER_CLIENT_PORT, "2181");
    StringBuilder sb = new StringBuilder();
    for (String host : conf.getTrimmedStrings(HConstants.ZOOKEEPER_QUORUM, "localhost")) {
      sb.append(sb.length() == 0 ? "" : ",");
      sb.append(host.contains(":") ? host : host + ":" + port);
    }
    return sb.toString();
  }

  static String config(
      OpenTsdbOptions options, Path work, int port, String quorum, String znodeParent) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("tsd.network.port", Integer.toString(port));
    c.put("tsd.network.bind", "127.0.0.1");
    c.put("tsd.mode", "rw");
    // TSDMain refuses to start without both directories; the GWT UI itself is not shipped.
    c.put("tsd.http.staticroot", work.resolve("static").toString());
    c.put("tsd.http.cachedir", work.resolve("cache").toString());
    c.put("tsd.storage.hbase.zk_quorum", quorum);
    c.put("tsd.storage.hbase.zk_basedir", znodeParent);
    c.put("tsd.storage.hbase.data_table", options.dataTable().getNameAsString());
    c.put("tsd.storage.hbase.uid_table", options.uidTable().getNameAsString());
    c.put("tsd.storage.hbase.tree_table", options.treeTable().getNameAsString());
    c.put("tsd.storage.hbase.meta_table", options.metaTable().getNameAsString());
    c.put("tsd.core.auto_create_metrics", "true");
    // Without it a second value for the same timestamp makes later queries of that row fail.
    c.put("tsd.storage.fix_duplicates", "true");
    // Large /api/put batches arrive chunked from some clients (Telegraf, our benchmark).
    c.put("tsd.http.request.enable_chunked", "true");
    c.put("tsd.http.request.max_chunk", Integer.toString(64 << 20));
    // asynchbase buffers puts for up to this long (default 1000 ms): `sync` puts would wait a
    // second.
    c.put("hbase.rpcs.buffered_flush_interval", "50");
    // HBase 2 has no getClosestRowBefore; asynchbase would try it, fail and then scan hbase:meta.
    c.put("hbase.meta.scan", "true");
    // Meta tracking costs extra writes per point that Casebook does not do; off (the default too).
    c.put("tsd.core.meta.enable_realtime_ts", "false");
    c.put("tsd.core.meta.enable_realtime_uid", "false");
    c.put("tsd.core.meta.enable_tsuid_incrementing", "false");
    c.put("tsd.core.meta.enable_tsuid_tracking", "false");
    // Row compaction as in production (the default), so bytes per point compare like for like.
    c.put("tsd.storage.enable_compaction", "true");
    if (options.saltWidth() > 0) {
      c.put("tsd.storage.salt.width", Integer.toString(options.saltWidth()));
      c.put("tsd.storage.salt.buckets", Integer.toString(options.saltBuckets()));
    }
    c.putAll(options.config());
    StringBuilder sb =
        new StringBuilder("# Written by Casebook's OpenTsdbPeer; rewritten each start\n");
    c.forEach((k, v) -> sb.append(k).append(" = ").append(v).append('\n'));
    return sb.toString();
  }

  static final String LOGBACK =
      """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- Written by Casebook's OpenTsdbPeer: INFO to stdout, which goes to opentsdb.log. Without
         a file logback 1.0 logs DEBUG, every RPC. Per-request and per-connection lines are off:
         under a benchmark their I/O would count against OpenTSDB's rate. -->
    <configuration>
      <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
        <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
      </appender>
      <logger name="net.opentsdb.stats.QueryStats" level="WARN"/>
      <logger name="QueryLog" level="WARN"/>
      <logger name="net.opentsdb.tsd.HttpQuery" level="WARN"/>
      <logger name="net.opentsdb.tsd.ConnectionManager" level="WARN"/>
      <logger name="org.apache.zookeeper" level="WARN"/>
      <root level="INFO"><appender-ref ref="STDOUT"/></root>
    </configuration>
    """;
}
