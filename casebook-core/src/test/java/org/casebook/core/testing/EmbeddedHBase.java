package org.casebook.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.hadoop.hbase.util.ManualEnvironmentEdge;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.RuntimeSettings;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: one embedded HBase per test JVM, started on first use and stopped when the
 * JVM's test run ends. Test classes use {@code @ExtendWith(EmbeddedHBase.class)} and take an {@link
 * HBaseRuntime} parameter. Tests share tables, so each test uses its own ids.
 *
 * <p>Given {@code -Dcasebook.it.zk=HOST:PORT}, it connects to that running cluster instead (cluster
 * mode, as {@code --zk} does), with {@code -Dcasebook.it.hbase.KEY=VALUE} as extra HBase
 * configuration (the cluster kit lacks ZSTD: {@code
 * -Dcasebook.it.hbase.casebook.compression.substitute=ZSTD:SNAPPY}). A test that needs the embedded
 * HBase calls {@link #assumeEmbedded} and is skipped there.
 */
public final class EmbeddedHBase implements BeforeAllCallback, ParameterResolver {
  private static final String KEY = EmbeddedHBase.class.getName();

  /** The ZooKeeper quorum of a running cluster to test against instead of an embedded HBase. */
  public static final String ZK_PROPERTY = "casebook.it.zk";

  /** Prefix of system properties passed to HBase's configuration on a cluster. */
  public static final String HBASE_PROPERTY_PREFIX = "casebook.it.hbase.";

  /** Keeps the runtime in the root store so JUnit closes it once, after every class ran. */
  private static final class Holder implements ExtensionContext.Store.CloseableResource {
    final HBaseRuntime runtime;

    Holder(HBaseRuntime runtime) {
      this.runtime = runtime;
    }

    @Override
    public void close() {
      runtime.close();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    runtime(context);
  }

  @Override
  public boolean supportsParameter(
      ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == HBaseRuntime.class;
  }

  @Override
  public Object resolveParameter(
      ParameterContext parameterContext, ExtensionContext extensionContext) {
    return runtime(extensionContext);
  }

  /** The JVM's shared runtime, started on first use (for other extensions built on it). */
  public static HBaseRuntime runtime(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(KEY, k -> new Holder(start(dataDir())), Holder.class)
        .runtime;
  }

  /**
   * Hadoop's metrics system is a JVM singleton that refuses a second region server's sources; tests
   * that start another HBase next to the shared one (restart tests) need this, as HBase's own test
   * utility does.
   */
  public static void allowSeveralClustersPerJvm() {
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
  }

  /** The directory for this JVM's HBase: {@code casebook.it.data}, emptied first. */
  public static Path dataDir() {
    return Path.of(System.getProperty("casebook.it.data", "target/hbase-it")).toAbsolutePath();
  }

  /** A fresh, empty directory under the build's scratch space. */
  public static Path scratchDir(String name) {
    Path dir = dataDir().resolveSibling("scratch").resolve(name);
    deleteRecursively(dir);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }

  /** Whether the tests run against a running cluster ({@value #ZK_PROPERTY}), not embedded. */
  public static boolean onCluster() {
    String zk = System.getProperty(ZK_PROPERTY, "");
    return !zk.isBlank();
  }

  /** Skips the calling test, saying why, when the tests run against a cluster. */
  public static void assumeEmbedded(String why) {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        onCluster(), () -> "skipped against a cluster (" + ZK_PROPERTY + "): " + why);
  }

  /** What a test runs with HBase's clock held still. */
  @FunctionalInterface
  public interface ClockedBody {
    void run() throws Exception;
  }

  /**
   * Runs {@code body} with the in-process HBase's clock held at one millisecond, so that a delete
   * and the writes after it share a timestamp, as they can at any moment in production (a delete
   * marker hides every write of its millisecond, even a later one). Skips the test on a cluster,
   * whose servers keep their own clocks. The clock is the JVM's: only for modules whose tests do
   * not run in parallel.
   */
  public static void withClockHeldStill(ClockedBody body) throws Exception {
    assumeEmbedded("HBase's clock is held still in this JVM only");
    ManualEnvironmentEdge still = new ManualEnvironmentEdge();
    still.setValue(System.currentTimeMillis());
    EnvironmentEdgeManager.injectEdge(still);
    heldClock = still;
    try {
      body.run();
    } finally {
      heldClock = null;
      EnvironmentEdgeManager.reset();
    }
  }

  private static volatile ManualEnvironmentEdge heldClock;

  /** Moves the clock {@link #withClockHeldStill} holds on by {@code millis}, and holds it there. */
  public static void advanceHeldClock(long millis) {
    ManualEnvironmentEdge held = heldClock;
    if (held == null) {
      throw new IllegalStateException("HBase's clock is not held still");
    }
    held.incValue(millis);
  }

  static HBaseRuntime start(Path dir) {
    allowSeveralClustersPerJvm();
    deleteRecursively(dir);
    if (onCluster()) {
      java.util.Map<String, String> overrides = new java.util.HashMap<>();
      System.getProperties()
          .stringPropertyNames()
          .forEach(
              k -> {
                if (k.startsWith(HBASE_PROPERTY_PREFIX)) {
                  overrides.put(k.substring(HBASE_PROPERTY_PREFIX.length()), System.getProperty(k));
                }
              });
      return HBaseRuntime.start(
          new RuntimeSettings(
              dir,
              java.util.Optional.of(System.getProperty(ZK_PROPERTY).strip()),
              java.util.Optional.empty(),
              overrides));
    }
    return HBaseRuntime.start(RuntimeSettings.embedded(dir));
  }

  public static void deleteRecursively(Path dir) {
    try {
      org.casebook.core.LocalFiles.deleteRecursively(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir, e);
    }
  }
}
