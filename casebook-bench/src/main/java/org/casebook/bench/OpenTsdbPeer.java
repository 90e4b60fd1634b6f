package org.casebook.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real OpenTSDB 2.4.1 TSD, run as a child JVM against a Casebook {@link HBaseRuntime}, as the
 * reference the tsdb system is compared with (answers, ingest rate, query latency, bytes on disk).
 *
 * <p>A child process because OpenTSDB needs Guava 18, Netty 3, Jackson 2.9, logback 1.0 and
 * ZooKeeper 3.4, which must never meet Casebook's classpath. Its jars are a flat directory built by
 * the {@code casebook-peer-opentsdb} module (casebook-bench/peers/opentsdb): {@code
 * target/casebook-bench/peers/opentsdb/} next to {@code casebook-bench.jar} in the benchmark
 * distribution, the system property {@value #JARS_PROPERTY} in casebook-bench's integration tests.
 *
 * <p>Its HBase client, asynchbase 1.8.2, works on HBase 2.6: it first asks for the region with
 * {@code getClosestRowBefore}, which HBase 2 removed, gets {@code UnknownProtocolException} and
 * falls back to scanning {@code hbase:meta}; {@code hbase.meta.scan=true} in the generated config
 * starts it on the scan.
 *
 * <p>The four tables are created here first, as OpenTSDB's {@code src/create_table.sh} does, except
 * for compression and data block encoding: by default the same as Casebook's tables (none and none,
 * see {@code FamilySpec}), so bytes per point compare storage layouts, not codecs.
 */
