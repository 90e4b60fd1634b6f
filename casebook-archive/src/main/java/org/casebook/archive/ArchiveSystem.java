package org.casebook.archive;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.archive.cli.ArchiveCommand;
import org.casebook.archive.http.ArchiveRoutes;
import org.casebook.core.CasebookSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpRoutes;
import org.casebook.core.schema.TableSpec;

/** The Weibo archive, plugged into the server. */
public final class ArchiveSystem implements CasebookSystem {
  @Override
  public String name() {
    return "archive";
  }

  @Override
  public String summary() {
    return "Weibo archive import (seed 001): JSON files into pre-split user and status tables, bad files quarantined";
  }

  @Override
  public List<TableSpec> schemas() {
    return ArchiveService.schemas(ArchiveSchema.DEFAULT_NAMESPACE);
  }

  @Override
  public AutoCloseable registerRoutes(SystemContext context, HttpRoutes routes) {
    ArchiveRoutes.register(new ArchiveService(context.connection()), routes);
    return () -> { };
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new ArchiveCommand(context);
  }
}
