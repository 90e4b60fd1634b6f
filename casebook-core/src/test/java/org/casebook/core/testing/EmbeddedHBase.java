package org.casebook.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
public final class EmbeddedHBase implements BeforeAllCallback, ParameterResolver {
  private static final String KEY = EmbeddedHBase.class.getName();

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

  static HBaseRuntime start(Path dir) {
    allowSeveralClustersPerJvm();
    deleteRecursively(dir);
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
