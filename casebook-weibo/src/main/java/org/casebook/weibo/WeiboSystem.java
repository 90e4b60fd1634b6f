package org.casebook.weibo;

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
import org.casebook.weibo.cli.WeiboCommand;
import org.casebook.weibo.http.WeiboRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The social feed, plugged into the platform. */
public final class WeiboSystem implements CasebookSystem {
  private static final Logger LOG = LoggerFactory.getLogger(WeiboSystem.class);
  private static final long REPAIR_PERIOD_MINUTES = 5;

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "weibo",
        "Social feed (seed 003): publish, follow, timelines with hybrid fan-out",
        WeiboService.schemas(WeiboSchema.DEFAULT_NAMESPACE),
        WeiboKeys.ALL,
        WeiboRoutes.ROUTES.specs(),
        List.of());
  }

  @Override
  public RunningSystem start(SystemContext context) {
    // Not owned by the context: the one thing to stop, the promotion thread, already is (with the
    // context's bounded grace period at shutdown).
    WeiboService service = new WeiboService(context, WeiboConfig.fromEnvironment());
    // Relation changes cut short by a crash are finished at start, then every few minutes (those
    // younger than a minute may still be running and wait for a later run).
    ScheduledFuture<?> repairs =
        context
            .background("relation-repair")
            .scheduleWithFixedDelay(
                () -> repair(service), 0, REPAIR_PERIOD_MINUTES, TimeUnit.MINUTES);
    List<Route> routes = WeiboRoutes.ROUTES.bind(service);
    return RunningSystem.of(
        routes,
        () -> {
          Map<String, Object> details =
              Map.of(
                  "promotionsInProgress",
                  service.promotionsInProgress(),
                  "relationRepairScheduled",
                  !repairs.isDone());
          return repairs.isDone() ? SystemHealth.degraded(details) : SystemHealth.up(details);
        });
  }

  private static void repair(WeiboService service) {
    try {
      int finished = service.repair();
      if (finished > 0) {
        LOG.info("finished {} follow/unfollow changes cut short", finished);
      }
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("relation repair failed; it runs again in {} minutes", REPAIR_PERIOD_MINUTES, e);
    }
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new WeiboCommand(context);
  }
}
