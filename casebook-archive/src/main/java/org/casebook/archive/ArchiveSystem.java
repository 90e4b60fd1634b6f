package org.casebook.archive;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.archive.cli.ArchiveCommand;
import org.casebook.archive.wire.ArchiveRoutes;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.http.Route;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SystemSettings;

/** The Weibo archive, plugged into the platform. */
public final class ArchiveSystem implements CasebookSystem {
  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "archive",
        "Weibo archive import (seed 001): JSON files into pre-split user and status tables, bad files quarantined",
        // The default namespace's meta table; the data tables are created by the first import,
        // pre-split for its data, and another namespace's tables on first use.
        List.of(ArchiveSchema.in(ArchiveSchema.DEFAULT_NAMESPACE).metaSpec()),
        ArchiveKeys.declared(),
        ArchiveRoutes.ROUTES.specs(),
        List.of(),
        List.of(),
        ArchiveSettings.all());
  }

  /** The meta table of the set namespace (its data tables come with the first import). */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    return List.of(ArchiveSchema.in(settings.get(ArchiveSettings.NAMESPACE)).metaSpec());
  }

  @Override
  public RunningSystem start(SystemContext ctx) {
    ArchiveService archive = ArchiveService.create(ctx, true);
    List<Route> routes = ArchiveRoutes.ROUTES.bind(archive);
    return () -> routes;
  }

  @Override
  public Object command(Supplier<SystemContext> ctx) {
    return new ArchiveCommand(ctx);
  }
}
