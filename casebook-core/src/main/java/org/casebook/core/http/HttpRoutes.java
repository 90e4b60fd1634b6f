package org.casebook.core.http;

/**
 * Where systems register their endpoints. Patterns are literal path segments and
 * {@code {name}} placeholders matching one segment (percent-decoded, so {@code %2F} in an id
 * is a slash inside the value, not a separator).
 */
public interface HttpRoutes {
  /** Handles one request; throw the core exceptions for 4xx, never catch storage errors. */
  @FunctionalInterface
  interface Handler {
    HttpResponse handle(HttpRequest request) throws Exception;
  }

  void get(String pattern, Handler handler);

  void post(String pattern, Handler handler);

  void put(String pattern, Handler handler);

  void delete(String pattern, Handler handler);
}
