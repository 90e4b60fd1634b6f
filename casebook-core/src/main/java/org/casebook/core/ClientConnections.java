package org.casebook.core;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * How {@link HBaseRuntime}'s one connection is made: a cluster's with request deadlines, the
 * embedded owner's in process.
 */
final class ClientConnections {
  private ClientConnections() {}

  /**
   * How long one client operation on a cluster may take, retries included, unless the operator's
   * site files or {@code --hbase} say otherwise: HBase's default (20 minutes) makes a request wait
   * out a dead RegionServer's detection and recovery; bounded, it fails as storage unavailable (503
   * with {@code Retry-After}) and the caller retries.
   */
  static final Map<String, Integer> REQUEST_DEADLINES =
      Map.of(
          HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 10_000,
          HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, 10_000);

  /**
   * The connection's configuration: {@code conf} with the request deadlines where the operator set
   * none. Batch jobs keep {@code conf} (their tasks wait out a region's move).
   */
  static Configuration withRequestDeadlines(Configuration conf) {
    Configuration client = new Configuration(conf);
    REQUEST_DEADLINES.forEach(
        (key, millis) -> {
          if (!setByOperator(conf, key)) {
            client.setInt(key, millis);
          }
        });
    return client;
  }

  private static boolean setByOperator(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return false;
    }
    for (String source : sources) {
      if (!source.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the embedded runtime's connection calls its region server in process ({@link
   * HBaseRuntime#IN_PROCESS_CALLS_KEY}, on unless set to {@code false}).
   */
  static boolean inProcessCalls(Configuration conf) {
    String value = conf.getTrimmed(HBaseRuntime.IN_PROCESS_CALLS_KEY, "true");
    InvalidInputException.check(
        value.equals("true") || value.equals("false"),
        HBaseRuntime.IN_PROCESS_CALLS_KEY,
        "must be true or false, not " + value);
    return value.equals("true");
  }

  /**
   * The connection HBase gives its own servers: a call to a region of the local region server runs
   * on the caller's thread in that server's request code, with no socket, no Netty and no handler
   * queue between them (a Get over loopback RPC costs several times the Get itself). Master calls
   * and other servers' regions still go over RPC. Processes attached to this HBase (a CLI beside a
   * serve, MapReduce tasks) connect over RPC as before.
   */
  static Connection inProcess(Configuration conf, HRegionServer server) throws IOException {
    return org.apache.hadoop.hbase.client.ServerConnectionUtils.createShortCircuitConnection(
        conf,
        null,
        server.getServerName(),
        server.getRSRpcServices(),
        server.getRSRpcServices(),
        null);
  }
}
