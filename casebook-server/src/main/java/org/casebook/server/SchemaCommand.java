package org.casebook.server;

import java.util.List;
import java.util.concurrent.Callable;
import org.casebook.core.CasebookSystem;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code casebook schema show|ensure}. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "Show or ensure every registered schema.",
    subcommands = {SchemaCommand.Show.class, SchemaCommand.Ensure.class})
final class SchemaCommand {
  private final List<CasebookSystem> systems;
  private final CliContext context;

  SchemaCommand(List<CasebookSystem> systems, CliContext context) {
    this.systems = systems;
    this.context = context;
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print the declared tables, where the settings put them (no HBase needed).")
  static final class Show implements Callable<Integer> {
    @picocli.CommandLine.ParentCommand SchemaCommand parent;

    @Override
    public Integer call() {
      for (CasebookSystem s : parent.systems) {
        org.casebook.core.SystemDescriptor d = s.descriptor();
        System.out.println(d.name() + " — " + d.summary());
        for (TableSpec t : Systems.tables(s, parent.context.settingSources())) {
          System.out.printf(
              "  %s  (%s)%n    key: %s%n",
              t.name().getNameAsString(),
              t.splits().regionCount() > 1
                  ? t.splits().regionCount() + " regions, " + t.splits().description()
                  : "1 region",
              t.keyDoc());
          for (FamilySpec f : t.families()) {
            System.out.printf(
                "    family %-4s versions=%d ttl=%s bloom=%s block=%dK compression=%s%s%s%s%n",
                f.name(),
                f.maxVersions(),
                f.ttlSeconds() == FamilySpec.FOREVER ? "forever" : f.ttlSeconds() + "s",
                f.bloom(),
                f.blockSize() / 1024,
                f.compression(),
                f.inMemory() ? " in-memory" : "",
                f.inMemoryCompaction() == null
                    ? ""
                    : " memstore-compaction=" + f.inMemoryCompaction(),
                f.dataBlockEncoding() == null ? "" : " encoding=" + f.dataBlockEncoding());
          }
        }
        for (org.casebook.core.key.KeyLayout k : d.keys()) {
          System.out.printf("  key layout %s: %s%n", k.name(), k.shape());
        }
      }
      return 0;
    }
  }

  @Command(
      name = "ensure",
      mixinStandardHelpOptions = true,
      description = "Create missing tables; fail on a table whose shape conflicts.")
  static final class Ensure implements Callable<Integer> {
    @picocli.CommandLine.ParentCommand SchemaCommand parent;

    @Option(names = "--quiet", description = "Print nothing when all is well.")
    boolean quiet;

    @Override
    public Integer call() {
      SchemaManager schemas = new SchemaManager(parent.context.runtimeOnly().connection());
      for (SchemaManager.Result r :
          schemas.ensureAll(Systems.allTables(parent.systems, parent.context.settingSources()))) {
        if (!quiet) {
          System.out.printf(
              "%-9s %-40s %d region(s)%n",
              r.outcome().name().toLowerCase(java.util.Locale.ROOT),
              r.spec().name().getNameAsString(),
              r.regions());
        }
      }
      return 0;
    }
  }
}
