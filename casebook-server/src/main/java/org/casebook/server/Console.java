package org.casebook.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.StorageException;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.access.Action;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.OpenApi;
import org.casebook.core.http.Route;
import org.casebook.core.http.RouteSpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;

/**
 * The web console and the API description, served by the server itself: the page at {@code /}, its
 * scripts and styles (ours and the packaged webjars, nothing from a network), {@code
 * /api/openapi.json} built from every route the HTTP server serves, the interactive API page, and
 * {@code /api/cluster} — regions with their sizes and request counters, which the overview turns
 * into a heat map.
 */
final class Console implements AutoCloseable {
  static final String OPENAPI = "/api/openapi.json";

  private static final String HTML = "text/html; charset=utf-8";
  private static final String JS = "application/javascript; charset=utf-8";
  private static final String CSS = "text/css; charset=utf-8";
  private static final String SYSTEM_PAGES = "console/systems/";

  /**
   * A page's script, {@code <system>.js}, or a module it imports, {@code <system>-<part>.js} (so a
   * long page can be split without a loader); nothing else of the folder is served.
   */
  private static final Pattern PAGE_SCRIPT =
      Pattern.compile("([a-z][a-z0-9]{0,19})(?:-[a-z0-9]{1,40})?\\.js");

  private static final String SWAGGER = webjar("org.webjars", "swagger-ui") + "/";
  private static final String UPLOT = webjar("org.webjars.npm", "uplot") + "/dist/";

  /** A file the console serves: where it is on the class path, and its type. */
  private record Asset(String resource, String contentType, boolean fromWebjar) {}

  /** Every file under {@code /console/}: a fixed list, so no request names a path of its own. */
  private static final Map<String, Asset> ASSETS =
      Map.of(
          "console.js", new Asset("console/console.js", JS, false),
          "console.css", new Asset("console/console.css", CSS, false),
          "api-docs.js", new Asset("console/api-docs.js", JS, false),
          "swagger-ui-bundle.js", new Asset(SWAGGER + "swagger-ui-bundle.js", JS, true),
          "swagger-ui.css", new Asset(SWAGGER + "swagger-ui.css", CSS, true),
          "uplot.js", new Asset(UPLOT + "uPlot.iife.min.js", JS, true),
          "uplot.css", new Asset(UPLOT + "uPlot.min.css", CSS, true));

