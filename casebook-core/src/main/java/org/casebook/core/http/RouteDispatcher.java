package org.casebook.core.http;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.casebook.core.AccessRule;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing half of {@link HttpApiServer}, apart from Netty: finds the route of a request (404,
 * 405 with {@code Allow}), checks the access rule on writes (401), runs the handler and maps any
 * failure to its JSON error through {@link ErrorKind}.
 */
final class RouteDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(RouteDispatcher.class);

  private record Bound(Route route, List<String> segments) {}

  private final List<Bound> routes = new CopyOnWriteArrayList<>();
  private final AccessRule access;

  RouteDispatcher(AccessRule access) {
    this.access = Objects.requireNonNull(access, "access is null");
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

  /** Routes, checks access, runs the handler, maps any failure to its JSON error. */
  HttpResponse dispatch(
      String method, String uri, Map<String, String> headers, byte[] body, String[] routeLabel) {
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
      boolean writeAllowed = access.allowsWriteWithHeader(headers.get("authorization"));
      if (route.spec().isWrite() && !writeAllowed) {
        return HttpResponse.needsToken();
      }
      org.casebook.core.http.HttpRequest request =
          new org.casebook.core.http.HttpRequest(
              route.spec().method(),
              rawPath,
              params,
              org.casebook.core.http.HttpRequest.parseQuery(rawQuery),
              headers,
              body,
              writeAllowed);
      return route.handler().handle(request);
    } catch (Exception e) {
      return mapError(e, method, routeLabel[0]);
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
