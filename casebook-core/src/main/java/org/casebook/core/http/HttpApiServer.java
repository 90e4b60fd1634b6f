package org.casebook.core.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.casebook.core.CasebookException;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP front door: the JDK's built-in server (no second Jetty next to Hadoop's), a small
 * router, JSON errors, an optional bearer token on writes, and per-route metrics.
 *
 * <p>Error mapping: {@link InvalidInputException} 400 (with {@code field}), {@link NotFoundException}
 * 404, {@link ConflictException} 409, storage failures ({@link UncheckedIOException},
 * {@link IOException}) 503, anything else 500 (logged with its stack trace).
 */
public final class HttpApiServer implements HttpRoutes, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
  private static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

  private record Route(String method, String pattern, String[] segments, Handler handler) {}

  private final List<Route> routes = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final RequestMetrics metrics = new RequestMetrics();
  private final Optional<String> token;
  private final HttpServer server;
  private final ExecutorService executor;
  private volatile Supplier<String> extraMetrics = () -> "";

  /**
   * Binds now, serves after {@link #start()}.
   *
   * @param token if present, POST/PUT/DELETE need {@code Authorization: Bearer <token>}
   */
  public HttpApiServer(String bindAddress, int port, Optional<String> token, int threads) {
    this.token = Objects.requireNonNull(token, "token is null");
    try {
      this.server = HttpServer.create(new InetSocketAddress(bindAddress, port), 256);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
    }
    this.executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "http-worker");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", this::dispatch);
    get("/metrics", req -> {
      StringBuilder sb = new StringBuilder();
      metrics.render(sb);
      sb.append(extraMetrics.get());
      return HttpResponse.text(200, "text/plain; version=0.0.4; charset=utf-8", sb.toString());
    });
  }

  /** Adds more Prometheus text (process and HBase gauges) to {@code /metrics}. */
  public void setExtraMetrics(Supplier<String> supplier) {
    this.extraMetrics = Objects.requireNonNull(supplier, "supplier is null");
  }

  public void start() {
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void get(String pattern, Handler handler) {
    add("GET", pattern, handler);
  }

  @Override
  public void post(String pattern, Handler handler) {
    add("POST", pattern, handler);
  }

  @Override
  public void put(String pattern, Handler handler) {
    add("PUT", pattern, handler);
  }

  @Override
  public void delete(String pattern, Handler handler) {
    add("DELETE", pattern, handler);
  }

  private synchronized void add(String method, String pattern, Handler handler) {
    Objects.requireNonNull(handler, "handler is null");
    if (!pattern.startsWith("/")) {
      throw new IllegalArgumentException("route must start with '/': " + pattern);
    }
    String[] segments = split(pattern);
    for (Route r : routes) {
      if (r.method().equals(method) && r.pattern().equals(pattern)) {
        throw new IllegalArgumentException("route registered twice: " + method + " " + pattern);
      }
    }
    routes.add(new Route(method, pattern, segments, handler));
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    long t0 = System.nanoTime();
    String method = exchange.getRequestMethod();
    String routeLabel = "unmatched";
    HttpResponse response;
    try {
      String rawPath = exchange.getRequestURI().getRawPath();
      String[] parts = split(rawPath);
      Route matched = null;
      Map<String, String> params = null;
      boolean pathKnown = false;
      for (Route r : routes) {
        Map<String, String> p = match(r.segments(), parts);
        if (p != null) {
          pathKnown = true;
          if (r.method().equals(method)) {
            matched = r;
            params = p;
            break;
          }
        }
      }
      if (matched == null) {
        response = pathKnown ? HttpResponse.error(405, "method " + method + " not allowed on " + rawPath, null)
            : HttpResponse.error(404, "no such endpoint: " + method + " " + rawPath, null);
      } else {
        routeLabel = matched.pattern();
        response = invoke(exchange, matched, params);
      }
    } catch (RuntimeException e) {
      response = mapError(e, method, exchange.getRequestURI().toString());
    }
    send(exchange, response);
    metrics.record(method, routeLabel, response.status(), System.nanoTime() - t0);
  }

  private HttpResponse invoke(HttpExchange exchange, Route route, Map<String, String> params) throws IOException {
    if (!"GET".equals(route.method()) && token.isPresent() && !authorized(exchange)) {
      return HttpResponse.error(401, "this endpoint needs 'Authorization: Bearer <token>'", null);
    }
    byte[] body = readBody(exchange.getRequestBody());
    if (body == null) {
      return HttpResponse.error(413, "request body larger than " + MAX_BODY_BYTES + " bytes", "body");
    }
    HttpRequest request = new HttpRequest(route.method(), exchange.getRequestURI().getRawPath(), params,
        HttpRequest.parseQuery(exchange.getRequestURI().getRawQuery()), body);
    try {
      return route.handler().handle(request);
    } catch (Exception e) {
      return mapError(e, route.method(), route.pattern());
    }
  }

  private boolean authorized(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, token.get().getBytes(StandardCharsets.UTF_8));
  }

  static HttpResponse mapError(Exception e, String method, String where) {
    if (e instanceof InvalidInputException iie) {
      return HttpResponse.error(400, iie.getMessage(), iie.field());
    }
    if (e instanceof NotFoundException) {
      return HttpResponse.error(404, e.getMessage(), null);
    }
    if (e instanceof ConflictException) {
      return HttpResponse.error(409, e.getMessage(), null);
    }
    if (e instanceof CasebookException) {
      return HttpResponse.error(400, e.getMessage(), null);
    }
    if (e instanceof UncheckedIOException || e instanceof IOException) {
      LOG.warn("storage failure on {} {}: {}", method, where, e.getMessage());
      return HttpResponse.error(503, "storage unavailable: " + e.getMessage(), null);
    }
    LOG.error("internal error on {} {}", method, where, e);
    return HttpResponse.error(500, "internal error: " + e.getClass().getSimpleName(), null);
  }

  private static byte[] readBody(InputStream in) throws IOException {
    try (in) {
      byte[] data = in.readNBytes(MAX_BODY_BYTES + 1);
      return data.length > MAX_BODY_BYTES ? null : data;
    }
  }

  private static void send(HttpExchange exchange, HttpResponse response) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      byte[] body = response.body();
      boolean empty = response.status() == 204 || body.length == 0;
      exchange.sendResponseHeaders(response.status(), empty ? -1 : body.length);
      if (!empty) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  private static String[] split(String path) {
    String p = path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (p.equals("/") || p.isEmpty()) {
      return new String[0];
    }
    return p.substring(1).split("/", -1);
  }

  private static Map<String, String> match(String[] pattern, String[] path) {
    if (pattern.length != path.length) {
      return null;
    }
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < pattern.length; i++) {
      String seg = pattern[i];
      if (seg.startsWith("{") && seg.endsWith("}")) {
        if (path[i].isEmpty()) {
          return null;
        }
        params.put(seg.substring(1, seg.length() - 1), HttpRequest.decodePath(path[i]));
      } else if (!seg.equals(path[i])) {
        return null;
      }
    }
    return params;
  }

  /** Stops accepting requests, lets running ones finish (up to {@code graceSeconds}). */
  @Override
  public void close() {
    server.stop(1);
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      executor.shutdownNow();
    }
  }
}
