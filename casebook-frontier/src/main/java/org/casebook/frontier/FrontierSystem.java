package org.casebook.frontier;

import java.time.Duration;
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
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SystemSettings;
import org.casebook.frontier.cli.FrontierCommand;
import org.casebook.frontier.wire.FrontierGrpc;
import org.casebook.frontier.wire.FrontierRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The crawl frontier with the URLFrontier gRPC API, plugged into the platform. */
public final class FrontierSystem implements CasebookSystem {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierSystem.class);

  /** How often deleted channels are purged. */
  private static final long PURGE_PERIOD_SECONDS = 30;

  /** The retention purge: first a minute after start, then hourly. */
  private static final long RETENTION_FIRST_DELAY_SECONDS = 60;

  private static final long RETENTION_PERIOD_SECONDS = 3600;

  /** URLFrontier's port. */
  public static final ListenerSpec GRPC =
      new ListenerSpec(
          "grpc",
          "URLFrontier 2.6 gRPC (crawler-commons)",
          FrontierService.DEFAULT_GRPC_PORT,
          "crawlers (StormCrawler and other URLFrontier clients) put and get URLs here");

  /** The HBase namespace of the frontier's tables. */
  public static final Setting<String> NAMESPACE =
      Setting.ofNamespace(
          FrontierSchema.DEFAULT_NAMESPACE,
          "HBase namespace of the frontier's tables, created at start if missing: a second"
              + " frontier on the same HBase (a benchmark's, say) keeps its own.");

  /** How long each crawl keeps its URLs. */
  static final Setting<FrontierRetention> RETENTION =
      new Setting<>(
          "retention",
          "CRAWL=DURATION,... (empty: keep forever)",
          FrontierRetention.FOREVER,
          "How long a crawl keeps its URLs after they were first stored, per crawl ID:"
              + " news=30d,*=1y (* covers every other crawl; units d, w, y). Older URLs, queued"
              + " or done, are removed as PurgeURLs removes them, hourly by the server and by"
              + " `frontier purge`.",
          FrontierRetention::parse);

  /** How often the gauges read every crawl's statistics. */
  static final Setting<Integer> METRICS_REFRESH =
      Setting.ofInt(
          "metrics-refresh-seconds",
          30,
          1,
          3600,
          "Seconds between two reads of every crawl's statistics (its host rows and in-flight"
              + " marks) into the gauges of URLs queued and in flight and of active queues.");

  /** How often a node renews its row in the nodes table (it expires after three periods). */
  static final Setting<Integer> NODE_HEARTBEAT =
      Setting.ofInt(
          "node-heartbeat-seconds",
          5,
          1,
          300,
          "Seconds between two renewals of this node's row in the frontier's nodes table; other"
              + " nodes list it (ListNodes) while its last renewal is younger than three periods.");

  static final List<Setting<?>> SETTINGS =
      List.of(NAMESPACE, RETENTION, METRICS_REFRESH, NODE_HEARTBEAT);

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "frontier",
        "Crawl frontier (seed 002): channels, per-host politeness, daily stats, URLFrontier gRPC",
        FrontierSchema.in(FrontierSchema.DEFAULT_NAMESPACE).tables(),
        FrontierKeys.ALL,
        FrontierRoutes.ROUTES.specs(),
        List.of(GRPC),
        List.of(),
        SETTINGS);
  }

  /** The frontier's tables in the set namespace. */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    return FrontierSchema.in(settings.get(NAMESPACE)).tables();
  }

  @Override
  public RunningSystem start(SystemContext context) {
    FrontierService service = new FrontierService(context, context.settings().get(NAMESPACE));
    ScheduledExecutorService upkeep = context.background("upkeep");
    Listener grpc =
        context.listen(
            GRPC,
            FrontierGrpc.listener(
                service, context.background("put-flush"), context.metrics(), context.access()));
    // Owned after the listener and before its scheduler: at stop the renewals end first, then the
    // row goes, and only then does the listener close.
    NodeHeartbeat node =
        context.own(
            service.join(
                grpc.address().getHostString() + ":" + grpc.address().getPort(),
                Duration.ofSeconds(context.settings().get(NODE_HEARTBEAT))));
    node.startOn(context.background("node-heartbeat"));
    upkeep.execute(() -> run("due index repair", service::repairDueIndex));
    ScheduledFuture<?> purge =
        upkeep.scheduleWithFixedDelay(
            () -> run("purge of deleted crawls", service::purgeDeleted),
            PURGE_PERIOD_SECONDS,
            PURGE_PERIOD_SECONDS,
            TimeUnit.SECONDS);
    int refreshSeconds = context.settings().get(METRICS_REFRESH);
    ScheduledFuture<?> gauges =
        context
            .background("metrics")
            .scheduleWithFixedDelay(
                () -> refreshGauges(service), 0, refreshSeconds, TimeUnit.SECONDS);
    ScheduledFuture<?> retention =
        service.retention().keepsEverything()
            ? null
            : upkeep.scheduleWithFixedDelay(
                () -> run("retention purge", () -> total(service.purgeExpired())),
                RETENTION_FIRST_DELAY_SECONDS,
                RETENTION_PERIOD_SECONDS,
                TimeUnit.SECONDS);
    return RunningSystem.of(
        FrontierRoutes.ROUTES.bind(service),
        () -> {
          // Unsettled counter writes: the counters lag the rows until HBase takes them. A node
          // whose heartbeat has not held for its expiry is no longer listed by the others.
          boolean degraded =
              purge.isDone()
                  || gauges.isDone()
                  || (retention != null && retention.isDone())
                  || service.unsettledCounterWrites() > 0
                  || !service.settling()
                  || !node.healthy();
          Map<String, Object> details =
              Map.of(
                  "grpcConnections",
                  grpc.openConnections(),
                  "purgeScheduled",
                  !purge.isDone(),
                  "retention",
                  service.retention().toString(),
                  "retentionPurgeScheduled",
                  retention != null && !retention.isDone(),
                  "unsettledCounterWrites",
                  service.unsettledCounterWrites(),
                  "node",
                  node.self().idText(),
                  "nodeHeartbeating",
                  node.healthy());
          return degraded ? SystemHealth.degraded(details) : SystemHealth.up(details);
        });
  }

  private static void refreshGauges(FrontierService service) {
    try {
      service.refreshGauges();
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("frontier: reading the gauges failed; they keep their last values", e);
    }
  }

  private static long total(Map<String, Long> perCrawl) {
    return perCrawl.values().stream().mapToLong(Long::longValue).sum();
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
