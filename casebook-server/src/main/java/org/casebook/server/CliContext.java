package org.casebook.server;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.RuntimeOptions;
import org.casebook.core.schema.SchemaManager;

/**
 * The HBase runtime of one CLI invocation: started (or attached) on first use, with every
 * registered schema ensured, and closed when the command ends.
 */
final class CliContext implements Supplier<SystemContext>, AutoCloseable {
  private final RuntimeOptions options;
  private final List<CasebookSystem> systems;
  private SystemContext context;

  CliContext(RuntimeOptions options, List<CasebookSystem> systems) {
    this.options = Objects.requireNonNull(options, "options is null");
    this.systems = systems;
  }

  @Override
  public synchronized SystemContext get() {
    if (context == null) {
      HBaseRuntime runtime = HBaseRuntime.start(options.settings());
      try {
        System.err.printf("HBase: %s, ready in %.1f s%n", runtime.description(), runtime.startupMillis() / 1000.0);
        new SchemaManager(runtime.connection()).ensureAll(Systems.allSchemas(systems));
        context = new SystemContext(runtime, options.dataDir().toAbsolutePath());
      } catch (RuntimeException e) {
        runtime.close();
        throw e;
      }
    }
    return context;
  }

  /** The runtime without ensuring schemas (for commands that manage schemas themselves). */
  synchronized HBaseRuntime runtimeOnly() {
    if (context != null) {
      return context.runtime();
    }
    HBaseRuntime runtime = HBaseRuntime.start(options.settings());
    System.err.printf("HBase: %s, ready in %.1f s%n", runtime.description(), runtime.startupMillis() / 1000.0);
    context = new SystemContext(runtime, options.dataDir().toAbsolutePath());
    return runtime;
  }

  @Override
  public synchronized void close() {
    if (context != null) {
      context.runtime().close();
      context = null;
    }
  }
}
