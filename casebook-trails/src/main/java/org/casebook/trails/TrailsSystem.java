package org.casebook.trails;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.http.Route;
import org.casebook.trails.cli.TrailsCommand;
import org.casebook.trails.wire.TrailsRoutes;

/** Behaviour trails, plugged into the platform. */
public final class TrailsSystem implements CasebookSystem {
  static final String NAME = "trails";
  private static final String SUMMARY =
      "Behaviour trails (seeds 000, 004): log ingest, per-user trails, MapReduce " + "batch query";

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        NAME,
        SUMMARY,
        TrailsSchema.in(TrailsSchema.DEFAULT_NAMESPACE).tables(),
        TrailsKeys.ALL,
        TrailsRoutes.ROUTES.specs(),
        List.of());
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
