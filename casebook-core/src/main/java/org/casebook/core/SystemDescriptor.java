package org.casebook.core;

import java.util.List;
import java.util.Objects;
import org.casebook.core.http.RouteSpec;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.Setting;

/**
 * A system as described before it runs.
 *
 * @param name short lower-case name: the CLI group, the {@code /api/<name>} prefix, the {@code
 *     --<name>-port} option of its listener
 * @param summary one line for {@code --help} and {@code /api/health}
 * @param tables the tables under the default settings ({@link CasebookSystem#tables} gives them
 *     under others)
 * @param keys the row-key and qualifier layouts the stores use (printed by {@code schema show})
 * @param routes every HTTP route, each under {@code /api/<name>/} or one of {@code protocolPaths}
 * @param listeners the other sockets it serves (a TCP line protocol, a gRPC service)
 * @param protocolPaths paths outside {@code /api/<name>/} that a wire protocol its users already
 *     speak fixes (OpenTSDB's {@code /api/put}, say): routes may live under these too; the server
 *     refuses two systems claiming the same route
 * @param settings what an operator may set (a file, the environment or {@code --set}); the system
 *     reads their effective values from {@link SystemContext#settings()}
 * @param privateReads whether its data is private: served beyond loopback with one token, its reads
 *     need the token too (an access file says for itself what anonymous callers get)
 */
public record SystemDescriptor(
    String name,
    String summary,
    List<TableSpec> tables,
    List<KeyLayout> keys,
    List<RouteSpec> routes,
    List<ListenerSpec> listeners,
    List<String> protocolPaths,
    List<Setting<?>> settings,
    boolean privateReads) {
  /** A system whose reads are open. */
  public SystemDescriptor(
      String name,
      String summary,
      List<TableSpec> tables,
      List<KeyLayout> keys,
      List<RouteSpec> routes,
      List<ListenerSpec> listeners,
      List<String> protocolPaths,
      List<Setting<?>> settings) {
    this(name, summary, tables, keys, routes, listeners, protocolPaths, settings, false);
  }

  /** This system with its reads private ({@code privateReads}). */
  public SystemDescriptor withPrivateReads() {
    return new SystemDescriptor(
        name, summary, tables, keys, routes, listeners, protocolPaths, settings, true);
  }

  /** A system whose routes all live under {@code /api/<name>/}. */
  public SystemDescriptor(
      String name,
      String summary,
      List<TableSpec> tables,
      List<KeyLayout> keys,
      List<RouteSpec> routes,
      List<ListenerSpec> listeners) {
    this(name, summary, tables, keys, routes, listeners, List.of(), List.of());
  }

  /** A system without settings. */
  public SystemDescriptor(
      String name,
      String summary,
      List<TableSpec> tables,
      List<KeyLayout> keys,
      List<RouteSpec> routes,
      List<ListenerSpec> listeners,
      List<String> protocolPaths) {
    this(name, summary, tables, keys, routes, listeners, protocolPaths, List.of());
  }

  public SystemDescriptor {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(summary, "summary is null");
    if (!name.matches("[a-z][a-z0-9]{0,19}")) {
      throw new IllegalArgumentException(
          "system name must be 1-20 lower-case letters or digits: " + name);
    }
    tables = List.copyOf(tables);
    keys = List.copyOf(keys);
    routes = List.copyOf(routes);
    listeners = List.copyOf(listeners);
    protocolPaths = List.copyOf(protocolPaths);
    settings = List.copyOf(settings);
    java.util.Set<String> settingNames = new java.util.HashSet<>();
    for (Setting<?> s : settings) {
      if (!settingNames.add(s.name())) {
        throw new IllegalArgumentException("two settings of " + name + " are named " + s.name());
      }
    }
    for (String p : protocolPaths) {
      if (!p.startsWith("/api/") || p.endsWith("/") || p.equals("/api/health")) {
        throw new IllegalArgumentException("bad protocol path of " + name + ": " + p);
      }
    }
    for (RouteSpec r : routes) {
      boolean underProtocolPath =
          protocolPaths.stream()
              .anyMatch(p -> r.pattern().equals(p) || r.pattern().startsWith(p + "/"));
      if (!underProtocolPath
          && !r.pattern().startsWith("/api/" + name + "/")
          && !r.pattern().equals("/api/" + name)) {
        throw new IllegalArgumentException(
            "route " + r + " of " + name + " is outside /api/" + name + "/");
      }
    }
  }
}
