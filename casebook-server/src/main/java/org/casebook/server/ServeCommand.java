package org.casebook.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.http.HttpResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code casebook serve}: HBase (embedded unless configured), every system, one HTTP server. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Start HBase (embedded unless --zk/HBASE_CONF_DIR), ensure all schemas, serve the REST API.")
final class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  @Option(names = "--port", defaultValue = "8080", description = "HTTP port (0 = any free port; default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--token", defaultValue = "${env:CASEBOOK_TOKEN}",
      description = "Bearer token required on every write endpoint (default: $CASEBOOK_TOKEN; none if unset).")
  String token;

  @Option(names = "--threads", defaultValue = "16", description = "HTTP worker threads (default ${DEFAULT-VALUE}).")
  int threads;

  private final List<CasebookSystem> systems;
  private final CliContext context;

  ServeCommand(List<CasebookSystem> systems, CliContext context) {
    this.systems = systems;
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    long t0 = System.nanoTime();
    SystemContext ctx = context.get();
    HBaseRuntime runtime = ctx.runtime();
    HttpApiServer http = new HttpApiServer(bind, port, Optional.ofNullable(token).filter(t -> !t.isBlank()),
        Math.max(2, threads));
    List<AutoCloseable> closeables = new ArrayList<>();
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable shutdown = () -> {
      LOG.info("shutting down: HTTP, systems, then HBase");
      http.close();
      for (int i = closeables.size() - 1; i >= 0; i--) {
        try {
          closeables.get(i).close();
        } catch (Exception e) {
          LOG.error("system did not close cleanly", e);
        }
      }
      context.close();
      LOG.info("stopped");
      stopped.countDown();
    };
    // Through Hadoop's hook manager, ahead of its FileSystem hook, so HBase flushes before files close.
    org.apache.hadoop.util.ShutdownHookManager.get().addShutdownHook(shutdown, 1000);
    try {
      for (CasebookSystem system : systems) {
        closeables.add(system.registerRoutes(ctx, http));
      }
      ProcessMetrics metrics = new ProcessMetrics(runtime);
      http.setExtraMetrics(metrics::render);
      http.get("/api/health", req -> health(runtime));
      http.start();
    } catch (RuntimeException e) {
      shutdown.run();
      throw e;
    }
    System.err.printf("Casebook serving http://%s:%d  (HBase %s; up in %.1f s; Ctrl-C stops)%n", bind, http.port(),
        runtime.description(), (System.nanoTime() - t0) / 1e9);
    stopped.await();
    return 0;
  }

  private HttpResponse health(HBaseRuntime runtime) {
    Map<String, Object> body = new LinkedHashMap<>();
    Map<String, Object> hbase = new LinkedHashMap<>();
    hbase.put("mode", runtime.mode().label());
    int status = 200;
    try {
      hbase.put("regionServers", runtime.liveRegionServers());
      body.put("status", "up");
    } catch (RuntimeException e) {
      hbase.put("error", e.getMessage());
      body.put("status", "down");
      status = 503;
    }
    body.put("hbase", hbase);
    List<Map<String, Object>> list = new ArrayList<>();
    for (CasebookSystem s : systems) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", s.name());
      entry.put("summary", s.summary());
      entry.put("tables", s.schemas().size());
      list.add(entry);
    }
    body.put("systems", list);
    return HttpResponse.json(status, body);
  }
}
