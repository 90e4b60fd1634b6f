package org.casebook.core.http;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.casebook.core.AccessRule;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.casebook.core.access.AccessGate;
import org.casebook.core.access.Action;
import org.casebook.core.access.AuditEntry;
import org.casebook.core.access.AuditLog;
import org.casebook.core.access.Caller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing half of {@link HttpApiServer}, apart from Netty: finds the route of a request (404,
 * 405 with {@code Allow}), checks the caller's grant on the route's system (401, 403), runs the
 * handler, maps any failure to its JSON error through {@link ErrorKind}, and audits changes.
 */
final class RouteDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(RouteDispatcher.class);

  private record Bound(Route route, List<String> segments) {}

  private final List<Bound> routes = new CopyOnWriteArrayList<>();
  private final AccessRule access;
  private final MeterRegistry metrics;
  private final Clock clock;
  private volatile AuditLog audit = AuditLog.none();

  RouteDispatcher(AccessRule access, MeterRegistry metrics, Clock clock) {
    this.access = Objects.requireNonNull(access, "access is null");
    this.metrics = Objects.requireNonNull(metrics, "metrics is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  void audit(AuditLog log) {
    this.audit = Objects.requireNonNull(log, "log is null");
  }

  synchronized void add(Route route) {
    RouteSpec spec = route.spec();
    for (Bound b : routes) {
      if (b.route().spec().method().equals(spec.method())
          && b.route().spec().pattern().equals(spec.pattern())) {
        throw new IllegalArgumentException("route registered twice: " + spec);
      }
    }
    routes.add(new Bound(route, List.of(split(spec.pattern()))));
  }

  List<RouteSpec> specs() {
    return routes.stream().map(b -> b.route().spec()).toList();
  }

  /**
   * Routes, checks the caller's grant on the route's system, runs the handler, maps any failure to
   * its JSON error, and records every change (or refused attempt at one) in the audit trail.
   */
  HttpResponse dispatch(
      String method,
      String uri,
      Map<String, String> headers,
      byte[] body,
      String remote,
      String[] routeLabel) {
    try {
      int q = uri.indexOf('?');
      String rawPath = q < 0 ? uri : uri.substring(0, q);
      String rawQuery = q < 0 ? null : uri.substring(q + 1);
      if (!rawPath.startsWith("/")) {
        return HttpResponse.error(400, "the request target must be an absolute path", "path");
      }
      String routeMethod = method.equals("HEAD") ? "GET" : method;
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
        String shown = rawPath.length() > 200 ? rawPath.substring(0, 200) + "…" : rawPath;
        return allowed.isEmpty()
            ? HttpResponse.error(404, "no such endpoint: " + shown, null)
            : HttpResponse.error(405, "method not allowed on " + shown, null)
                .withHeader("Allow", String.join(", ", allowed));
      }
      Route route = matched.route();
      routeLabel[0] = route.spec().pattern();
      String system = route.system();
      Action needed = route.spec().action();
      Optional<Caller> known = access.byHeader(headers.get("authorization"));
      if (known.isEmpty()) {
        AccessGate.denied(metrics, "http", system, "unknown_credential");
        HttpResponse refused =
            HttpResponse.error(401, "the token presented is not known here", null)
                .withHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        if (route.spec().isWrite()) {
          record(needed, Caller.ANONYMOUS, system, method, uri, refused.status(), remote);
        }
        return refused;
      }
      Caller caller = known.get();
      org.casebook.core.http.HttpRequest request =
          new org.casebook.core.http.HttpRequest(
              route.spec().method(),
              rawPath,
              params,
              org.casebook.core.http.HttpRequest.parseQuery(rawQuery),
              headers,
              body,
              caller,
              system);
      // The server's own reads (health, metrics, the console's files) name no system's data.
      boolean platformRead = needed == Action.READ && system.equals(Caller.PLATFORM);
      if (!platformRead && !caller.may(system, needed)) {
        AccessGate.denied(metrics, "http", system, caller);
        HttpResponse refused = HttpResponse.refused(request, needed);
        if (route.spec().isWrite()) {
          record(needed, caller.name(), system, method, uri, refused.status(), remote);
        }
        return refused;
      }
      HttpResponse response;
      try {
        response = route.handler().handle(request);
      } catch (Exception e) {
        response = mapError(e, method, routeLabel[0]);
      }
      Action done = request.asked().covers(needed) ? request.asked() : needed;
      if (done != needed && !caller.may(system, done)) {
        AccessGate.denied(metrics, "http", system, caller);
      }
      // A change is recorded: a write route's, or more than a read route declares (delete=true).
      // A read, even one only admins may make (the audit trail itself), leaves no entry.
      if (route.spec().isWrite() || done != needed) {
        record(done, caller.name(), system, method, uri, response.status(), remote);
      }
      return response;
    } catch (Exception e) {
      return mapError(e, method, routeLabel[0]);
    }
  }

  /**
   * Audits a change or a refused attempt at one; a trail that cannot be written is the trail's
   * failure (logged and counted there), never the request's.
   */
  private void record(
      Action action,
      String who,
      String system,
      String method,
      String uri,
      int status,
      String remote) {
    try {
      audit.record(
          new AuditEntry(
              clock.instant(),
              who,
              system,
              action,
              method + " " + uri,
              Integer.toString(status),
              remote));
    } catch (RuntimeException e) {
      LOG.error("could not audit {} {} by {}", method, uri, who, e);
    }
  }

  /**
   * The JSON error for any failure, by {@link ErrorKind}; internal errors are logged with their
   * stack.
   */
  static HttpResponse mapError(Exception e, String method, String where) {
    ErrorKind kind = ErrorKind.of(e);
    switch (kind) {
      case INTERNAL -> {
        LOG.error("internal error on {} {}", method, where, e);
        return HttpResponse.error(kind, "internal error: " + e.getClass().getSimpleName(), null);
      }
      case STORAGE_UNAVAILABLE, LOCAL_FILE, INTERRUPTED, INSUFFICIENT_STORAGE ->
          LOG.warn("{} on {} {}: {}", kind.label(), method, where, e.getMessage());
      default -> {}
    }
    String field = e instanceof InvalidInputException iie ? iie.field() : null;
    return HttpResponse.error(kind, e.getMessage(), field);
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

  private static Map<String, String> match(List<String> pattern, String[] path) {
    if (pattern.size() != path.length) {
      return null;
    }
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < pattern.size(); i++) {
      String seg = pattern.get(i);
      if (seg.startsWith("{") && seg.endsWith("}")) {
        if (path[i].isEmpty()) {
          return null;
        }
        String name = seg.substring(1, seg.length() - 1);
        params.put(name, org.casebook.core.http.HttpRequest.decodePath(path[i], name));
      } else if (!seg.equals(path[i])) {
        return null;
      }
    }
    return params;
  }
}
