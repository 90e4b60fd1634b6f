package org.casebook.core.testing;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import org.casebook.core.AccessRule;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.http.Route;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.SchemaManager;

/**
 * A system started as the server starts it, for route tests: its tables ensured, its listeners on
 * free ports, its routes checked against its descriptor and served over HTTP on a free port.
 */
public final class ServedSystem implements AutoCloseable {
  private final Platform platform;
  private final SystemContext context;
  private final HttpApiServer server;

  private ServedSystem(Platform platform, SystemContext context, HttpApiServer server) {
    this.platform = platform;
    this.context = context;
    this.server = server;
  }

  /** Starts {@code system} on the test's embedded HBase; {@code access} guards its writes. */
  public static ServedSystem start(HBaseRuntime runtime, CasebookSystem system, AccessRule access) {
    return start(runtime, system, access, java.util.Map.of());
  }

  /**
   * As {@link #start(HBaseRuntime, CasebookSystem, AccessRule)}, with {@code settings} ({@code
   * <system>.<name>} → value) set as by {@code --set}.
   */
  public static ServedSystem start(
      HBaseRuntime runtime,
      CasebookSystem system,
      AccessRule access,
      java.util.Map<String, String> settings) {
    return start(runtime, system, access, settings, java.util.Optional.empty());
  }

  /**
   * As {@link #start(HBaseRuntime, CasebookSystem, AccessRule, java.util.Map)}, with every listener
   * and HTTP over {@code tls} when present (the served system then owns it).
   */
  public static ServedSystem start(
      HBaseRuntime runtime,
      CasebookSystem system,
      AccessRule access,
      java.util.Map<String, String> settings,
      java.util.Optional<org.casebook.core.tls.ServerTls> tls) {
    Objects.requireNonNull(system, "system is null");
    SystemDescriptor descriptor = system.descriptor();
    Platform.Builder builder = Platform.builder(runtime, EmbeddedHBase.dataDir());
    List<ListenerSpec> listeners = descriptor.listeners();
    for (ListenerSpec l : listeners) {
      builder.port(l.portOption(descriptor.name(), listeners.size() == 1), 0);
    }
    tls.ifPresent(builder::tls);
    // The system's own listeners (telnet, gRPC) check the same rule HTTP does.
    builder.access(access);
    Platform platform = builder.build();
    try {
      return start(runtime, system, access, settings, descriptor, platform);
    } catch (RuntimeException | Error e) {
      // A start failed on storage out of reach (a RegionServer killed) may be tried again.
      platform.close();
      throw e;
    }
  }

  private static ServedSystem start(
      HBaseRuntime runtime,
      CasebookSystem system,
      AccessRule access,
      java.util.Map<String, String> settings,
      SystemDescriptor descriptor,
      Platform platform) {
    SystemContext context = platform.contextFor(descriptor, settings);
    new SchemaManager(runtime.connection()).ensureAll(system.tables(context.settings()));
    RunningSystem running = context.own(system.start(context));
    List<Route> routes = running.routes();
    HashSet<Object> bound = new HashSet<>(routes.stream().map(Route::spec).toList());
    if (!bound.equals(new HashSet<>(descriptor.routes()))) {
      platform.close();
      throw new AssertionError(
          "routes bound " + bound + " differ from the descriptor's " + descriptor.routes());
    }
    HttpApiServer server =
        new HttpApiServer(
            "127.0.0.1",
            0,
            access,
            4,
            platform.metrics(),
            HttpApiServer.Limits.defaults(),
            platform.tls());
    // Each route checked against the system's own grants, as the server adds them.
    routes.forEach(r -> server.add(r.in(descriptor.name())));
    server.start();
    return new ServedSystem(platform, context, server);
  }

  /** The system's context (its connection, clock, settings). */
  public SystemContext context() {
    return context;
  }

  /** The listeners the system opened (each on a free port), in order. */
  public List<Listener> listeners() {
    return platform.listeners(context.system());
  }

  /** {@code http://127.0.0.1:<port>} (https with TLS) followed by {@code path}. */
  public String url(String path) {
    return (server.tls() ? "https" : "http") + "://127.0.0.1:" + server.port() + path;
  }

  @Override
  public void close() {
    server.close();
    platform.close();
  }
}
