package org.casebook.weibo;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpRoutes;
import org.casebook.core.schema.TableSpec;
import org.casebook.weibo.cli.WeiboCommand;
import org.casebook.weibo.http.WeiboRoutes;

/** The social feed, plugged into the server. */
public final class WeiboSystem implements CasebookSystem {
  @Override
  public String name() {
    return "weibo";
  }

  @Override
  public String summary() {
    return "Social feed (seed 003): publish, follow, timelines with hybrid fan-out";
  }

  @Override
  public List<TableSpec> schemas() {
    return WeiboService.schemas(WeiboSchema.DEFAULT_NAMESPACE);
  }

  @Override
  public AutoCloseable registerRoutes(SystemContext context, HttpRoutes routes) {
    WeiboService service = new WeiboService(context.connection(), WeiboConfig.fromEnvironment());
    WeiboRoutes.register(service, routes);
    return service;
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new WeiboCommand(() -> new WeiboService(context.get().connection(), WeiboConfig.fromEnvironment()));
  }
}
