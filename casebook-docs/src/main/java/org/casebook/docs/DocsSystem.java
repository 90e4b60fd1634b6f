package org.casebook.docs;

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
import org.casebook.core.http.Route;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SystemSettings;
import org.casebook.docs.cli.DocsCommand;
import org.casebook.docs.wire.DocsRoutes;

/** The document store, plugged into the platform. */
public final class DocsSystem implements CasebookSystem {
  static final String NAME = "docs";
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DocsSystem.class);

  /** Documents expire by the day: a pass a minute after start, then hourly. */
  private static final long PURGE_FIRST_DELAY_SECONDS = 60;

  private static final long PURGE_PERIOD_SECONDS = 3600;

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
            NAME,
            "Document store (seed 002): typed documents in BI/DI families, optimistic edits, comments",
            // Under the default settings; tables(settings) gives another namespace's.
            DocsService.schemas(DocsSchema.DEFAULT_NAMESPACE),
            DocsKeys.ALL,
            DocsRoutes.ROUTES.specs(),
            List.of(),
            List.of(),
            DocsSettings.ALL)
        // Corrected pages and their history are an editorial team's, not the network's.
        .withPrivateReads();
  }

  /** The store's tables in the set namespace. */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    return DocsService.schemas(settings.get(DocsSettings.NAMESPACE));
  }

  @Override
  public RunningSystem start(SystemContext context) {
    DocsService service = new DocsService(context);
    List<Route> routes = DocsRoutes.ROUTES.bind(service);
    ScheduledFuture<?> purge =
        service.retention().isEmpty()
            ? null
            : context
                .background("retention")
                .scheduleWithFixedDelay(
                    () -> purge(service),
                    PURGE_FIRST_DELAY_SECONDS,
                    PURGE_PERIOD_SECONDS,
                    TimeUnit.SECONDS);
    return RunningSystem.of(
        routes,
        () -> {
          Map<String, Object> details =
              Map.of(
                  "types",
                  service.types().size(),
                  "retention",
                  service.retention(),
                  "retentionPurgeScheduled",
                  purge != null && !purge.isDone());
          return purge != null && purge.isDone()
              ? SystemHealth.degraded(details)
              : SystemHealth.up(details);
        });
  }

  private static void purge(DocsService service) {
    try {
      Map<String, Long> purged = service.purgeExpired();
      if (!purged.isEmpty()) {
        LOG.info("retention: deleted expired documents {}", purged);
      }
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("retention purge failed; it runs again in {} s", PURGE_PERIOD_SECONDS, e);
    }
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new DocsCommand(context);
  }
}
