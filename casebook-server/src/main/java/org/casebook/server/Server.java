package org.casebook.server;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.core.CasebookSystem;
import org.casebook.core.DiskSpaceGuard;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.Route;
import org.casebook.core.http.RouteSpec;
import org.casebook.core.net.Listener;
import org.casebook.core.schema.TableSpec;

/**
 * Every system started on one platform behind one HTTP server, with {@code /api/health} and {@code
 * /metrics}. Knows systems only through their descriptors. {@link #close()} stops HTTP, then the
 * systems, last started first (each closes what it opened in reverse order); the platform stays
 * with its maker.
 */
final class Server implements AutoCloseable {
  private final List<CasebookSystem> systems;
  private final Platform platform;
  private final HttpApiServer http;
  private final Map<String, RunningSystem> running = new LinkedHashMap<>();

  /** What each started system's settings put its tables at, in start order. */
  private final Map<String, List<TableSpec>> tables = new LinkedHashMap<>();

  private Console console;

  private Server(List<CasebookSystem> systems, Platform platform, HttpApiServer http) {
    this.systems = systems;
    this.platform = platform;
    this.http = http;
  }

  /** Starts every system and serves HTTP on {@code port} (0 = any free port). */
  static Server start(List<CasebookSystem> systems, Platform platform, int port, int threads) {
    return start(systems, platform, port, threads, Map.of());
  }

