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
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SystemSettings;
import org.casebook.weibo.cli.WeiboCommand;
import org.casebook.weibo.wire.WeiboRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The social feed, plugged into the platform: its descriptor (tables, key layouts, routes,
 * settings), and the service started on a system's context with its REST routes, health and the
 * relation repair schedule.
 */
public final class WeiboSystem implements CasebookSystem {
  private static final Logger LOG = LoggerFactory.getLogger(WeiboSystem.class);
  private static final long REPAIR_PERIOD_MINUTES = 5;

  /** {@code weibo.namespace}, {@code CASEBOOK_WEIBO_NAMESPACE}. */
  static final Setting<String> NAMESPACE =
      Setting.ofNamespace(
          WeiboSchema.DEFAULT_NAMESPACE,
          "HBase namespace of the feed's tables (posts, inbox, relations, users), created when"
              + " missing: a second feed on the same HBase (a test's, say) keeps its own.");

  /** {@code weibo.fanout-threshold}, {@code CASEBOOK_WEIBO_FANOUT_THRESHOLD}. */
  static final Setting<Integer> FANOUT_THRESHOLD =
      Setting.ofInt(
          "fanout-threshold",
          WeiboConfig.defaults().fanOutThreshold(),
          WeiboConfig.MIN_FANOUT_THRESHOLD,
          Integer.MAX_VALUE,
          "Followers at which an account switches from fan-out on write to merge on read.");

  /** {@code weibo.backfill-posts}, {@code CASEBOOK_WEIBO_BACKFILL_POSTS}. */
  static final Setting<Integer> BACKFILL_POSTS =
      Setting.ofInt(
          "backfill-posts",
          WeiboConfig.defaults().backfillPosts(),
          0,
          WeiboConfig.MAX_BACKFILL_POSTS,
          "How many of an account's latest posts a new follow copies into the follower's timeline.");

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "weibo",
        "Social feed (seed 003): publish, follow, timelines with hybrid fan-out",
        // Under the default settings; tables(settings) gives another namespace's.
        WeiboService.schemas(WeiboSchema.DEFAULT_NAMESPACE),
        WeiboKeys.ALL,
        WeiboRoutes.ROUTES.specs(),
        List.of(),
        List.of(),
        List.of(NAMESPACE, FANOUT_THRESHOLD, BACKFILL_POSTS));
  }

  /** The feed's tables in the set namespace. */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    return WeiboService.schemas(settings.get(NAMESPACE));
  }

  /** The feed's tuning as the system's settings set it. */
  static WeiboConfig config(SystemSettings settings) {
    return new WeiboConfig(settings.get(FANOUT_THRESHOLD), settings.get(BACKFILL_POSTS));
  }

  /** The service on {@code context}, in the namespace and tuned as its settings say. */
  private static WeiboService service(SystemContext context) {
    return new WeiboService(context, config(context.settings()), context.settings().get(NAMESPACE));
  }

  @Override
  public RunningSystem start(SystemContext context) {
    // Not owned by the context: the one thing to stop, the promotion thread, already is (with the
    // context's bounded grace period at shutdown).
    WeiboService service = service(context);
    // Relation changes cut short by a crash are finished at start, then every few minutes (those
    // younger than a minute may still be running and wait for a later run).
    ScheduledFuture<?> repairs =
        context
            .background("relation-repair")
            .scheduleWithFixedDelay(
                () -> repair(service), 0, REPAIR_PERIOD_MINUTES, TimeUnit.MINUTES);
    return RunningSystem.of(
        WeiboRoutes.ROUTES.bind(service),
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
      // No pass: the repair finishes changes cut short, whatever state a backup caught them in.
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
    return new WeiboCommand(() -> service(context.get()));
  }
}
