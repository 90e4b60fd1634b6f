package org.casebook.server;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.RuntimeOptions;
import org.casebook.core.schema.SchemaManager;

/**
 * The HBase runtime and platform of one CLI invocation: started (or attached) on first use, with
 * every registered table ensured, and closed when the command ends.
 */
final class CliContext implements AutoCloseable {
  private final RuntimeOptions options;
  private final List<CasebookSystem> systems;
  private HBaseRuntime runtime;
  private boolean runsLong;
  private boolean schemasEnsured;
  private Platform platform;

  CliContext(RuntimeOptions options, List<CasebookSystem> systems) {
    this.options = Objects.requireNonNull(options, "options is null");
    this.systems = systems;
  }

  /** The context of {@code system}, with HBase started and every table ensured on first use. */
  Supplier<SystemContext> contextOf(CasebookSystem system) {
    return () -> platform(b -> {}).contextFor(system.descriptor());
  }

  /** A context for benchmarks and tools (named {@code name}). */
  Supplier<SystemContext> contextOf(String name) {
    return () -> platform(b -> {}).contextFor(name);
  }

  /**
   * The platform, made on the first call with {@code settings} applied (later calls get the same
   * one): {@code serve} calls this first with its bind address, token and ports.
   */
  synchronized Platform platform(Consumer<Platform.Builder> settings) {
    if (platform == null) {
      HBaseRuntime r = runtimeOnly();
      if (!schemasEnsured) {
        new SchemaManager(r.connection()).ensureAll(Systems.allTables(systems));
        schemasEnsured = true;
      }
      Platform.Builder b = Platform.builder(r, options.dataDir());
      settings.accept(b);
      platform = b.build();
    }
    return platform;
  }

  /**
   * Marks this invocation as a long-running one (serve, bench): the runtime, when started, uses
   * {@link org.casebook.core.RuntimeSettings#forLongRunning}.
   */
  synchronized void runsLong() {
    runsLong = true;
  }

  /** The runtime without ensuring schemas (for commands that manage schemas themselves). */
  synchronized HBaseRuntime runtimeOnly() {
    if (runtime == null) {
      runtime =
          HBaseRuntime.start(runsLong ? options.settings().forLongRunning() : options.settings());
      System.err.printf(
          "HBase: %s, ready in %.1f s%n", runtime.description(), runtime.startupMillis() / 1000.0);
    }
    return runtime;
  }

  @Override
  public synchronized void close() {
    try {
      if (platform != null) {
        platform.close();
        platform = null;
      }
    } finally {
      if (runtime != null) {
        runtime.close();
        runtime = null;
      }
    }
  }
}
