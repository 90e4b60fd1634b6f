package org.casebook.server;

import java.util.List;
import java.util.concurrent.Callable;
import org.casebook.core.CasebookSystem;
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
      description =
          "Print the declared tables, where the settings put them (no HBase needed); with --live,"
              + " also what each is on HBase: regions, bytes on disk, the largest region's share"
              + " and settings that differ from the declared ones.")
  static final class Show implements Callable<Integer> {
    @picocli.CommandLine.ParentCommand SchemaCommand parent;

    @Option(
        names = "--live",
        description = "Start or attach to HBase and show each table as it is.")
    boolean live;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
      List<SchemaView.Table> all = new java.util.ArrayList<>();
      for (CasebookSystem s : parent.systems) {
        org.casebook.core.SystemDescriptor d = s.descriptor();
        List<TableSpec> specs = Systems.tables(s, parent.context.settingSources());
        List<SchemaView.Table> tables =
            live
                ? SchemaView.live(
                    d.name(),
                    specs,
                    parent.context.runtimeOnly().connection(),
                    parent.context.runtimeOnly().configuration())
                : SchemaView.declared(d.name(), specs);
        all.addAll(tables);
        if (!json) {
          System.out.println(d.name() + " — " + d.summary());
          SchemaView.print(tables, System.out);
          for (org.casebook.core.key.KeyLayout k : d.keys()) {
            System.out.printf("  key layout %s: %s%n", k.name(), k.shape());
          }
        }
      }
      if (json) {
        System.out.println(org.casebook.core.Json.writePretty(java.util.Map.of("tables", all)));
      }
      return 0;
    }
  }

  @Command(
      name = "ensure",
      mixinStandardHelpOptions = true,
      description =
          "Create missing tables and bring existing ones to their declared compression, bloom"
              + " filters and block encoding (online); fail on a table whose shape conflicts.")
  static final class Ensure implements Callable<Integer> {
    @picocli.CommandLine.ParentCommand SchemaCommand parent;

    @Option(names = "--quiet", description = "Print nothing when all is well.")
    boolean quiet;

    @Option(
        names = "--major-compact",
        description =
            "Also start a major compaction of every table whose files keep an older compression,"
                + " encoding or bloom filter: it rewrites them in the background, reading and"
                + " writing the whole table once.")
    boolean majorCompact;

    @Override
    public Integer call() {
      SchemaManager schemas = new SchemaManager(parent.context.runtimeOnly().connection());
      List<SchemaManager.Result> results =
          schemas.ensureAll(Systems.allTables(parent.systems, parent.context.settingSources()));
      for (SchemaManager.Result r : results) {
        if (!quiet || !r.changes().isEmpty()) {
          System.out.printf(
              "%-14s %-40s %d region(s)%n",
              r.outcome().name().toLowerCase(java.util.Locale.ROOT),
              r.spec().name().getNameAsString(),
              r.regions());
          r.changes().forEach(c -> System.out.println("               " + c));
        }
      }
      List<SchemaManager.Result> stale = results.stream().filter(r -> r.rewrites()).toList();
      for (SchemaManager.Result r : stale) {
        if (majorCompact) {
          schemas.majorCompact(r.spec().name());
          System.out.println(
              "major compaction started for "
                  + r.spec().name().getNameAsString()
                  + ": its files are rewritten in the background");
        } else {
          System.out.println(
              r.spec().name().getNameAsString()
                  + ": files written before the change keep their old form until a major"
                  + " compaction (HBase runs one on its own schedule; `schema ensure"
                  + " --major-compact` starts one now)");
        }
      }
      return 0;
    }
  }
}
