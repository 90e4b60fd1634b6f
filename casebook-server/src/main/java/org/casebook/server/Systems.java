package org.casebook.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import org.casebook.core.CasebookSystem;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SettingSources;

/** The systems on the classpath, found through {@link ServiceLoader}, in name order. */
final class Systems {
  private Systems() {}

  static List<CasebookSystem> load() {
    List<CasebookSystem> systems = new ArrayList<>();
    for (CasebookSystem s : ServiceLoader.load(CasebookSystem.class)) {
      systems.add(s);
    }
    systems.sort(Comparator.comparing(s -> s.descriptor().name()));
    for (int i = 1; i < systems.size(); i++) {
      if (systems.get(i).descriptor().name().equals(systems.get(i - 1).descriptor().name())) {
        throw new IllegalStateException(
            "two systems are named " + systems.get(i).descriptor().name());
      }
    }
    return List.copyOf(systems);
  }

  /** Every system's tables under the default settings. */
  static List<TableSpec> allTables(List<CasebookSystem> systems) {
    return allTables(systems, SettingSources.none());
  }

  /** Every system's tables under the settings {@code sources} give it. */
  static List<TableSpec> allTables(List<CasebookSystem> systems, SettingSources sources) {
    List<TableSpec> specs = new ArrayList<>();
    for (CasebookSystem s : systems) {
      specs.addAll(tables(s, sources));
    }
    return specs;
  }

  /** {@code system}'s tables under the settings {@code sources} give it. */
  static List<TableSpec> tables(CasebookSystem system, SettingSources sources) {
    SystemDescriptor d = system.descriptor();
    return system.tables(sources.resolve(d.name(), d.settings()));
  }
}
