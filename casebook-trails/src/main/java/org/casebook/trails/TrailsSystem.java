package org.casebook.trails;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpRoutes;
import org.casebook.core.schema.TableSpec;
import org.casebook.trails.cli.TrailsCommand;
import org.casebook.trails.http.TrailsRoutes;

/** Behaviour trails, plugged into the server. */
public final class TrailsSystem implements CasebookSystem {
  @Override
  public String name() {
    return "trails";
  }

  @Override
  public String summary() {
    return "Behaviour trails (seeds 000, 004): log ingest, per-user trails, MapReduce batch query";
  }

  @Override
  public List<TableSpec> schemas() {
    return TrailsService.schemas(TrailsSchema.DEFAULT_NAMESPACE);
  }

  @Override
  public AutoCloseable registerRoutes(SystemContext context, HttpRoutes routes) {
    TrailsRoutes.register(new TrailsService(context.connection()), routes);
    return () -> { };
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new TrailsCommand(context);
  }
}
