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
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SystemSettings;
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
        // Under the default settings; tables(settings) gives another namespace's.
        DocsService.schemas(DocsSchema.DEFAULT_NAMESPACE),
        DocsKeys.ALL,
        DocsRoutes.ROUTES.specs(),
        List.of(),
        List.of(),
        DocsSettings.ALL);
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
    return RunningSystem.of(routes, () -> SystemHealth.up(Map.of("types", service.types().size())));
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new DocsCommand(context);
  }
}
