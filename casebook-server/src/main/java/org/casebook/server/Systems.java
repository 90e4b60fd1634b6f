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
    systems.sort(Comparator.comparing(CasebookSystem::name));
    for (int i = 1; i < systems.size(); i++) {
      if (systems.get(i).name().equals(systems.get(i - 1).name())) {
        throw new IllegalStateException("two systems are named " + systems.get(i).name());
      }
    }
    return List.copyOf(systems);
  }

  static List<TableSpec> allSchemas(List<CasebookSystem> systems) {
    List<TableSpec> specs = new ArrayList<>();
    for (CasebookSystem s : systems) {
      specs.addAll(s.schemas());
    }
    return specs;
  }
}
