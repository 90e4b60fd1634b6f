package org.casebook.banknote;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.banknote.cli.BanknoteCommand;
import org.casebook.banknote.wire.BanknoteRoutes;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.http.Route;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SystemSettings;

/** Banknote serial numbers, plugged into the platform: the collector and the lookups. */
public final class BanknoteSystem implements CasebookSystem {
  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
            "banknote",
            "Banknote serial numbers (seed 002, bank case): FSN collection without loss, lookup by"
                + " serial, device, batch, suspects, daily settlement, dispute packs",
            BanknoteSchema.in(BanknoteSchema.DEFAULT_NAMESPACE).tables(),
            BanknoteKeys.ALL,
            BanknoteRoutes.ROUTES.specs(),
            List.of(),
            BanknoteRoutes.PATHS,
            BanknoteSettings.ALL)
        // A bank's note histories and custody chains are not for anyone on the network.
        .withPrivateReads();
  }

  /** The notes, devices, suspects and batches tables in the set namespace. */
  @Override
  public List<TableSpec> tables(SystemSettings settings) {
    return BanknoteSchema.in(settings.get(BanknoteSettings.NAMESPACE))
        .tables(settings.get(BanknoteSettings.RETENTION_YEARS));
  }

  @Override
  public RunningSystem start(SystemContext context) {
    BanknoteService service = new BanknoteService(context);
    List<Route> routes = BanknoteRoutes.ROUTES.bind(service);
    return RunningSystem.of(
        routes,
        () -> {
          return SystemHealth.up(Map.of("zone", service.zone().getId()));
        });
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new BanknoteCommand(context);
  }
}
