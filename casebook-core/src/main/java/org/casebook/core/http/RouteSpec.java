package org.casebook.core.http;

import java.util.Objects;
import java.util.Set;
import org.casebook.core.access.Action;

/**
 * One HTTP route as described: method, path pattern ({@code {name}} placeholders match one
 * percent-decoded segment), what it does, and the {@link Action} a caller needs on its system.
 * {@code paged} routes take {@code limit} and {@code cursor} ({@link
 * org.casebook.core.page.PageRequest}).
 */
public record RouteSpec(
    String method, String pattern, String summary, boolean paged, Action action) {
  private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

  public RouteSpec {
    Objects.requireNonNull(method, "method is null");
    Objects.requireNonNull(pattern, "pattern is null");
    Objects.requireNonNull(summary, "summary is null");
    Objects.requireNonNull(action, "action is null");
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException("unsupported method " + method);
    }
    if (action == Action.NONE) {
      throw new IllegalArgumentException("a route needs read, write or admin: " + pattern);
    }
    if (method.equals("GET") && action == Action.WRITE) {
      throw new IllegalArgumentException("a GET changes nothing: " + pattern);
    }
    if (!pattern.startsWith("/")) {
      throw new IllegalArgumentException("route must start with '/': " + pattern);
    }
  }

  /** A GET is a read; any other method a write. */
  public RouteSpec(String method, String pattern, String summary, boolean paged) {
    this(method, pattern, summary, paged, method.equals("GET") ? Action.READ : Action.WRITE);
  }

  /**
   * True when it changes data, so it passes the system's write gate: not a read, and not a GET (a
   * GET needing admin, such as the audit trail, is a read only admins may make).
   */
  public boolean isWrite() {
    return action != Action.READ && !method.equals("GET");
  }

  @Override
  public String toString() {
    return method + " " + pattern;
  }
}
