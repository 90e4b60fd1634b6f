package org.casebook.core;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.casebook.core.http.Route;

/**
 * A started system: its bound HTTP routes and its health. Resources it opened through the {@link
 * SystemContext} are closed by the platform; {@link #close()} is for anything else and runs first.
 */
public interface RunningSystem extends AutoCloseable {
  /** The routes of the descriptor, bound to this instance (the platform checks they match). */
  List<Route> routes();

  /** Up unless the system knows better (a failed background job, a listener that died). */
  default SystemHealth health() {
    return SystemHealth.up();
  }

  @Override
  default void close() {}

  /** A running system that serves {@code routes} and answers {@code health} when asked. */
  static RunningSystem of(List<Route> routes, Supplier<SystemHealth> health) {
    List<Route> bound = List.copyOf(routes);
    Objects.requireNonNull(health, "health is null");
    return new RunningSystem() {
      @Override
      public List<Route> routes() {
        return bound;
      }

      @Override
      public SystemHealth health() {
        return health.get();
      }
    };
  }
}
