package org.casebook.core.http;

import java.util.Objects;
import org.casebook.core.access.Caller;

/**
 * A described route bound to the handler of a running system; {@code system} is whose grants a
 * caller needs ({@link Caller#PLATFORM} for the server's own routes).
 */
public record Route(RouteSpec spec, HttpRoutes.Handler handler, String system) {
  public Route {
    Objects.requireNonNull(spec, "spec is null");
    Objects.requireNonNull(handler, "handler is null");
    Objects.requireNonNull(system, "system is null");
  }

  /** A route of the server's own. */
  public Route(RouteSpec spec, HttpRoutes.Handler handler) {
    this(spec, handler, Caller.PLATFORM);
  }

  /** This route as one of {@code system}'s. */
  public Route in(String system) {
    return new Route(spec, handler, system);
  }

  /**
   * How long a write request waits for a backup's pause of its system before a 503: the pause lasts
   * that system's snapshots, and the waiting request holds one of the shared workers.
   */
  static final java.time.Duration PAUSE_WAIT = java.time.Duration.ofSeconds(5);

  /** This route, a write passing {@code gate} for the whole of its handler (a read unchanged). */
  public Route passing(org.casebook.core.WriteGate gate) {
    if (!spec.isWrite()) {
      return this;
    }
    return new Route(
        spec,
        request -> {
          try (org.casebook.core.WriteGate.Pass pass = gate.enter(PAUSE_WAIT)) {
            return handler.handle(request);
          }
        },
        system);
  }
}
