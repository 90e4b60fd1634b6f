package org.casebook.core.http;

/**
 * Where routes are served. Patterns are literal path segments and {@code {name}} placeholders
 * matching one segment (percent-decoded, so {@code %2F} in an id is a slash inside the value, not a
 * separator).
 */
public interface HttpRoutes {
  /** Handles one request; throw the core exceptions for 4xx, never catch storage errors. */
  @FunctionalInterface
  interface Handler {
    HttpResponse handle(HttpRequest request) throws Exception;
  }

  /** Serves {@code route}; a second route with the same method and pattern is refused. */
  void add(Route route);

  default void get(String pattern, Handler handler) {
    add(new Route(new RouteSpec("GET", pattern, "", false), handler));
  }
}
