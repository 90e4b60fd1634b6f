package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cluster mode against a real HBase server in another process: HBase's own {@code HMaster start}
 * (standalone, over loopback), reached through ZooKeeper exactly as a remote cluster would be.
 */
class ClusterModeIT {
  private static Path confDir;
  private static int zkPort;
  private static Process server;
  private static Path log;

  @BeforeAll
  static void startServer() throws Exception {
    Path dir = EmbeddedHBase.scratchDir("cluster-mode");
    confDir = Files.createDirectories(dir.resolve("conf"));
    zkPort = freePort();
    Files.writeString(confDir.resolve("hbase-site.xml"), siteXml(dir, zkPort));
    log = dir.resolve("hmaster.log");
    server = hbaseCommand("start").redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server == null) {
      return;
    }
    try {
      Process stop =
          hbaseCommand("stop", "--shutDownCluster")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      stop.waitFor(60, TimeUnit.SECONDS);
      stop.destroyForcibly();
      server.waitFor(60, TimeUnit.SECONDS);
    } finally {
      server.destroyForcibly();
    }
  }

  @Test
  void zookeeperQuorumOptionReachesTheServer() throws Exception {
    RuntimeSettings settings = RuntimeSettings.cluster("127.0.0.1:" + zkPort);
    try (HBaseRuntime runtime = startWithRetry(settings)) {
      assertThat(runtime.mode()).isEqualTo(HBaseRuntime.Mode.CLUSTER);
      assertThat(runtime.description()).contains("127.0.0.1").contains(Integer.toString(zkPort));
      assertThat(runtime.liveRegionServers()).isEqualTo(1);
      roundTrip(runtime, "via-zk");
    }
  }

  /**
   * A request to a region no server holds fails within the connection's deadline as storage
   * unavailable (a 503 over HTTP), instead of waiting out HBase's 20-minute default (here the
   * deadline is set short; {@code RequestDeadlinesTest} checks the default one).
   */
  @Test
  void aRequestToARegionNoServerHoldsEndsWithinTheDeadline() throws Exception {
    RuntimeSettings bounded =
        RuntimeSettings.cluster("127.0.0.1:" + zkPort)
            .withOverrides(Map.of("hbase.client.operation.timeout", "3000"));
    try (HBaseRuntime runtime = startWithRetry(bounded)) {
      roundTrip(runtime, "before-unassign");
      TableSpec spec =
          TableSpec.of(
              "casebook_cluster", "t", "k", SplitPoints.leadingByteBuckets(2), FamilySpec.of("f"));
      byte[] row = Bytes.toBytes("before-unassign");
      byte[] region;
      try (org.apache.hadoop.hbase.client.RegionLocator locator =
          runtime.connection().getRegionLocator(spec.name())) {
        region = locator.getRegionLocation(row).getRegion().getRegionName();
      }
      try (org.apache.hadoop.hbase.client.Admin admin = runtime.connection().getAdmin()) {
        admin.unassign(region);
        try (Table t = runtime.connection().getTable(spec.name())) {
          long t0 = System.nanoTime();
          IOException failed = null;
          try {
            t.get(new Get(row));
          } catch (IOException e) {
            failed = e;
          }
          long millis = (System.nanoTime() - t0) / 1_000_000;
          assertThat(failed).as("a get of an unassigned region").isNotNull();
          assertThat(ErrorKind.of(failed)).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
          assertThat(millis)
              .as("retried, then ended within the deadline")
              .isBetween(1_000L, 3_000L + 5_000L);
        } finally {
          admin.assign(region);
        }
      }
      roundTrip(runtime, "before-unassign");
    }
  }

  @Test
  void hbaseConfDirReachesTheServer() throws Exception {
    RuntimeSettings settings =
        new RuntimeSettings(Path.of("unused"), Optional.empty(), Optional.of(confDir), Map.of());
    try (HBaseRuntime runtime = startWithRetry(settings)) {
      assertThat(runtime.mode()).isEqualTo(HBaseRuntime.Mode.CLUSTER);
      roundTrip(runtime, "via-conf-dir");
    }
  }

  private static void roundTrip(HBaseRuntime runtime, String row) throws IOException {
    TableSpec spec =
        TableSpec.of(
            "casebook_cluster", "t", "k", SplitPoints.leadingByteBuckets(2), FamilySpec.of("f"));
    new SchemaManager(runtime.connection()).ensure(spec);
    byte[] f = Bytes.toBytes("f");
    try (Table t = runtime.connection().getTable(spec.name())) {
      t.put(new Put(Bytes.toBytes(row)).addColumn(f, f, Bytes.toBytes("v")));
      assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes(row))).getValue(f, f))).isEqualTo("v");
    }
  }

  /** The server takes a few seconds to come up; connection attempts before that fail fast. */
  private static HBaseRuntime startWithRetry(RuntimeSettings settings) throws Exception {
    long deadline = System.currentTimeMillis() + 180_000;
    while (true) {
      assertThat(server.isAlive()).as("HMaster process died; see %s", log).isTrue();
      try {
        return HBaseRuntime.start(settings);
      } catch (RuntimeException e) {
        if (System.currentTimeMillis() > deadline) {
          throw new AssertionError("server did not come up; see " + log, e);
        }
        Thread.sleep(1000);
      }
    }
  }

  private static ProcessBuilder hbaseCommand(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    cmd.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    cmd.add("-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true");
    cmd.add("-cp");
    cmd.add(confDir + java.io.File.pathSeparator + System.getProperty("java.class.path"));
    cmd.add("org.apache.hadoop.hbase.master.HMaster");
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd);
  }

  private static String siteXml(Path dir, int zkPort) {
    Map<String, String> p = new java.util.LinkedHashMap<>();
    p.put("hbase.cluster.distributed", "false");
    p.put("hbase.rootdir", dir.resolve("hbase").toUri().toString());
    p.put("hbase.tmp.dir", dir.resolve("tmp").toString());
    p.put("hbase.zookeeper.quorum", "127.0.0.1");
    p.put("hbase.zookeeper.property.clientPort", Integer.toString(zkPort));
    p.put("hbase.zookeeper.property.dataDir", dir.resolve("zk").toString());
    p.put("hbase.master.ipc.address", "127.0.0.1");
    p.put("hbase.regionserver.ipc.address", "127.0.0.1");
    p.put("hbase.master.port", "0");
    p.put("hbase.regionserver.port", "0");
    p.put("hbase.master.info.port", "-1");
    p.put("hbase.regionserver.info.port", "-1");
    p.put("hbase.unsafe.stream.capability.enforce", "false");
    p.put("hbase.master.wait.on.regionservers.maxtostart", "1");
    p.put("hbase.regionserver.msginterval", "500");
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    p.forEach(
        (k, v) ->
            sb.append("  <property><name>")
                .append(k)
                .append("</name><value>")
                .append(v)
                .append("</value></property>\n"));
    return sb.append("</configuration>\n").toString();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
