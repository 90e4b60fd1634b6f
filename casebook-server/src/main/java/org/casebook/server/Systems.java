package org.casebook.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import org.casebook.core.CasebookSystem;
import org.casebook.core.schema.TableSpec;

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

  static List<TableSpec> allTables(List<CasebookSystem> systems) {
    List<TableSpec> specs = new ArrayList<>();
    for (CasebookSystem s : systems) {
      specs.addAll(s.descriptor().tables());
    }
    return specs;
  }
}
