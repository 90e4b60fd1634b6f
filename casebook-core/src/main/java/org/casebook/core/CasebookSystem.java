package org.casebook.core;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SystemSettings;

/**
 * One Casebook system, as the platform sees it: a factory (after Trino's plugin → factory →
 * instance). It {@link #descriptor() describes} itself before anything runs — enough for {@code
 * --help}, {@code schema}, {@code /api/health} and an API description — and {@link #start starts}
 * into a running instance that owns its background work and listeners.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (a {@code
 * META-INF/services/org.casebook.core.CasebookSystem} file in the system's module), so adding a
 * system never changes the server. See {@code CONTRIBUTING.md} for the steps.
 */
public interface CasebookSystem {
  /**
   * What this system is: name, tables and key layouts, routes, listeners. Cheap and side-effect
   * free.
   */
  SystemDescriptor descriptor();

  /**
   * The tables this system uses under {@code settings} (its namespace, its salt …): what the
   * platform ensures before {@link #start}, what {@code schema} shows and the console maps. The
   * descriptor lists them under the defaults; a system whose settings move its tables overrides
   * this.
   */
  default List<TableSpec> tables(SystemSettings settings) {
    return descriptor().tables();
  }

  /**
   * Starts the system on {@code context} (its tables already ensured). Whatever it opens through
   * the context — listeners, background executors, {@link SystemContext#own owned} resources — is
   * closed by the platform in reverse order at shutdown.
   */
  RunningSystem start(SystemContext context);

  /**
   * The picocli command object for this system's CLI group. {@code context} starts (or attaches to)
   * HBase and ensures the tables on first use, so help and validation stay fast.
   */
  Object command(Supplier<SystemContext> context);
}
