package org.casebook.core.http;

import java.util.Objects;
import java.util.Set;

/**
 * One HTTP route as described: method, path pattern ({@code {name}} placeholders match one
 * percent-decoded segment) and what it does. {@code paged} routes take {@code limit} and {@code
 * cursor} ({@link org.casebook.core.page.PageRequest}).
 */
public record RouteSpec(
    String method, String pattern, String summary, boolean paged, boolean write) {
  private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

  public RouteSpec {
    Objects.requireNonNull(method, "method is null");
    Objects.requireNonNull(pattern, "pattern is null");
    Objects.requireNonNull(summary, "summary is null");
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException("unsupported method " + method);
    }
    if (method.equals("GET") && write) {
      throw new IllegalArgumentException("a GET cannot be a write: " + pattern);
    }
    if (!pattern.startsWith("/")) {
      throw new IllegalArgumentException("route must start with '/': " + pattern);
    }
  }

  /** A GET is a read; any other method is a write unless declared a read (a query sent as POST). */
  public RouteSpec(String method, String pattern, String summary, boolean paged) {
    this(method, pattern, summary, paged, !method.equals("GET"));
  }

  /** Reads change nothing and are open to anyone; writes need the token when one is set. */
  public boolean isWrite() {
    return write;
  }

  @Override
  public String toString() {
    return method + " " + pattern;
  }
}
