package org.casebook.core;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's one HBase {@link Connection}, and, in embedded mode, the HBase it talks to.
 *
 * <ul>
 *   <li><b>embedded</b>: HBase's own standalone mode in this JVM (ZooKeeper, master and region
 *       server threads, root directory on local disk under the data directory), every socket on
 *       127.0.0.1 with random ports. Data survives restarts. One process owns a data directory at a
 *       time (a file lock says which).
 *   <li><b>attached</b>: another Casebook process already runs embedded HBase on this data
 *       directory; this one connects to it as a client (so CLI commands work next to {@code
 *       serve}).
 *   <li><b>cluster</b>: a real HBase, found through {@code --zk} or an {@code hbase-site.xml}
 *       ({@code HBASE_CONF_DIR} or the classpath).
 * </ul>
 *
 * The mode is chosen once, in {@link #start}. {@link #close} shuts down everything it started.
 */
public final class HBaseRuntime implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HBaseRuntime.class);
  private static final String LOCK_FILE = "casebook.lock";
  private static final String RUNTIME_FILE = "casebook-runtime.properties";

  /**
   * {@code false} makes the embedded runtime's connection call its region server over loopback RPC
   * like any other client, instead of in process (the default).
   */
  public static final String IN_PROCESS_CALLS_KEY = "casebook.embedded.in-process-calls";

  /** How often the embedded region server reports to its master, in ms. */
  static final String REPORT_INTERVAL_KEY = "hbase.regionserver.msginterval";

  private static final java.util.List<String> HADOOP_SITE_FILES =
      java.util.List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml");

  /** Where HBase runs. */
  public enum Mode {
    EMBEDDED,
    CLUSTER;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Mode mode;
  private final boolean attached;
  private final Configuration conf;
  private final Connection connection;
  private final String description;
  private final long startMillis;
  private final MiniZooKeeperCluster zk;
  private final LocalHBaseCluster cluster;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Path runtimeFile;
  private volatile boolean closed;

  private HBaseRuntime(
      Mode mode,
      boolean attached,
      Configuration conf,
      Connection connection,
      String description,
      long startMillis,
      MiniZooKeeperCluster zk,
      LocalHBaseCluster cluster,
      FileChannel lockChannel,
      FileLock lock,
      Path runtimeFile) {
    this.mode = mode;
    this.attached = attached;
    this.conf = conf;
    this.connection = connection;
    this.description = description;
    this.startMillis = startMillis;
    this.zk = zk;
    this.cluster = cluster;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.runtimeFile = runtimeFile;
  }

  /** Starts (or connects to) HBase as {@code settings} say. */
  public static HBaseRuntime start(RuntimeSettings settings) {
    Objects.requireNonNull(settings, "settings is null");
    long t0 = System.nanoTime();
    Configuration conf = HBaseConfiguration.create();
    boolean clusterConfigured = conf.getResource("hbase-site.xml") != null;
    // Hadoop's site files first, HBase's last (as Hadoop's own clients load them).
    for (Path dir : settings.hadoopConfDir().stream().toList()) {
      InvalidInputException.check(
          Files.isDirectory(dir), "HADOOP_CONF_DIR", "no such directory: " + dir);
      for (String site : HADOOP_SITE_FILES) {
        Path file = dir.resolve(site);
        if (Files.isRegularFile(file)) {
          conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
        }
      }
    }
    if (settings.confDir().isPresent()) {
      Path site = settings.confDir().get().resolve("hbase-site.xml");
      if (!Files.isRegularFile(site)) {
        throw new InvalidInputException(
            "HBASE_CONF_DIR", "no hbase-site.xml in " + settings.confDir().get());
      }
      conf.addResource(new org.apache.hadoop.fs.Path(site.toAbsolutePath().toUri()));
      clusterConfigured = true;
    }
    if (settings.zkQuorum().isPresent()) {
      applyQuorum(conf, settings.zkQuorum().get());
      clusterConfigured = true;
    }
    // Client-side RPC metrics for /metrics; cheap, and an override can turn them off.
    conf.setBoolean("hbase.client.metrics.enable", true);
    // The client's batch pool defaults to 256 threads ("hconnection-shared-pool"), each with its
    // own stack: under 16 HTTP clients the process grew by ~600 MB. A few per core suffice here.
    int cores = Runtime.getRuntime().availableProcessors();
    conf.setInt("hbase.hconnection.threads.max", Math.max(8, 4 * cores));
    conf.setInt("hbase.hconnection.threads.core", Math.max(8, 4 * cores));
    conf.setInt("hbase.htable.threads.max", Math.max(8, 4 * cores));
    settings.overrides().forEach(conf::set);
    org.casebook.core.schema.PureJavaCodecs.install(conf);
    try {
      if (clusterConfigured) {
        return connectCluster(conf, t0);
      }
      return startOrAttachEmbedded(
          conf, settings.dataDir().toAbsolutePath().normalize(), settings.overrides(), t0);
    } catch (IOException e) {
      throw StorageException.of("start HBase", e);
    }
  }

  private static void applyQuorum(Configuration conf, String quorum) {
    StringBuilder hosts = new StringBuilder();
    String port = null;
    List<String> entries = new ArrayList<>(Arrays.asList(quorum.split(",", -1)));
    // As before: trailing empty entries ("a,b,") are ignored; an empty entry elsewhere is rejected.
    while (!entries.isEmpty() && entries.get(entries.size() - 1).isEmpty()) {
      entries.remove(entries.size() - 1);
    }
    for (String entry : entries) {
      String e = entry.trim();
      InvalidInputException.check(
          !e.isEmpty(), "zk", "empty host in ZooKeeper quorum '" + quorum + "'");
      int colon = e.lastIndexOf(':');
      String host = colon < 0 ? e : e.substring(0, colon);
      if (colon >= 0) {
        String p = e.substring(colon + 1);
        InvalidInputException.check(
            p.matches("\\d{1,5}"), "zk", "bad port in ZooKeeper quorum entry '" + e + "'");
        InvalidInputException.check(
            port == null || port.equals(p),
            "zk",
            "all ZooKeeper quorum members must use the same client port");
        port = p;
      }
      hosts.append(hosts.length() == 0 ? "" : ",").append(host);
    }
    conf.set(HConstants.ZOOKEEPER_QUORUM, hosts.toString());
    if (port != null) {
      conf.set(HConstants.ZOOKEEPER_CLIENT_PORT, port);
    }
  }

  private static HBaseRuntime connectCluster(Configuration conf, long t0) throws IOException {
    String quorum =
        conf.get(HConstants.ZOOKEEPER_QUORUM)
            + ":"
            + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT, "2181");
    conf.setInt("hbase.client.retries.number", conf.getInt("hbase.client.retries.number", 10));
    Connection connection =
        ConnectionFactory.createConnection(ClientConnections.withRequestDeadlines(conf));
    try {
      awaitRegionServer(connection, 60_000);
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
    return new HBaseRuntime(
        Mode.CLUSTER,
        false,
        conf,
        connection,
        "cluster (ZooKeeper " + quorum + ")",
        millisSince(t0),
        null,
        null,
        null,
        null,
        null);
  }

  private static HBaseRuntime startOrAttachEmbedded(
      Configuration conf, Path dataDir, Map<String, String> overrides, long t0) throws IOException {
    createPrivateDirectory(dataDir);
    FileChannel channel =
        FileChannel.open(
            dataDir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException sameJvm) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      return attach(conf, dataDir, t0);
    }
    try {
      return startEmbedded(conf, dataDir, overrides, channel, lock, t0);
    } catch (IOException | RuntimeException e) {
      lock.release();
      channel.close();
      throw e;
    }
  }

  /** The data directory is this user's alone (0700): HBase files, the runtime file, rejects. */
  private static void createPrivateDirectory(Path dir) throws IOException {
    boolean existed = Files.isDirectory(dir);
    Files.createDirectories(dir);
    if (!existed && dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(
          dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    }
  }

  private static HBaseRuntime attach(Configuration conf, Path dataDir, long t0) throws IOException {
    Path file = dataDir.resolve(RUNTIME_FILE);
    long deadline = System.currentTimeMillis() + 120_000;
    // The owner writes the file once its HBase is up; wait for a starting server.
    while (!Files.isRegularFile(file)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(
            "data directory "
                + dataDir
                + " is locked by another process that has not published "
                + "its HBase address in "
                + RUNTIME_FILE);
      }
      sleep(250);
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    }
    conf.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
    conf.set(HConstants.ZOOKEEPER_CLIENT_PORT, p.getProperty("zk.port"));
    // Where the owner keeps HBase's files: backups read snapshot sizes and import into it.
    conf.set(HConstants.HBASE_DIR, dataDir.resolve("hbase").toUri().toString());
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    Connection connection = ConnectionFactory.createConnection(conf);
    try {
      awaitRegionServer(connection, 60_000);
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
    return new HBaseRuntime(
        Mode.EMBEDDED,
        true,
        conf,
        connection,
        "embedded, attached to the HBase of process "
            + p.getProperty("pid")
            + " (data "
            + dataDir
            + ", ZooKeeper 127.0.0.1:"
            + p.getProperty("zk.port")
            + ")",
        millisSince(t0),
        null,
        null,
        null,
        null,
        null);
  }

  private static HBaseRuntime startEmbedded(
      Configuration conf,
      Path dataDir,
      Map<String, String> overrides,
      FileChannel channel,
      FileLock lock,
      long t0)
      throws IOException {
    Path tmp = dataDir.resolve("tmp");
    Files.createDirectories(tmp);
    conf.setBoolean(HConstants.CLUSTER_DISTRIBUTED, false);
    conf.set(HConstants.HBASE_DIR, dataDir.resolve("hbase").toUri().toString());
    conf.set("hbase.tmp.dir", tmp.resolve("hbase").toString());
    conf.set("hadoop.tmp.dir", tmp.resolve("hadoop").toString());
    conf.set("hbase.fs.tmp.dir", tmp.resolve("hbase-staging").toString());
    conf.set(HConstants.ZOOKEEPER_DATA_DIR, dataDir.resolve("zk").toString());
    conf.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
    conf.set("hbase.zookeeper.property.clientPortAddress", "127.0.0.1");
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.setInt(HConstants.MASTER_PORT, 0);
    conf.setInt(HConstants.REGIONSERVER_PORT, 0);
    conf.setInt(HConstants.MASTER_INFO_PORT, -1);
    conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.setInt("hbase.master.start.timeout.localHBaseCluster", 300_000);
    // Measured: these two together halve cold start-up for a one-server cluster (a long-running
    // process reports less often: RuntimeSettings.forLongRunning).
    conf.setInt("hbase.master.wait.on.regionservers.maxtostart", 1);
    conf.setInt(REPORT_INTERVAL_KEY, 500);
    // HBase 2.6 counts the blocks a call read toward this size: a multi-get of 2,000 rows over 64
    // KiB blocks (about 100 MB of blocks) logged a "responseTooLarge" warning for every call.
    conf.setInt("hbase.ipc.warn.response.size", 1 << 30);
    // Permissions without a forked chmod per file (see NioLocalFileSystem).
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    // The region server's request and block buffers on the heap, not in Netty's or HBase's
    // off-heap pools: twice a 1M-URL bench frontier run killed the JVM (SIGSEGV copying a cell
    // into an RPC response from off-heap memory already given back). A heap buffer lives as long
    // as anything refers to it; the price is garbage the collector handles.
    conf.set("hbase.netty.rpcserver.allocator", "heap");
    conf.setBoolean("hbase.server.allocator.pool.enabled", false);
    overrides.forEach(conf::set);
    boolean inProcess = ClientConnections.inProcessCalls(conf);

    MiniZooKeeperCluster zk = new MiniZooKeeperCluster(conf);
    LocalHBaseCluster cluster = null;
    Connection connection = null;
    try {
      int zkPort;
      // A fresh ZooKeeper every start: after a SIGKILL the old master's session would otherwise
      // live on in ZooKeeper's snapshot, and the new master waits out its 40 s timeout before it
      // may become active. Nothing of HBase 2.6's lives only in ZooKeeper (meta's location is in
      // the master's local region, table states in meta), and we hold the data directory's lock.
      LocalFiles.deleteRecursively(dataDir.resolve("zk"));
      try {
        zkPort = zk.startup(dataDir.resolve("zk").toFile());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while starting ZooKeeper", e);
      }
      conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, zkPort);
      cluster = new LocalHBaseCluster(conf, 1, 1, HMaster.class, HRegionServer.class);
      cluster.startup();
      connection =
          inProcess
              ? ClientConnections.inProcess(conf, cluster.getRegionServer(0))
              : ConnectionFactory.createConnection(conf);
      awaitRegionServer(connection, 120_000);
      Path runtimeFile = dataDir.resolve(RUNTIME_FILE);
      Properties p = new Properties();
      p.setProperty("zk.port", Integer.toString(zkPort));
      p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
      try (OutputStream out = Files.newOutputStream(runtimeFile)) {
        p.store(
            out,
            "written by the Casebook process that owns this data directory; removed on clean shutdown");
      }
      return new HBaseRuntime(
          Mode.EMBEDDED,
          false,
          conf,
          connection,
          "embedded (data "
              + dataDir
              + ", ZooKeeper 127.0.0.1:"
              + zkPort
              + (inProcess ? ", in-process calls" : "")
              + ")",
          millisSince(t0),
          zk,
          cluster,
          channel,
          lock,
          runtimeFile);
    } catch (IOException | RuntimeException e) {
      closeQuietlyAfterFailure(connection, cluster, zk, e);
      throw e;
    }
  }

  private static void closeQuietlyAfterFailure(
      Connection connection,
      LocalHBaseCluster cluster,
      MiniZooKeeperCluster zk,
      Exception primary) {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
    if (cluster != null) {
      cluster.shutdown();
      cluster.join();
    }
    try {
      zk.shutdown();
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
  }

  private static void awaitRegionServer(Connection connection, long timeoutMillis)
      throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    try (Admin admin = connection.getAdmin()) {
      while (true) {
        ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
        if (!m.getLiveServerMetrics().isEmpty()
            && admin.isTableAvailable(org.apache.hadoop.hbase.TableName.META_TABLE_NAME)) {
          return;
        }
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("no live region server after " + timeoutMillis / 1000 + " s");
        }
        sleep(100);
      }
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  public Connection connection() {
    return connection;
  }

  /** The configuration the connection uses (for MapReduce jobs and tools). */
  public Configuration configuration() {
    return new Configuration(conf);
  }

  public Mode mode() {
    return mode;
  }

  /** True when this process is a client of another process's embedded HBase. */
  public boolean attached() {
    return attached;
  }

  /**
   * Why the embedded HBase this process owns no longer serves: its region server or master aborted
   * (a WAL it cannot write, say) or stopped while this runtime is open. Empty while it serves, and
   * always for a cluster or an attached runtime, whose HBase recovers on its own.
   */
  public java.util.Optional<String> embeddedFailure() {
    if (cluster == null || closed) {
      return java.util.Optional.empty();
    }
    for (org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread t :
        cluster.getRegionServers()) {
      HRegionServer rs = t.getRegionServer();
      if (rs.isAborted() || rs.isStopped() || !t.isAlive()) {
        return java.util.Optional.of(
            "the embedded region server "
                + (rs.isAborted() ? "aborted" : "stopped")
                + " (its log above says why)");
      }
    }
    for (org.apache.hadoop.hbase.util.JVMClusterUtil.MasterThread t : cluster.getMasters()) {
      HMaster m = t.getMaster();
      if (m.isAborted() || m.isStopped() || !t.isAlive()) {
        return java.util.Optional.of(
            "the embedded master "
                + (m.isAborted() ? "aborted" : "stopped")
                + " (its log above says why)");
      }
    }
    return java.util.Optional.empty();
  }

  public String description() {
    return description;
  }

  public long startupMillis() {
    return startMillis;
  }

  /** Live region servers, as the master reports them. */
  public int liveRegionServers() {
    try (Admin admin = connection.getAdmin()) {
      return admin
          .getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
          .getLiveServerMetrics()
          .size();
    } catch (IOException e) {
      throw StorageException.of("read cluster status", e);
    }
  }

  /**
   * Closes the connection; in owned embedded mode also stops HBase and ZooKeeper (in that order).
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    try {
      connection.close();
    } catch (IOException e) {
      failure = e;
    }
    if (cluster != null) {
      cluster.shutdown();
      cluster.join();
    }
    if (zk != null) {
      try {
        zk.shutdown();
      } catch (IOException e) {
        failure = addTo(failure, e);
      }
    }
    if (lock != null) {
      try {
        Files.deleteIfExists(runtimeFile);
        lock.release();
        lockChannel.close();
      } catch (IOException e) {
        failure = addTo(failure, e);
      }
    }
    if (failure != null) {
      throw StorageException.of("shut HBase down cleanly", failure);
    }
    LOG.info("HBase runtime closed ({}{})", mode.label(), attached ? ", attached client only" : "");
  }

  private static IOException addTo(IOException first, IOException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
