package org.casebook.weibo;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.http.Route;
import org.casebook.weibo.cli.WeiboCommand;
import org.casebook.weibo.http.WeiboRoutes;

/** The social feed, plugged into the platform. */
public final class WeiboSystem implements CasebookSystem {
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
    WeiboService service = context.own(new WeiboService(context, WeiboConfig.fromEnvironment()));
    List<Route> routes = WeiboRoutes.ROUTES.bind(service);
    return new RunningSystem() {
      @Override
      public List<Route> routes() {
        return routes;
      }

      @Override
      public SystemHealth health() {
        return SystemHealth.up(Map.of("promotionsInProgress", service.promotionsInProgress()));
      }
    };
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new WeiboCommand(context);
  }
}
