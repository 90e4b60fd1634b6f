package org.casebook.core;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.http.HttpRoutes;
import org.casebook.core.schema.TableSpec;

/**
 * One Casebook system, as the server sees it. Implementations are found with
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/org.casebook.core.CasebookSystem}
 * file in the system's module), so adding a system never changes the server.
 */
public interface CasebookSystem {
  /** Short lower-case name: the CLI command group and the {@code /api/<name>} prefix. */
  String name();

  /** One line for {@code --help} and {@code /api/health}. */
  String summary();

  /** The tables this system needs; the server ensures them before the system starts. */
  List<TableSpec> schemas();

  /**
   * Registers this system's HTTP routes, all under {@code /api/<name>/}. Returns what must be
   * closed on shutdown (background work, buffered writers).
   */
  AutoCloseable registerRoutes(SystemContext context, HttpRoutes routes);

  /**
   * The picocli command object for this system's CLI group. {@code context} starts (or attaches
   * to) HBase and ensures {@link #schemas()} on first use, so help and validation stay fast.
   */
  Object command(Supplier<SystemContext> context);
}