  /**
   * As {@link #start(List, Platform, int, int)}, each system's settings resolved with {@code
   * settings} ({@code <system>.<name>} → value) set as by {@code --set}.
   */
  static Server start(
      List<CasebookSystem> systems,
      Platform platform,
      int port,
      int threads,
      Map<String, String> settings) {
    HttpApiServer http =
        new HttpApiServer(
            platform.bindAddress(),
            port,
            platform.access(),
            threads,
            platform.metrics(),
            HttpApiServer.Limits.defaults(),
            platform.tls());
    Server server = new Server(systems, platform, http);
    try {
      for (CasebookSystem system : systems) {
        SystemDescriptor d = system.descriptor();
        Map<String, String> own = new LinkedHashMap<>();
        settings.forEach(
            (k, v) -> {
              if (k.startsWith(d.name() + ".")) {
                own.put(k, v);
              }
            });
        SystemContext ctx = platform.contextFor(d, own);
        server.tables.put(d.name(), system.tables(ctx.settings()));
        RunningSystem instance = system.start(ctx);
        ctx.own(instance);
        checkRoutes(d, instance.routes());
        // Every write route passes the system's gate, so a backup taken here can pause them; each
        // route is checked against the caller's grants on its own system.
        instance.routes().forEach(r -> http.add(r.in(d.name()).passing(ctx.writes())));
        server.running.put(d.name(), instance);
      }
      ProcessMetrics processMetrics = new ProcessMetrics(platform.runtime());
      http.setMetricsText(() -> platform.scrape() + processMetrics.render());
      http.add(
          new Route(
              Console.PLATFORM_ROUTES.stream()
                  .filter(r -> r.pattern().equals("/api/health"))
                  .findFirst()
                  .orElseThrow(),
              req -> server.health()));
      http.audit(platform.audit());
      platform
          .auditTable()
          .ifPresent(
              trail ->
                  http.add(
                      new Route(
                          Console.platformRoute("GET", "/api/audit"),
                          req -> AuditRoute.list(trail, platform.clock(), req))));
      OnlineBackup backups = new OnlineBackup(server.tables, platform);
      http.add(
          new Route(
              Console.PLATFORM_ROUTES.stream()
                  .filter(r -> r.method().equals("POST") && r.pattern().equals("/api/backups"))
                  .findFirst()
                  .orElseThrow(),
              backups::create));
      server.console =
          Console.serve(
              systems.stream().map(CasebookSystem::descriptor).toList(),
              server.tables,
              platform.runtime(),
              http);
      http.start();
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  int port() {
    return http.port();
  }

  /** Every HTTP route served (systems', the console's, health and metrics). */
  List<RouteSpec> routes() {
    return http.routes();
  }

  /** Every system's listeners, as {@code system listener} → listener. */
  Map<String, Listener> listeners() {
    Map<String, Listener> out = new LinkedHashMap<>();
    for (CasebookSystem s : systems) {
      for (Listener l : platform.listeners(s.descriptor().name())) {
        out.put(s.descriptor().name() + " " + l.spec().name(), l);
      }
    }
    return out;
  }

  @Override
  public void close() {
    http.close();
    if (console != null) {
      console.close();
    }
    List<String> started = new ArrayList<>(tables.keySet());
    for (int i = started.size() - 1; i >= 0; i--) {
      platform.close(started.get(i));
    }
  }

  /** A running system must serve exactly the routes its descriptor lists. */
  static void checkRoutes(SystemDescriptor d, List<Route> bound) {
    Set<RouteSpec> described = new HashSet<>(d.routes());
    Set<RouteSpec> served = new HashSet<>();
    bound.forEach(r -> served.add(r.spec()));
    if (!described.equals(served)) {
      throw new IllegalStateException(
          "system "
              + d.name()
              + " serves other routes than it describes: described "
              + d.routes()
              + ", served "
              + served);
    }
  }

  /** Health response bodies. */
  record ListenerHealth(String name, String protocol, String address, int port, int connections) {}

  record SystemEntry(
      String name,
      String summary,
      String status,
      int tables,
      int routes,
      List<ListenerHealth> listeners,
      Map<String, Object> details) {}

  @com.fasterxml.jackson.annotation.JsonInclude(
      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  record HBaseHealth(String mode, Integer regionServers, String error) {}

  /** The disk under the embedded HBase's data: writes are refused below its floor. */
  record DiskHealth(long freeBytes, long minFreeBytes, boolean writesRefused) {}

  /** The certificate new connections get: what an operator checks after a rotation. */
  record CertificateHealth(String subject, String serial, String notAfter) {}

  @com.fasterxml.jackson.annotation.JsonInclude(
      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  record Health(
      String status,
      String transport,
      String access,
      CertificateHealth certificate,
      HBaseHealth hbase,
      DiskHealth disk,
      List<SystemEntry> systems) {}

  /**
   * How the listeners are reached: {@code tls}, {@code loopback} (plain text on a loopback address)
   * or {@code insecure} (plain text beyond loopback, which {@code serve} allows only with {@code
   * --insecure}).
   */
  String transport() {
    if (platform.tls().isPresent()) {
      return "tls";
    }
    return ServeCommand.isLoopback(platform.bindAddress()) ? "loopback" : "insecure";
  }

  private CertificateHealth certificate() {
    return platform
        .tls()
        .map(
            t ->
                new CertificateHealth(
                    t.current().certificate().getSubjectX500Principal().getName(),
                    t.current().serial(),
                    t.current().certificate().getNotAfter().toInstant().toString()))
        .orElse(null);
  }

  private HttpResponse health() {
    HBaseRuntime runtime = platform.runtime();
    HBaseHealth hbase;
    boolean up;
    try {
      hbase = new HBaseHealth(runtime.mode().label(), runtime.liveRegionServers(), null);
      up = true;
    } catch (RuntimeException e) {
      hbase = new HBaseHealth(runtime.mode().label(), null, e.getMessage());
      up = false;
    }
    List<SystemEntry> list = new ArrayList<>();
    boolean degraded = false;
    for (CasebookSystem s : systems) {
      SystemDescriptor d = s.descriptor();
      SystemHealth h = running.get(d.name()).health();
      degraded |= !h.isUp();
      List<ListenerHealth> ls = new ArrayList<>();
      for (Listener l : platform.listeners(d.name())) {
        ls.add(
            new ListenerHealth(
                l.spec().name(),
                l.spec().protocol(),
                l.address().getHostString(),
                l.address().getPort(),
                l.openConnections()));
      }
      list.add(
          new SystemEntry(
              d.name(),
              d.summary(),
              h.status(),
              tables.get(d.name()).size(),
              d.routes().size(),
              ls,
              h.details()));
    }
    DiskSpaceGuard guard = platform.disk();
    DiskHealth disk = null;
    if (guard.active()) {
      boolean low = guard.low();
      disk = new DiskHealth(guard.usableBytes(), guard.minFreeBytes(), low);
      degraded |= low;
    }
    String status = !up ? "down" : degraded ? "degraded" : "up";
    return HttpResponse.json(
        up ? 200 : 503,
        new Health(
            status, transport(), platform.access().toString(), certificate(), hbase, disk, list));
  }
}
