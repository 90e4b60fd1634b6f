package org.casebook.core.http;

import java.util.Objects;

/** A described route bound to the handler of a running system. */
public record Route(RouteSpec spec, HttpRoutes.Handler handler) {
  public Route {
    Objects.requireNonNull(spec, "spec is null");
    Objects.requireNonNull(handler, "handler is null");
  }
}
