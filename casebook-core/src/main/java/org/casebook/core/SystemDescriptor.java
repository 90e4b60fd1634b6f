package org.casebook.core;

import java.util.List;
import java.util.Objects;
import org.casebook.core.http.RouteSpec;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.TableSpec;

/**
 * A system as described before it runs.
 *
 * @param name short lower-case name: the CLI group, the {@code /api/<name>} prefix, the {@code
 *     --<name>-port} option of its listener
 * @param summary one line for {@code --help} and {@code /api/health}
 * @param tables the tables the platform ensures before {@link CasebookSystem#start}
 * @param keys the row-key and qualifier layouts the stores use (printed by {@code schema show})
 * @param routes every HTTP route, each under {@code /api/<name>/}
 * @param listeners the other sockets it serves (a TCP line protocol, a gRPC service)
 */
public record SystemDescriptor(
    String name,
    String summary,
    List<TableSpec> tables,
    List<KeyLayout> keys,
    List<RouteSpec> routes,
    List<ListenerSpec> listeners) {
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
    for (RouteSpec r : routes) {
      if (!r.pattern().startsWith("/api/" + name + "/") && !r.pattern().equals("/api/" + name)) {
        throw new IllegalArgumentException(
            "route " + r + " of " + name + " is outside /api/" + name + "/");
      }
    }
  }
}
