package org.casebook.frontier;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.http.Route;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.frontier.cli.FrontierCommand;
import org.casebook.frontier.http.FrontierRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The crawl frontier with the URLFrontier gRPC API, plugged into the platform. */
public final class FrontierSystem implements CasebookSystem {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierSystem.class);

  /** How often deleted channels are purged. */
  private static final long PURGE_PERIOD_SECONDS = 30;

  /** URLFrontier's port. */
  public static final ListenerSpec GRPC =
      new ListenerSpec(
          "grpc",
          "URLFrontier 2.5 gRPC (crawler-commons)",
          7071,
          "crawlers (StormCrawler and other URLFrontier clients) put and get URLs here");

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "frontier",
        "Crawl frontier (seed 002): channels, per-host politeness, daily stats, URLFrontier gRPC",
        FrontierService.schemas(FrontierSchema.DEFAULT_NAMESPACE),
        FrontierKeys.ALL,
        FrontierRoutes.ROUTES.specs(),
        List.of(GRPC));
  }

  @Override
  public RunningSystem start(SystemContext context) {
    FrontierService service = new FrontierService(context);
    ScheduledExecutorService upkeep = context.background("upkeep");
    Listener grpc =
        context.listen(
            GRPC, GrpcListener.factory(new FrontierGrpc(service, context.background("put-flush"))));
    service.setAddress(grpc.address().getHostString() + ":" + grpc.address().getPort());
    upkeep.execute(() -> run("due index repair", service::repairDueIndex));
    ScheduledFuture<?> purge =
        upkeep.scheduleWithFixedDelay(
            () -> run("purge of deleted crawls", service::purgeDeleted),
            PURGE_PERIOD_SECONDS,
            PURGE_PERIOD_SECONDS,
            TimeUnit.SECONDS);
    List<Route> routes = FrontierRoutes.ROUTES.bind(service);
    return RunningSystem.of(
        routes,
        () -> {
          Map<String, Object> details =
              Map.of("grpcConnections", grpc.openConnections(), "purgeScheduled", !purge.isDone());
          return purge.isDone() ? SystemHealth.degraded(details) : SystemHealth.up(details);
        });
  }

  /**
   * Serves {@code service} over URLFrontier gRPC on {@code spec} (benchmarks and tools that run a
   * frontier of their own, say on port 0); closed with the context.
   */
  public static Listener listen(SystemContext context, FrontierService service, ListenerSpec spec) {
    Listener l =
        context.listen(
            spec, GrpcListener.factory(new FrontierGrpc(service, context.background("put-flush"))));
    service.setAddress(l.address().getHostString() + ":" + l.address().getPort());
    return l;
  }

  private static void run(String what, Supplier<Long> task) {
    try {
      long n = task.get();
      if (n > 0) {
        LOG.info("frontier: {}: {} row(s)", what, n);
      }
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("frontier: {} failed; it runs again later", what, e);
    }
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new FrontierCommand(context);
  }
}
