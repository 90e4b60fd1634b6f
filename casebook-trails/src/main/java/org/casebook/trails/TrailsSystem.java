package org.casebook.trails;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.http.Route;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SystemSettings;
import org.casebook.trails.cli.TrailsCommand;
import org.casebook.trails.wire.TrailsRoutes;

/** Behaviour trails, plugged into the platform. */
public final class TrailsSystem implements CasebookSystem {
  static final String NAME = "trails";
  private static final String SUMMARY =
      "Behaviour trails (seeds 000, 004): log ingest, per-user trails, MapReduce " + "batch query";

  /** Days a record is kept after its time (0: forever); a family TTL on every trails table. */
  public static final Setting<Integer> RETENTION_DAYS =
      Setting.ofInt(
          "retention-days",
          0,
          0,
          20_000,
          "Days a record is kept after it was ingested, in every trails table (0: forever); a"
              + " family TTL, so HBase drops older records itself.");

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
            NAME,
            SUMMARY,
            TrailsSchema.in(TrailsSchema.DEFAULT_NAMESPACE).tables(),
            TrailsKeys.ALL,
            TrailsRoutes.ROUTES.specs(),
            List.of(),
            List.of(),
            List.of(RETENTION_DAYS))
        // What each user watched and ordered is theirs, not the network's.
        .withPrivateReads();
  }

  /** The tables with the retention setting's TTL. */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    return TrailsSchema.in(TrailsSchema.DEFAULT_NAMESPACE).tables(settings.get(RETENTION_DAYS));
  }

  @Override
  public RunningSystem start(SystemContext context) {
    List<Route> routes = TrailsRoutes.ROUTES.bind(new TrailsService(context));
    return () -> routes;
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new TrailsCommand(context);
  }
}