  /** Where a webjar on the class path keeps its files: its version is read from the jar. */
  private static String webjar(String group, String artifact) {
    String props = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    java.util.Properties p = new java.util.Properties();
    try (InputStream in = Console.class.getClassLoader().getResourceAsStream(props)) {
      if (in == null) {
        throw new IllegalStateException("webjar " + group + ":" + artifact + " is not packaged");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("read " + props, e);
    }
    return "META-INF/resources/webjars/" + artifact + "/" + p.getProperty("version");
  }

  private final Map<String, List<TableSpec>> tables;
  private final List<SystemDescriptor> systems;
  private final HBaseRuntime runtime;
  private final HttpApiServer http;
  private final Map<String, byte[]> loaded = new java.util.concurrent.ConcurrentHashMap<>();
  private final RowEstimates rowEstimates;

  /** Each table's declared storage, by table: it cannot change while the console serves. */
  private final Map<TableName, String> storage = new java.util.HashMap<>();

  private Console(
      List<SystemDescriptor> systems,
      Map<String, List<TableSpec>> tables,
      HBaseRuntime runtime,
      HttpApiServer http) {
    this.systems = List.copyOf(systems);
    this.tables = Map.copyOf(tables);
    this.runtime = runtime;
    this.http = http;
    this.rowEstimates = new RowEstimates(runtime.connection());
    SchemaManager schemas = new SchemaManager(runtime.connection());
    this.tables.values().forEach(l -> l.forEach(t -> storage.put(t.name(), storage(t, schemas))));
  }

  /** Stops the row sampling thread. */
  @Override
  public void close() {
    rowEstimates.close();
  }

  /** The server's own routes, described like a system's (they appear in the API description). */
  static final List<RouteSpec> PLATFORM_ROUTES =
      List.of(
          new RouteSpec("GET", "/api/health", "Status of HBase and of every system", false),
          new RouteSpec(
              "GET",
              "/api/cluster",
              "HBase mode, region servers, and every system's tables with their regions: size,"
                  + " read and write request counters",
              false),
          new RouteSpec(
              "GET",
              "/api/schema",
              "Every system's tables as declared and as they are: regions, bytes on disk, the"
                  + " largest region's share, compression, encoding, bloom filter and TTL",
              false),
          new RouteSpec(
              "GET",
              "/api/backups",
              "Every backup (HBase snapshots of whole systems): name, time taken, systems, tables,"
                  + " bytes it refers to and bytes only backups keep",
              false),
          new RouteSpec(
              "POST",
              "/api/backups",
              "Take a backup here, each system's writes paused while its tables' snapshots are"
                  + " taken: body {\"name\": optional, \"systems\": [optional]}; 201 with the"
                  + " backup",
              false,
              Action.ADMIN),
          new RouteSpec(
              "GET",
              "/api/audit",
              "The audit trail, newest first: every change and refused attempt at one, with who,"
                  + " what and the outcome (?from=&to= ISO-8601, who=, system=; admins only)",
              true,
              Action.ADMIN),
          new RouteSpec("GET", OPENAPI, "This description (OpenAPI 3)", false),
          new RouteSpec("GET", "/api/docs", "The interactive page for this description", false),
          new RouteSpec("GET", "/metrics", "Prometheus metrics of the process", false),
          new RouteSpec("GET", "/", "The web console", false),
          new RouteSpec("GET", "/console/{asset}", "A script or style of the console", false),
          new RouteSpec(
              "GET",
              "/console/systems/{script}",
              "A system's console page ({name}.js, and the modules it imports,"
                  + " {name}-{part}.js, from the system's own module)",
              false));

  /** The platform route of {@code method} and {@code pattern}. */
  static RouteSpec platformRoute(String method, String pattern) {
    return PLATFORM_ROUTES.stream()
        .filter(r -> r.method().equals(method) && r.pattern().equals(pattern))
        .findFirst()
        .orElseThrow(
            () -> new IllegalArgumentException("no platform route " + method + " " + pattern));
  }

  /**
   * Serves the console's routes on {@code http} (health and metrics are served elsewhere); close
   * the returned console after the HTTP server.
   */
  /**
   * Serves the console of {@code systems}, whose tables are {@code tables} (by system name: where
   * their settings put them).
   */
  static Console serve(
      List<SystemDescriptor> systems,
      Map<String, List<TableSpec>> tables,
      HBaseRuntime runtime,
      HttpApiServer http) {
    Console c = new Console(systems, tables, runtime, http);
    http.add(new Route(spec("/api/cluster"), req -> HttpResponse.ok(c.cluster())));
    http.add(new Route(spec("/api/schema"), req -> HttpResponse.ok(c.schema())));
    http.add(
        new Route(
            spec("/api/backups"),
            req ->
                HttpResponse.ok(
                    java.util.Map.of(
                        "backups",
                        new org.casebook.core.backup.BackupCatalog(
                                runtime.connection(), runtime.configuration())
                            .list()))));
    http.add(new Route(spec(OPENAPI), req -> HttpResponse.ok(c.openApi())));
    http.add(new Route(spec("/api/docs"), req -> c.file("console/api-docs.html", HTML, false)));
    http.add(new Route(spec("/"), req -> c.file("console/index.html", HTML, false)));
    http.add(
        new Route(
            spec("/console/{asset}"),
            req -> {
              Asset a = ASSETS.get(req.pathParam("asset"));
              if (a == null) {
                return HttpResponse.error(404, "no such console file", "asset");
              }
              return c.file(a.resource(), a.contentType(), a.fromWebjar());
            }));
    http.add(
        new Route(
            spec("/console/systems/{script}"),
            req -> {
              String script = req.pathParam("script");
              Matcher m = PAGE_SCRIPT.matcher(script);
              if (!m.matches()
                  || !c.hasPage(m.group(1))
                  || Console.class.getClassLoader().getResource(SYSTEM_PAGES + script) == null) {
                return HttpResponse.error(404, "no console page for " + script, "script");
              }
              return c.file(SYSTEM_PAGES + script, JS, false);
            }));
    return c;
  }

  /**
   * A system's own console page: {@code console/systems/<name>.js} in its module. The server knows
   * it only by the system's name.
   */
  static String pageResource(String system) {
    return SYSTEM_PAGES + system + ".js";
  }

  boolean hasPage(String system) {
    return systems.stream().anyMatch(d -> d.name().equals(system))
        && Console.class.getClassLoader().getResource(pageResource(system)) != null;
  }

  private static RouteSpec spec(String pattern) {
    return PLATFORM_ROUTES.stream()
        .filter(r -> r.pattern().equals(pattern))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("undescribed platform route " + pattern));
  }

