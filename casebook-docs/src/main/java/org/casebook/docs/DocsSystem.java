package org.casebook.docs;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.http.Route;
import org.casebook.docs.cli.DocsCommand;
import org.casebook.docs.wire.DocsRoutes;

/** The document store, plugged into the platform. */
public final class DocsSystem implements CasebookSystem {
  static final String NAME = "docs";

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        NAME,
        "Document store (seed 002): typed documents in BI/DI families, optimistic edits, comments",
        // The default namespace's: a store in another one creates its own when it starts.
        DocsService.schemas(DocsSchema.DEFAULT_NAMESPACE),
        DocsKeys.ALL,
        DocsRoutes.ROUTES.specs(),
        List.of(),
        List.of(),
        DocsSettings.ALL);
  }

  @Override
  public RunningSystem start(SystemContext context) {
    DocsService service = new DocsService(context);
    List<Route> routes = DocsRoutes.ROUTES.bind(service);
    return RunningSystem.of(routes, () -> SystemHealth.up(Map.of("types", service.types().size())));
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new DocsCommand(context);
  }
}
