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
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.HConstants;
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
 * <p>Its tables are created first ({@link OpenTsdbTables}), its config written from {@link
 * OpenTsdbOptions} ({@link OpenTsdbConfig}); then the child starts and this waits for its HTTP API.
 *
 * <p>Its HBase client, asynchbase 1.8.2, works on HBase 2.6: it first asks for the region with
 * {@code getClosestRowBefore}, which HBase 2 removed, gets {@code UnknownProtocolException} and
 * falls back to scanning {@code hbase:meta}; {@code hbase.meta.scan=true} in the generated config
 * starts it on the scan.
 */
public final class OpenTsdbPeer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpenTsdbPeer.class);

  /** Where the OpenTSDB jars are when not next to the running jar (set by failsafe in tests). */
  public static final String JARS_PROPERTY = "casebook.peer.opentsdb.dir";

  private static final String MAIN_CLASS = "net.opentsdb.tools.TSDMain";
  private static final int LOG_TAIL_BYTES = 8192;

  private final OpenTsdbOptions options;
  private final Process process;
  private final int port;
  private final Path logFile;
  private boolean closed;

  private OpenTsdbPeer(OpenTsdbOptions options, Process process, int port, Path logFile) {
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
  public static OpenTsdbPeer start(HBaseRuntime runtime, OpenTsdbOptions options) {
    Objects.requireNonNull(runtime, "runtime is null");
    Objects.requireNonNull(options, "options is null");
    Path jars = locateJars();
    try {
      Path work = options.workDir().toAbsolutePath();
      Files.createDirectories(work.resolve("static"));
      Files.createDirectories(work.resolve("cache"));
      Files.createDirectories(work.resolve("tmp"));
      OpenTsdbTables.create(runtime, options);
      String quorum = OpenTsdbConfig.zkQuorum(runtime.configuration());
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
        Files.writeString(conf, OpenTsdbConfig.config(options, work, port, quorum, znodeParent));
        Path logback = work.resolve("logback.xml");
        Files.writeString(logback, OpenTsdbConfig.LOGBACK);
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

  public OpenTsdbOptions options() {
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