  /** The description of every route served now: one tag per system, one for the platform. */
  Map<String, Object> openApi() {
    List<OpenApi.Section> sections = new ArrayList<>();
    List<RouteSpec> served = http.routes();
    List<RouteSpec> platform = new ArrayList<>(served);
    for (SystemDescriptor d : systems) {
      sections.add(new OpenApi.Section(d.name(), d.summary(), d.routes()));
      platform.removeAll(d.routes());
    }
    // Described platform routes replace their bare registrations (same method and pattern).
    List<RouteSpec> platformDescribed = new ArrayList<>();
    for (RouteSpec r : platform) {
      platformDescribed.add(
          PLATFORM_ROUTES.stream()
              .filter(p -> p.method().equals(r.method()) && p.pattern().equals(r.pattern()))
              .findFirst()
              .orElse(r));
    }
    sections.add(0, new OpenApi.Section("platform", "The server itself", platformDescribed));
    return OpenApi.document("Casebook", Main.VERSION, sections);
  }

  private HttpResponse file(String resource, String contentType, boolean fromWebjar) {
    byte[] body = loaded.computeIfAbsent(resource, Console::read);
    // Webjar files change only with their version; ours with the server's build.
    return new HttpResponse(200, contentType, body)
        .withHeader("Cache-Control", fromWebjar ? "public, max-age=86400" : "no-cache");
  }

  private static byte[] read(String resource) {
    try (InputStream in = Console.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the console file " + resource + " is not packaged");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("read " + resource, e);
    }
  }

  // ---- /api/schema

  Map<String, Object> schema() {
    List<SchemaView.Table> out = new ArrayList<>();
    for (SystemDescriptor d : systems) {
      out.addAll(
          SchemaView.live(
              d.name(), tables.get(d.name()), runtime.connection(), runtime.configuration()));
    }
    return Map.of("tables", out);
  }

  // ---- /api/cluster

  /**
   * One region; {@code rows} is null until the region was first sampled ({@link RowEstimates}),
   * {@code rowsExact} says it was counted rather than estimated.
   */
  record RegionEntry(
      String name,
      String startKey,
      String server,
      long storeFileBytes,
      long memStoreBytes,
      long readRequests,
      long writeRequests,
      Long rows,
      boolean rowsExact) {}

  /**
   * A table; {@code rows} sums its regions' once every region has one, else null; {@code storage}:
   * each family's declared compression, block encoding and bloom filter.
   */
  record TableEntry(
      String name,
      String description,
      String storage,
      List<RegionEntry> regions,
      Long rows,
      boolean rowsExact) {
    static TableEntry of(
        String name, String description, String storage, List<RegionEntry> regions) {
      long rows = 0;
      boolean exact = true;
      for (RegionEntry r : regions) {
        if (r.rows() == null) {
          return new TableEntry(name, description, storage, regions, null, false);
        }
        rows += r.rows();
        exact &= r.rowsExact();
      }
      return new TableEntry(
          name, description, storage, regions, regions.isEmpty() ? null : rows, exact);
    }
  }

