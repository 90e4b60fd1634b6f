package org.casebook.tsdb;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.net.LineServer;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SystemSettings;
import org.casebook.tsdb.cli.TsdbCommand;
import org.casebook.tsdb.wire.TelnetProtocol;
import org.casebook.tsdb.wire.TsdbRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The time-series store with OpenTSDB's protocols, plugged into the platform. */
public final class TsdbSystem implements CasebookSystem {
  private static final Logger LOG = LoggerFactory.getLogger(TsdbSystem.class);
  private static final long COMPACTION_PERIOD_SECONDS = 60;

  /** Points expire by the hour; a pass soon after start, then hourly. */
  private static final long PURGE_FIRST_DELAY_SECONDS = 60;

  private static final long PURGE_PERIOD_SECONDS = 3600;

  /** OpenTSDB's telnet-style port. */
  public static final ListenerSpec TELNET =
      new ListenerSpec(
          "telnet",
          "OpenTSDB telnet-style lines (put, version, help, exit)",
          4242,
          "collectors (tcollector, collectd write_tsdb, Telegraf) send put lines here");

  /** The tables under the default settings (namespace {@code tsdb}, no salt). */
  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "tsdb",
        "Time series (seed 002, OpenTSDB case): telnet put, /api/put, /api/query, Grafana",
        TsdbSchema.in(TsdbSchema.DEFAULT_NAMESPACE).tables(0),
        TsdbKeys.ALL,
        TsdbRoutes.ROUTES.specs(),
        List.of(TELNET),
        TsdbRoutes.OPENTSDB_PATHS,
        TsdbConfig.SETTINGS);
  }

  /**
   * The uid and data tables in the set namespace, the data table pre-split into its salt buckets.
   */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    TsdbConfig config = TsdbConfig.from(settings);
    return TsdbSchema.in(config.namespace()).tables(config.saltBuckets());
  }

  @Override
  public RunningSystem start(SystemContext context) {
    TsdbService service = context.own(new TsdbService(context));
    context.listenLines(
        TELNET,
        new TelnetProtocol(service, context.access()),
        new LineServer.Limits(256, 600_000, 64 * 1024));
    ScheduledFuture<?> compaction =
        service.config().backgroundCompaction()
            ? context
                .background("compaction")
                .scheduleWithFixedDelay(
                    () -> compact(service),
                    COMPACTION_PERIOD_SECONDS,
                    COMPACTION_PERIOD_SECONDS,
                    TimeUnit.SECONDS)
            : null;
    ScheduledFuture<?> purge =
        service.config().retention().keepsEverything()
            ? null
            : context
                .background("retention")
                .scheduleWithFixedDelay(
                    () -> purge(service),
                    PURGE_FIRST_DELAY_SECONDS,
                    PURGE_PERIOD_SECONDS,
                    TimeUnit.SECONDS);
    return RunningSystem.of(
        TsdbRoutes.ROUTES.bind(service),
        () -> {
          boolean stopped = compaction != null && compaction.isDone();
          stopped |= purge != null && purge.isDone();
          Map<String, Object> details =
              Map.of(
                  "compactionBacklogRows", service.compactionBacklog(),
                  "compactionScheduled", compaction != null && !compaction.isDone(),
                  "retention", service.config().retention().toString(),
                  "retentionPurgeScheduled", purge != null && !purge.isDone(),
                  "bufferedWriteFailures", service.asyncWriteFailures());
          return stopped ? SystemHealth.degraded(details) : SystemHealth.up(details);
        });
  }

  private static void compact(TsdbService service) {
    try {
      int rows = service.compactDue();
      if (rows > 0) {
        LOG.debug("compacted {} row(s)", rows);
      }
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("compaction failed; it runs again in {} s", COMPACTION_PERIOD_SECONDS, e);
    }
  }

  private static void purge(TsdbService service) {
    try {
      Map<String, Long> purged = service.purgeExpired();
      if (!purged.isEmpty()) {
        LOG.info("retention: deleted the expired hours of {} metric(s): {}", purged.size(), purged);
      }
    } catch (RuntimeException e) {
      LOG.warn("retention purge failed; it runs again in {} s", PURGE_PERIOD_SECONDS, e);
    }
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new TsdbCommand(context);
  }
}
