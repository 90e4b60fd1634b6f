package org.casebook.bench;

import java.util.List;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.ResultFiles;
import org.casebook.server.Session;
import picocli.CommandLine.Command;

/** {@code casebook bench <name>}: benchmarks that print a summary table and write JSON. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks: print a summary table and write JSON under bench-results/.")
public final class BenchCommand {
  private final Session session;
  private final Supplier<SystemContext> context;

  /** The benchmarks on {@code session}: its HBase, its systems, started as {@code serve} does. */
  public BenchCommand(Session session) {
    this.session = session;
    this.context = () -> session.context("bench");
  }

  @Command(
      name = "console",
      mixinStandardHelpOptions = true,
      description = {
        "The web console: every system's generator data at its default size, the server in this"
            + " process, and each page opened in headless Chromium (page load to first data).",
        "Needs Chromium and its driver (Debian: chromium, chromium-driver). Loads into this data"
            + " directory's tables: use a fresh --data."
      })
  int console(@picocli.CommandLine.Mixin ConsoleBenchmark.Options options) throws Exception {
    java.util.Map<String, Object> json = new ConsoleBenchmark(options, session).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("console", json));
    return 0;
  }

  @Command(
      name = "compare",
      mixinStandardHelpOptions = true,
      description =
          "Two result files of one benchmark side by side: every number both have at the same"
              + " place, with B ÷ A.")
  int compare(
      @picocli.CommandLine.Parameters(
              index = "0",
              paramLabel = "A.json",
              description = "The first result file (the ratios' denominator).")
          java.nio.file.Path a,
      @picocli.CommandLine.Parameters(
              index = "1",
              paramLabel = "B.json",
              description = "The second result file, of the same benchmark.")
          java.nio.file.Path b,
      @picocli.CommandLine.Option(
              names = "--only",
              paramLabel = "REGEX",
              defaultValue = "",
              description = "Only paths that contain a match (e.g. p50|p99).")
          String only) {
    java.util.regex.Pattern pattern;
    try {
      pattern = java.util.regex.Pattern.compile(only);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new org.casebook.core.InvalidInputException(
          "only", "--only is not a regular expression: " + e.getDescription());
    }
    System.out.print(BenchCompare.table(a, b, BenchCompare.compare(a, b, pattern)));
    return 0;
  }

  @Command(
      name = "trails-growth",
      mixinStandardHelpOptions = true,
      description =
          "How each trails step's time, and each side's bytes per record, grow with the records"
              + " loaded: a table and two log-log charts (p50, p99) from bench trails result"
              + " files of different sizes.")
  int trailsGrowth(
      @picocli.CommandLine.Parameters(
              arity = "2..*",
              paramLabel = "RESULT.json",
              description = "bench trails result files, two sizes or more.")
          java.util.List<java.nio.file.Path> files) {
    java.util.List<TrailsGrowth.Run> runs = TrailsGrowth.read(files);
    java.util.List<TrailsGrowth.Row> rows = TrailsGrowth.rows(runs);
    System.out.print(TrailsGrowth.table(runs, rows));
    java.nio.file.Path json = ResultFiles.write("trails-growth", TrailsGrowth.json(runs, rows));
    System.out.println("JSON: " + json);
    for (java.nio.file.Path png : TrailsGrowth.charts(runs, rows, json)) {
      System.out.println("chart: " + png);
    }
    return 0;
  }

  @Command(
      name = "raw",
      mixinStandardHelpOptions = true,
      description =
          "The ceiling: BufferedMutator writes, single and batched Gets, a scan, on the current HBase.")
  int raw(@picocli.CommandLine.Mixin RawBenchmark.Options options) {
    RawBenchmark.Figures figures = new RawBenchmark(context.get().connection(), options).run();
    System.out.println();
    System.out.print(figures.table().render());
    System.out.println();
    System.out.println(
        "JSON: "
            + ResultFiles.write(
                "raw",
                java.util.Map.of(
                    "options", options.toJson(), "results", figures.table().toJson())));
    return 0;
  }

  @Command(
      name = "weibo",
      mixinStandardHelpOptions = true,
      description =
          "Social feed: graph import, publish latency by follower count, follow back-fill, timeline reads.")
  int weibo(@picocli.CommandLine.Mixin WeiboBenchmark.Options options) {
    java.util.Map<String, Object> json = new WeiboBenchmark(context.get(), options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("weibo", json));
    return 0;
  }

  @Command(
      name = "trails",
      mixinStandardHelpOptions = true,
      description =
          "Behaviour trails: generate, ingest, seed queries, tall vs wide history, and PostgreSQL on the same data.")
  int trails(@picocli.CommandLine.Mixin TrailsBenchmark.Options options) throws Exception {
    java.util.Map<String, Object> json = new TrailsBenchmark(context.get(), options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("trails", json));
    return 0;
  }

  @Command(
      name = "archive",
      mixinStandardHelpOptions = true,
      description = {
        "Seed 001 §3.2: import time vs users for (1) no pre-split, no key rule, (2) pre-split, no key rule, "
            + "(3) pre-split with the key rule; HFile and region splits; bulk load vs put; planted bad files.",
        "Prints a table and writes JSON and a PNG chart."
      })
  int archive(@picocli.CommandLine.Mixin ArchiveExperimentOptions options) {
    ArchiveExperiment.Settings settings = options.settings();
    // On the archive's own context, so the results land where its settings put its meta table.
    SystemContext ctx = session.context(session.system("archive"));
    new ArchiveExperiment(ctx, ctx.dataDir().resolve("tmp").resolve("archive-experiment"), settings)
        .run(options.out);
    return 0;
  }

  @Command(
      name = "docs",
      mixinStandardHelpOptions = true,
      description =
          "Document store: bulk load, single reads, a blog with 100 comments, 8 concurrent editors;"
              + " PostgreSQL JSONB and the raw ceiling in the same run.")
  int docs(@picocli.CommandLine.Mixin DocsBenchmark.Options options) throws Exception {
    java.util.Map<String, Object> json = new DocsBenchmark(session, options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("docs", json));
    return 0;
  }

  @Command(
      name = "frontier",
      mixinStandardHelpOptions = true,
      description =
          "Crawl frontier over URLFrontier gRPC: PutURLs, crawl loops, politeness, GetURLs on an"
              + " emptied frontier; the reference service side by side with --reference-jar.")
  int frontier(@picocli.CommandLine.Mixin FrontierBenchmark.Options options) throws Exception {
    java.util.Map<String, Object> json = new FrontierBenchmark(session, options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("frontier", json));
    return 0;
  }

  @Command(
      name = "tsdb",
      mixinStandardHelpOptions = true,
      description =
          "Time series: Casebook and OpenTSDB 2.4.1 on the same HBase — telnet and HTTP ingest,"
              + " queries, bytes per point after compaction.")
  int tsdb(@picocli.CommandLine.Mixin TsdbBenchmark.Options options) throws Exception {
    java.util.Map<String, Object> json = new TsdbBenchmark(session, options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("tsdb", json));
    return 0;
  }

  @Command(
      name = "banknote",
      mixinStandardHelpOptions = true,
      description =
          "Banknote serials: 1,000 devices' files through agents into the collector next to the raw"
              + " ceiling, file-to-lookup delay, serial lookups and device windows at 10M rows.")
  int banknote(@picocli.CommandLine.Mixin BanknoteOptions options) throws Exception {
    java.util.Map<String, Object> json = new BanknoteBenchmark(session, options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("banknote", json));
    return 0;
  }

  @Command(
      name = "storage",
      mixinStandardHelpOptions = true,
      description = {
        "Codecs on every table of every system, on the systems' generator data: bytes on disk per"
            + " record, write rate, Get p50/p99 and scan rate for NONE and each codec, the codec"
            + " the figures support per table, and PostgreSQL's bytes for trails' records.",
        "Runs its own embedded HBase on a scratch directory under --work (deleted at the end),"
            + " every system at its default settings: --data, --zk, --conf, --hbase, --settings"
            + " and --set are refused."
      })
  int storage(@picocli.CommandLine.Mixin StorageBenchmark.Options options) throws Exception {
    List<String> given = session.runtimeOptionsGiven();
    InvalidInputException.check(
        given.isEmpty(),
        given.isEmpty() ? "" : given.get(0).substring(2),
        "bench storage runs its own embedded HBase under --work at the systems' default"
            + " settings; it does not take "
            + String.join(", ", given));
    java.util.Map<String, Object> json = new StorageBenchmark(options, session.systems()).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("storage", json));
    return 0;
  }

  @Command(
      name = "weibo-inbox",
      mixinStandardHelpOptions = true,
      description = "Inbox layouts compared: 1000 cell versions (seed) vs wide row vs tall rows.")
  int weiboInbox(@picocli.CommandLine.Mixin InboxLayoutBenchmark.Options options) {
    java.util.Map<String, Object> json =
        new InboxLayoutBenchmark(context.get().connection(), options).run();
    System.out.println();
    System.out.println("JSON: " + ResultFiles.write("weibo-inbox", json));
    return 0;
  }
}