  private static String storage(TableSpec t, SchemaManager schemas) {
    List<String> families = new ArrayList<>();
    for (org.casebook.core.schema.FamilySpec f : t.families()) {
      families.add(
          f.name()
              + ": "
              + schemas.compressionOf(f)
              + ", "
              + (f.dataBlockEncoding() == null ? "NONE" : f.dataBlockEncoding())
              + ", bloom "
              + f.bloom());
    }
    return String.join("; ", families);
  }

  /** A system's tables; {@code page}: it has a console page of its own. */
  record SystemTables(String name, boolean page, List<TableEntry> tables) {}

  record ServerEntry(String name, int regions, long requests, long usedHeapBytes) {}

  record Cluster(
      String mode, long atMillis, List<ServerEntry> regionServers, List<SystemTables> systems) {}

  Cluster cluster() {
    Map<TableName, List<RegionEntry>> byTable = new TreeMap<>();
    Map<TableName, List<RowEstimates.Region>> regionsByTable = new TreeMap<>();
    List<ServerEntry> servers = new ArrayList<>();
    try (Admin admin = runtime.connection().getAdmin()) {
      ClusterMetrics metrics =
          admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      for (Map.Entry<ServerName, ServerMetrics> e : metrics.getLiveServerMetrics().entrySet()) {
        ServerMetrics sm = e.getValue();
        servers.add(
            new ServerEntry(
                e.getKey().getServerName(),
                sm.getRegionMetrics().size(),
                sm.getRequestCount(),
                (long) sm.getUsedHeapSize().get(Size.Unit.BYTE)));
        for (RegionMetrics rm : sm.getRegionMetrics().values()) {
          byte[] regionName = rm.getRegionName();
          TableName table = RegionInfo.getTable(regionName);
          byte[] start = RegionInfo.getStartKey(regionName);
          regionsByTable
              .computeIfAbsent(table, t -> new ArrayList<>())
              .add(
                  new RowEstimates.Region(
                      RegionInfo.encodeRegionName(regionName),
                      table,
                      (long) rm.getUncompressedStoreFileSize().get(Size.Unit.BYTE)
                          + (long) rm.getMemStoreSize().get(Size.Unit.BYTE),
                      rm.getWriteRequestCount()));
          RowEstimates.Estimate rows = rowEstimates.get(RegionInfo.encodeRegionName(regionName));
          byTable
              .computeIfAbsent(table, t -> new ArrayList<>())
              .add(
                  new RegionEntry(
                      RegionInfo.encodeRegionName(regionName),
                      Bytes.toStringBinary(start),
                      e.getKey().getServerName(),
                      (long) rm.getStoreFileSize().get(Size.Unit.BYTE),
                      (long) rm.getMemStoreSize().get(Size.Unit.BYTE),
                      rm.getReadRequestCount(),
                      rm.getWriteRequestCount(),
                      rows == null ? null : rows.rows(),
                      rows != null && rows.exact()));
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read cluster metrics", e);
    }
    byTable.values().forEach(l -> l.sort(java.util.Comparator.comparing(RegionEntry::startKey)));
    List<SystemTables> out = new ArrayList<>();
    List<RowEstimates.Region> toSample = new ArrayList<>();
    for (SystemDescriptor d : systems) {
      List<TableEntry> entries = new ArrayList<>();
      for (TableSpec t : tables.get(d.name())) {
        entries.add(
            TableEntry.of(
                t.name().getNameAsString(),
                t.keyDoc(),
                storage.get(t.name()),
                byTable.getOrDefault(t.name(), List.of())));
        toSample.addAll(regionsByTable.getOrDefault(t.name(), List.of()));
      }
      out.add(new SystemTables(d.name(), hasPage(d.name()), entries));
    }
    rowEstimates.refresh(toSample);
    return new Cluster(runtime.mode().label(), System.currentTimeMillis(), servers, out);
  }
}
