package org.casebook.core.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.casebook.core.AccessRule;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP front door: the JDK's built-in server (no second Jetty next to Hadoop's), a small
 * router, JSON errors for everything (mapped through {@link ErrorKind}), the access rule on
 * writes, and per-route metrics labelled only by known methods and route templates.
 */
public final class HttpApiServer implements HttpRoutes, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
  private static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
  private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

  private record Bound(Route route, String[] segments) {}

  static {
    // Without TCP_NODELAY every keep-alive response waits for the client's delayed ACK (~40 ms).
    // The JDK server reads this once, when its first instance is made.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final List<Bound> routes = new CopyOnWriteArrayList<>();
  private final AccessRule access;
  private final MeterRegistry metrics;
  private final HttpServer server;
  private final ExecutorService executor;
  private final Map<String, Timer> timers = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile Supplier<String> metricsText = () -> "";

  /** Binds now, serves after {@link #start()}. */
  public HttpApiServer(String bindAddress, int port, AccessRule access, int threads, MeterRegistry metrics) {
    this.access = Objects.requireNonNull(access, "access is null");
    this.metrics = Objects.requireNonNull(metrics, "metrics is null");
    try {
      this.server = HttpServer.create(new InetSocketAddress(bindAddress, port), 256);
    } catch (IOException e) {
      throw new InvalidInputException("port", "cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage());
    }
    this.executor = Executors.newFixedThreadPool(threads, Threads.daemon("http-worker"));
    server.setExecutor(executor);
    server.createContext("/", this::dispatch);
    get("/metrics", req -> HttpResponse.text(200, "text/plain; version=0.0.4; charset=utf-8", metricsText.get()));
  }

  /** What {@code /metrics} answers (Prometheus text). */
  public void setMetricsText(Supplier<String> supplier) {
    this.metricsText = Objects.requireNonNull(supplier, "supplier is null");
  }

  public void start() {
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public synchronized void add(Route route) {
    RouteSpec spec = route.spec();
    for (Bound b : routes) {
      if (b.route().spec().method().equals(spec.method()) && b.route().spec().pattern().equals(spec.pattern())) {
        throw new IllegalArgumentException("route registered twice: " + spec);
      }
    }
    routes.add(new Bound(route, split(spec.pattern())));
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    long t0 = System.nanoTime();
    String method = exchange.getRequestMethod();
    // HEAD is GET without the body.
    String routeMethod = method.equals("HEAD") ? "GET" : method;
    String routeLabel = "unmatched";
    HttpResponse response;
    try {
      String rawPath = exchange.getRequestURI().getRawPath();
      String[] parts = split(rawPath);
      Bound matched = null;
      Map<String, String> params = null;
      Set<String> allowed = new LinkedHashSet<>();
      for (Bound b : routes) {
        Map<String, String> p = match(b.segments(), parts);
        if (p != null) {
          allowed.add(b.route().spec().method());
          if (b.route().spec().method().equals("GET")) {
            allowed.add("HEAD");
          }
          if (b.route().spec().method().equals(routeMethod) && matched == null) {
            matched = b;
            params = p;
          }
        }
      }
      if (matched == null) {
        response = allowed.isEmpty() ? HttpResponse.error(404, "no such endpoint: " + method + " " + rawPath, null)
            : HttpResponse.error(405, "method " + method + " not allowed on " + rawPath, null)
                .withHeader("Allow", String.join(", ", allowed));
      } else {
        routeLabel = matched.route().spec().pattern();
        response = invoke(exchange, matched.route(), params);
      }
    } catch (RuntimeException e) {
      response = mapError(e, method, routeLabel);
    }
    send(exchange, response, method.equals("HEAD"));
    timer(KNOWN_METHODS.contains(method) ? method : "other", routeLabel, response.status())
        .record(Duration.ofNanos(System.nanoTime() - t0));
  }

  private Timer timer(String method, String route, int status) {
    String key = method + ' ' + route + ' ' + status;
    return timers.computeIfAbsent(key, k -> Timer.builder("casebook.http.requests")
        .description("HTTP requests by method, route template and status")
        .tags("method", method, "route", route, "status", Integer.toString(status))
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(metrics));
  }

  private HttpResponse invoke(HttpExchange exchange, Route route, Map<String, String> params) throws IOException {
    if (route.spec().isWrite() && !access.allowsWriteWithHeader(exchange.getRequestHeaders().getFirst("Authorization"))) {
      return HttpResponse.error(401, "this endpoint needs 'Authorization: Bearer <token>'", null)
          .withHeader("WWW-Authenticate", "Bearer");
    }
    byte[] body = readBody(exchange.getRequestBody());
    if (body == null) {
      return HttpResponse.error(413, "request body larger than " + MAX_BODY_BYTES + " bytes", "body");
    }
    Map<String, String> headers = new HashMap<>();
    exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.isEmpty() ? "" : v.get(0)));
    try {
      HttpRequest request = new HttpRequest(route.spec().method(), exchange.getRequestURI().getRawPath(), params,
          HttpRequest.parseQuery(exchange.getRequestURI().getRawQuery()), headers, body);
      return route.handler().handle(request);
    } catch (Exception e) {
      return mapError(e, route.spec().method(), route.spec().pattern());
    }
  }

  /** The JSON error for any failure, by {@link ErrorKind}; internal errors are logged with their stack. */
  static HttpResponse mapError(Exception e, String method, String where) {
    ErrorKind kind = ErrorKind.of(e);
    switch (kind) {
      case INTERNAL -> {
        LOG.error("internal error on {} {}", method, where, e);
        return HttpResponse.error(kind, "internal error: " + e.getClass().getSimpleName(), null);
      }
      case STORAGE_UNAVAILABLE, LOCAL_FILE, INTERRUPTED -> LOG.warn("{} on {} {}: {}", kind.label(), method, where,
          e.getMessage());
      default -> { }
    }
    String field = e instanceof InvalidInputException iie ? iie.field() : null;
    return HttpResponse.error(kind, e.getMessage(), field);
  }

  private static byte[] readBody(InputStream in) throws IOException {
    try (in) {
      byte[] data = in.readNBytes(MAX_BODY_BYTES + 1);
      return data.length > MAX_BODY_BYTES ? null : data;
    }
  }

  private static void send(HttpExchange exchange, HttpResponse response, boolean head) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      response.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      byte[] body = response.body();
      boolean empty = head || response.status() == 204 || body.length == 0;
      exchange.sendResponseHeaders(response.status(), empty ? -1 : body.length);
      if (!empty) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
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
        String name = seg.substring(1, seg.length() - 1);
        params.put(name, HttpRequest.decodePath(path[i], name));
      } else if (!seg.equals(path[i])) {
        return null;
      }
    }
    return params;
  }

  /** Stops accepting requests, lets running ones finish (up to 5 s). */
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