public final class OpenTsdbPeer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpenTsdbPeer.class);

  /** Where the OpenTSDB jars are when not next to the running jar (set by failsafe in tests). */
  public static final String JARS_PROPERTY = "casebook.peer.opentsdb.dir";

  private static final String MAIN_CLASS = "net.opentsdb.tools.TSDMain";
  private static final int LOG_TAIL_BYTES = 8192;

  /**
   * How one instance runs.
   *
   * @param workDir config, logs, static root and cache dir of this instance
   * @param tablePrefix put in front of OpenTSDB's table names ({@code tsdb}, {@code tsdb-uid}, …);
   *     {@code "ns:"} puts them in the HBase namespace {@code ns} (created if missing), so a test
   *     or benchmark can run an instance independent of another
   * @param heap the child's {@code -Xmx} value
   * @param saltWidth {@code tsd.storage.salt.width}; 0 is unsalted (OpenTSDB's default)
   * @param saltBuckets {@code tsd.storage.salt.buckets}; the data table is pre-split into as many
   *     regions when salted
   * @param dataBlockEncoding encoding of every family; NONE like Casebook's tables, DIFF is {@code
   *     create_table.sh}'s
   * @param compression codec of every family; NONE like Casebook's tables ({@code create_table.sh}
   *     says LZO)
   * @param dropExistingTables drop OpenTSDB's tables first, for a run from empty tables
   * @param startTimeout how long to wait for {@code /api/version} to answer
   * @param config extra {@code opentsdb.conf} entries, applied last (so they can override ours)
   * @param jvmArgs extra arguments for the child JVM
   */
  public record Options(
      Path workDir,
      String tablePrefix,
      String heap,
      int saltWidth,
      int saltBuckets,
      DataBlockEncoding dataBlockEncoding,
      Compression.Algorithm compression,
      boolean dropExistingTables,
      Duration startTimeout,
      Map<String, String> config,
      List<String> jvmArgs) {
    public Options {
      Objects.requireNonNull(workDir, "workDir is null");
      Objects.requireNonNull(tablePrefix, "tablePrefix is null");
      Objects.requireNonNull(heap, "heap is null");
      Objects.requireNonNull(dataBlockEncoding, "dataBlockEncoding is null");
      Objects.requireNonNull(compression, "compression is null");
      Objects.requireNonNull(startTimeout, "startTimeout is null");
      if (saltWidth < 0 || saltWidth > 8) {
        throw new IllegalArgumentException("salt width must be 0..8: " + saltWidth);
      }
      if (saltWidth > 0 && (saltBuckets < 1 || saltBuckets > 256)) {
        throw new IllegalArgumentException("salt buckets must be 1..256: " + saltBuckets);
      }
      if (tablePrefix.indexOf(':') != tablePrefix.lastIndexOf(':')) {
        throw new IllegalArgumentException("at most one ':' in a table prefix: " + tablePrefix);
      }
      config = Map.copyOf(config);
      jvmArgs = List.copyOf(jvmArgs);
    }

    /** Default tables, 512 MB heap, unsalted, no encoding or compression, 2 minutes to start. */
    public static Options defaults(Path workDir) {
      return new Options(
          workDir,
          "",
          "512m",
          0,
          20,
          DataBlockEncoding.NONE,
          Compression.Algorithm.NONE,
          false,
          Duration.ofMinutes(2),
          Map.of(),
          List.of());
    }

    public Options withTablePrefix(String prefix) {
      return new Options(
          workDir,
          prefix,
          heap,
          saltWidth,
          saltBuckets,
          dataBlockEncoding,
          compression,
          dropExistingTables,
          startTimeout,
          config,
          jvmArgs);
    }

    public Options withHeap(String value) {
      return new Options(
          workDir,
          tablePrefix,
          value,
          saltWidth,
          saltBuckets,
          dataBlockEncoding,
          compression,
          dropExistingTables,
          startTimeout,
          config,
          jvmArgs);
    }

    public Options withSalt(int width, int buckets) {
      return new Options(
          workDir,
          tablePrefix,
          heap,
          width,
          buckets,
          dataBlockEncoding,
          compression,
          dropExistingTables,
          startTimeout,
          config,
          jvmArgs);
    }

    public Options withStorage(DataBlockEncoding encoding, Compression.Algorithm codec) {
      return new Options(
          workDir,
          tablePrefix,
          heap,
          saltWidth,
          saltBuckets,
          encoding,
          codec,
          dropExistingTables,
          startTimeout,
          config,
          jvmArgs);
    }

    public Options withDropExistingTables(boolean value) {
      return new Options(
          workDir,
          tablePrefix,
          heap,
          saltWidth,
          saltBuckets,
          dataBlockEncoding,
          compression,
          value,
          startTimeout,
          config,
          jvmArgs);
    }

    public Options withStartTimeout(Duration value) {
      return new Options(
          workDir,
          tablePrefix,
          heap,
          saltWidth,
          saltBuckets,
          dataBlockEncoding,
          compression,
          dropExistingTables,
          value,
          config,
          jvmArgs);
    }

    /** Adds one {@code opentsdb.conf} entry (applied after ours). */
    public Options withConfig(String key, String value) {
      Map<String, String> m = new LinkedHashMap<>(config);
      m.put(key, value);
      return new Options(
          workDir,
          tablePrefix,
          heap,
          saltWidth,
          saltBuckets,
          dataBlockEncoding,
          compression,
          dropExistingTables,
          startTimeout,
          m,
          jvmArgs);
    }

    public Options withJvmArgs(List<String> args) {
      return new Options(
          workDir,
          tablePrefix,
          heap,
          saltWidth,
          saltBuckets,
          dataBlockEncoding,
          compression,
          dropExistingTables,
          startTimeout,
          config,
          args);
    }

    public TableName dataTable() {
      return TableName.valueOf(tablePrefix + "tsdb");
    }

    public TableName uidTable() {
      return TableName.valueOf(tablePrefix + "tsdb-uid");
    }

    public TableName treeTable() {
      return TableName.valueOf(tablePrefix + "tsdb-tree");
    }

    public TableName metaTable() {
      return TableName.valueOf(tablePrefix + "tsdb-meta");
    }
  }

  private final Options options;
  private final Process process;
  private final int port;
  private final Path logFile;
  private boolean closed;

  private OpenTsdbPeer(Options options, Process process, int port, Path logFile) {
    this.options = options;
    this.process = process;
    this.port = port;
    this.logFile = logFile;
  }

  /**
   * Creates OpenTSDB's tables in {@code runtime}'s HBase (if missing), starts the TSD and returns
   * once {@code GET /api/version} answers.
   *
   * @throws StorageException if a table cannot be created
   * @throws IllegalStateException if the TSD does not come up (with the tail of its log)
   */
  public static OpenTsdbPeer start(HBaseRuntime runtime, Options options) {
    Objects.requireNonNull(runtime, "runtime is null");
    Objects.requireNonNull(options, "options is null");
    Path jars = locateJars();
    try {
      Path work = options.workDir().toAbsolutePath();
      Files.createDirectories(work.resolve("static"));
      Files.createDirectories(work.resolve("cache"));
      Files.createDirectories(work.resolve("tmp"));
      createTables(runtime, options);
      String quorum = zkQuorum(runtime.configuration());
      String znodeParent =
          runtime
              .configuration()
              .get(HConstants.ZOOKEEPER_ZNODE_PARENT, HConstants.DEFAULT_ZOOKEEPER_ZNODE_PARENT);
      IllegalStateException last = null;
      // A free port is found by binding and releasing it; another process may take it in between,
      // so a bind failure is retried on a fresh port.
      for (int attempt = 0; attempt < 3; attempt++) {
        int port = freeLoopbackPort();
        Path conf = work.resolve("opentsdb.conf");
        Files.writeString(conf, config(options, work, port, quorum, znodeParent));
        Path logback = work.resolve("logback.xml");
        Files.writeString(logback, LOGBACK);
        Path log = work.resolve("opentsdb.log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + options.heap());
        cmd.add("-Djava.io.tmpdir=" + work.resolve("tmp"));
        cmd.add("-Dlogback.configurationFile=" + logback);
        cmd.addAll(options.jvmArgs());
        cmd.add("-cp");
        cmd.add(jars.toAbsolutePath() + java.io.File.separator + "*");
        cmd.add(MAIN_CLASS);
        cmd.add("--config=" + conf);
        Process p =
            new ProcessBuilder(cmd)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                .start();
        OpenTsdbPeer peer = new OpenTsdbPeer(options, p, port, log);
        try {
          peer.awaitReady(options.startTimeout());
          LOG.info(
              "OpenTSDB 2.4.1 (pid {}) serving on 127.0.0.1:{}, tables {}*, log {}",
              p.pid(),
              port,
              options.tablePrefix(),
              log);
          return peer;
        } catch (IllegalStateException e) {
          peer.close();
          last = e;
          String tail = tail(log);
          if (!tail.contains("BindException") && !tail.contains("Address already in use")) {
            throw e;
          }
        }
      }
      throw last;
    } catch (IOException e) {
      throw new UncheckedIOException("start OpenTSDB in " + options.workDir(), e);
    }
  }

  /**
   * The directory of OpenTSDB's jars: {@value #JARS_PROPERTY} if set, else {@code peers/opentsdb/}
   * next to the running benchmark jar ({@code casebook-bench/target/casebook-bench/}).
   */
  public static Path locateJars() {
    List<Path> candidates = new ArrayList<>();
    String property = System.getProperty(JARS_PROPERTY);
    if (property != null && !property.isBlank()) {
      candidates.add(Path.of(property));
    } else {
      try {
        var source = OpenTsdbPeer.class.getProtectionDomain().getCodeSource();
        if (source != null) {
          Path here = Path.of(source.getLocation().toURI()).toAbsolutePath();
          Path dir = here.getParent();
          if (dir != null) {
            // lib/casebook-bench-….jar → ../peers/opentsdb; or casebook-bench.jar →
            // ./peers/opentsdb.
            candidates.add(dir.resolveSibling("peers").resolve("opentsdb"));
            candidates.add(dir.resolve("peers").resolve("opentsdb"));
          }
        }
      } catch (URISyntaxException | RuntimeException e) {
        LOG.debug("cannot tell where {} was loaded from", OpenTsdbPeer.class, e);
      }
    }
    for (Path c : candidates) {
      if (hasOpenTsdbJar(c)) {
        return c;
      }
    }
    throw new IllegalStateException(
        "OpenTSDB 2.4.1's jars were not found (looked in "
            + candidates
            + "). They are built by casebook-bench/peers/opentsdb: `mvn package -pl casebook-bench"
            + " -am` puts them in casebook-bench/target/casebook-bench/peers/opentsdb; or set -D"
            + JARS_PROPERTY
            + "=DIR");
  }

  private static boolean hasOpenTsdbJar(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("opentsdb-"));
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Creates the four tables as {@code create_table.sh} does (families, one version for {@code t},
   * row bloom filters), idempotently; the namespace of a {@code "ns:"} prefix too.
   */
  public static void createTables(HBaseRuntime runtime, Options options) {
    try (Admin admin = runtime.connection().getAdmin()) {
      TableName data = options.dataTable();
      if (!data.getNamespaceAsString().equals(NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR)) {
        ensureNamespace(admin, data.getNamespaceAsString());
      }
      List<TableName> all =
          List.of(data, options.uidTable(), options.treeTable(), options.metaTable());
      if (options.dropExistingTables()) {
        for (TableName t : all) {
          if (admin.tableExists(t)) {
            if (admin.isTableEnabled(t)) {
              admin.disableTable(t);
            }
            admin.deleteTable(t);
          }
        }
      }
      // create '$UID_TABLE', {NAME => 'id', …}, {NAME => 'name', …}
      create(admin, options, options.uidTable(), null, "id", "name");
      // create '$TSDB_TABLE', {NAME => 't', VERSIONS => 1, …, TTL => 'FOREVER'}
      create(admin, options, data, saltSplits(options), "t");
      // create '$TREE_TABLE', {NAME => 't', VERSIONS => 1, …}
      create(admin, options, options.treeTable(), null, "t");
      // create '$META_TABLE', {NAME => 'name', …}
      create(admin, options, options.metaTable(), null, "name");
    } catch (IOException e) {
      throw StorageException.of("create OpenTSDB's tables", e);
    }
  }

  private static void ensureNamespace(Admin admin, String namespace) throws IOException {
    try {
      admin.getNamespaceDescriptor(namespace);
    } catch (NamespaceNotFoundException e) {
      try {
        admin.createNamespace(NamespaceDescriptor.create(namespace).build());
      } catch (org.apache.hadoop.hbase.NamespaceExistException raced) {
        // Another process created it in between: what we wanted.
      }
    }
  }

  private static void create(
      Admin admin, Options options, TableName name, byte[][] splits, String... families)
      throws IOException {
    if (admin.tableExists(name)) {
      return;
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
    for (String f : families) {
      // create_table.sh leaves VERSIONS at HBase's default (1 since 0.96) for id/name; the same.
      b.setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(f))
              .setMaxVersions(1)
              .setBloomFilterType(BloomType.ROW)
              .setCompressionType(options.compression())
              .setDataBlockEncoding(options.dataBlockEncoding())
              .build());
    }
    try {
      if (splits == null) {
        admin.createTable(b.build());
      } else {
        admin.createTable(b.build(), splits);
      }
    } catch (TableExistsException raced) {
      // Created by another process in between: idempotent either way.
    }
  }

  /** One region per salt bucket (OpenTSDB's salting advice), keyed on the salt's first byte. */
  private static byte[][] saltSplits(Options options) {
    if (options.saltWidth() == 0 || options.saltBuckets() < 2) {
      return null;
    }
    byte[][] splits = new byte[options.saltBuckets() - 1][];
    for (int i = 1; i < options.saltBuckets(); i++) {
      byte[] key = new byte[options.saltWidth()];
      // OpenTSDB writes the bucket number big-endian in saltWidth bytes.
      int v = i;
      for (int j = options.saltWidth() - 1; j >= 0; j--) {
        key[j] = (byte) v;
        v >>>= 8;
      }
      splits[i - 1] = key;
    }
    return splits;
  }

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

  static String config(Options options, Path work, int port, String quorum, String znodeParent) {
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

  private static final String LOGBACK =
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

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(false);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return s.getLocalPort();
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File(
        System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")
            ? "NUL"
            : "/dev/null");
  }

  private void awaitReady(Duration timeout) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(baseUri().resolve("/api/version"))
            .timeout(Duration.ofSeconds(5))
            .GET()
            .build();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "OpenTSDB exited with status "
                + process.exitValue()
                + " while starting; last lines of "
                + logFile
                + ":\n"
                + tail(logFile));
      }
      try {
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for OpenTSDB", e);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "OpenTSDB did not answer /api/version within "
                + timeout.toSeconds()
                + " s; last lines of "
                + logFile
                + ":\n"
                + tail(logFile));
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for OpenTSDB", e);
      }
    }
  }

  /** The last few KB of a log file, for error messages. */
  static String tail(Path file) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long len = f.length();
      long from = Math.max(0, len - LOG_TAIL_BYTES);
      byte[] b = new byte[(int) (len - from)];
      f.seek(from);
      f.readFully(b);
      return new String(b, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e.getMessage() + ")";
    }
  }

  /** HTTP port of the TSD. */
  public int httpPort() {
    return port;
  }

  /** The telnet-style line protocol port: the same as HTTP, OpenTSDB sniffs each connection. */
  public int telnetPort() {
    return port;
  }

  /** {@code http://127.0.0.1:port}. */
  public URI baseUri() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The child JVM's process id (for its RSS). */
  public long pid() {
    return process.pid();
  }

  public Options options() {
    return options;
  }

  public Path logFile() {
    return logFile;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Stops the TSD: SIGTERM first (its shutdown hook flushes buffered puts), then a kill after 15 s;
   * its child processes (none normally) too. Waits for it to exit.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<ProcessHandle> children = process.descendants().toList();
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        LOG.warn("OpenTSDB (pid {}) did not stop in 15 s; killing it", process.pid());
        process.destroyForcibly();
        process.waitFor(15, TimeUnit.SECONDS);
      }
      for (ProcessHandle c : children) {
        c.destroyForcibly();
        c.onExit().get(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      LOG.warn("a child of OpenTSDB (pid {}) did not exit", process.pid(), e);
    }
  }
}
