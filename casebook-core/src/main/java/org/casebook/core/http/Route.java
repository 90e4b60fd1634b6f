package org.casebook.core.http;

import java.util.Objects;

/** A described route bound to the handler of a running system. */
public record Route(RouteSpec spec, HttpRoutes.Handler handler) {
  public Route {
    Objects.requireNonNull(spec, "spec is null");
    Objects.requireNonNull(handler, "handler is null");
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
        });
  }
}
