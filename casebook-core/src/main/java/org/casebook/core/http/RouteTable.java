package org.casebook.core.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.casebook.core.access.Action;

/**
 * A system's routes, declared once: the descriptor lists {@link #specs()} before anything runs, and
 * {@link #bind} attaches the same handlers to a running service. Handlers take the service and the
 * request; they parse, call the service and render, nothing else.
 *
 * @param <S> the service the handlers call
 */
public final class RouteTable<S> {
  /** A handler that needs the running service. */
  @FunctionalInterface
  public interface ServiceHandler<S> {
    HttpResponse handle(S service, HttpRequest request) throws Exception;
  }

  private record Entry<S>(RouteSpec spec, ServiceHandler<S> handler) {}

  private final List<Entry<S>> entries;

  private RouteTable(List<Entry<S>> entries) {
    this.entries = List.copyOf(entries);
  }

  public static <S> Builder<S> builder() {
    return new Builder<>();
  }

  public List<RouteSpec> specs() {
    return entries.stream().map(Entry::spec).toList();
  }

  /** The routes bound to {@code service}. */
  public List<Route> bind(S service) {
    Objects.requireNonNull(service, "service is null");
    List<Route> out = new ArrayList<>(entries.size());
    for (Entry<S> e : entries) {
      ServiceHandler<S> h = e.handler();
      out.add(new Route(e.spec(), request -> h.handle(service, request)));
    }
    return out;
  }

  /** Builds a {@link RouteTable}. */
  public static final class Builder<S> {
    private final List<Entry<S>> entries = new ArrayList<>();

    public Builder<S> get(String pattern, String summary, ServiceHandler<S> handler) {
      return add("GET", pattern, summary, false, handler);
    }

    /** A listing: takes {@code limit} and {@code cursor}, answers a page. */
    public Builder<S> list(String pattern, String summary, ServiceHandler<S> handler) {
      return add("GET", pattern, summary, true, handler);
    }

    public Builder<S> post(String pattern, String summary, ServiceHandler<S> handler) {
      return add("POST", pattern, summary, false, handler);
    }

    /** A read whose question is too large for a query string: POST, but open like a GET. */
    public Builder<S> postQuery(String pattern, String summary, ServiceHandler<S> handler) {
      return add(new RouteSpec("POST", pattern, summary, false, Action.READ), handler);
    }

    /**
     * A change that cannot be undone or touches every record (deleting a user's or a file's data, a
     * schema change, a server-side import): callers need {@code admin} on the system.
     */
    public Builder<S> admin(
        String method, String pattern, String summary, ServiceHandler<S> handler) {
      return add(new RouteSpec(method, pattern, summary, false, Action.ADMIN), handler);
    }

    public Builder<S> put(String pattern, String summary, ServiceHandler<S> handler) {
      return add("PUT", pattern, summary, false, handler);
    }

    public Builder<S> patch(String pattern, String summary, ServiceHandler<S> handler) {
      return add("PATCH", pattern, summary, false, handler);
    }

    public Builder<S> delete(String pattern, String summary, ServiceHandler<S> handler) {
      return add("DELETE", pattern, summary, false, handler);
    }

    private Builder<S> add(
        String method, String pattern, String summary, boolean paged, ServiceHandler<S> handler) {
      return add(new RouteSpec(method, pattern, summary, paged), handler);
    }

    private Builder<S> add(RouteSpec spec, ServiceHandler<S> handler) {
      String method = spec.method();
      String pattern = spec.pattern();
      for (Entry<S> e : entries) {
        if (e.spec().method().equals(method) && e.spec().pattern().equals(pattern)) {
          throw new IllegalArgumentException("route declared twice: " + spec);
        }
      }
      entries.add(new Entry<>(spec, Objects.requireNonNull(handler, "handler is null")));
      return this;
    }

    public RouteTable<S> build() {
      return new RouteTable<>(entries);
    }
  }
}
