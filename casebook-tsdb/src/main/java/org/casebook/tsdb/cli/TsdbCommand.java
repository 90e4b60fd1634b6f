package org.casebook.tsdb.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.tsdb.ImportReport;
import org.casebook.tsdb.ReindexReport;
import org.casebook.tsdb.TsdbService;
import org.casebook.tsdb.UidAssignment;
import org.casebook.tsdb.gen.TsdbGenerator;
import org.casebook.tsdb.wire.QueryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook tsdb …}. */
@Command(
    name = "tsdb",
    mixinStandardHelpOptions = true,
    description = "Time series with the OpenTSDB protocols (seed 002).",
    subcommands = TsdbCommand.Uid.class)
public final class TsdbCommand {
  private final Supplier<SystemContext> context;

  /** What {@code generate} wrote. */
  record Generated(String file, long lines, List<String> metrics, int hosts) {}

  public TsdbCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  TsdbService service() {
    return new TsdbService(context.get());
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description =
          "Import a file in OpenTSDB's import format (metric timestamp value tagk=tagv …), "
              + "gzip if it ends in .gz.")
  int importFile(@Parameters(paramLabel = "FILE", description = "The file to import.") Path file) {
    long size;
    try {
      size = Files.size(file);
    } catch (java.io.IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    ImportReport report;
    try (TsdbService service = service();
        Progress p = Progress.start("import", size, "bytes")) {
      report = service.importFile(file, p::advance);
    }
    System.out.println(Json.writePretty(report));
    return report.refused() > 0 ? 2 : 0;
  }

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = "Write collector-like traffic in the import format.")
  int generate(
      @Option(
              names = "--out",
              paramLabel = "FILE",
              defaultValue = "tsdb-points.txt.gz",
              description = "Output file, gzip if it ends in .gz (default ${DEFAULT-VALUE}).")
          Path out,
      @Option(
              names = "--hosts",
              paramLabel = "N",
              defaultValue = "10",
              description = "Hosts reporting (default ${DEFAULT-VALUE}).")
          int hosts,
      @Option(
              names = "--metrics",
              paramLabel = "M",
              defaultValue = "8",
              description = "Metrics per host, counters and gauges (default ${DEFAULT-VALUE}).")
          int metrics,
      @Option(
              names = "--interval",
              paramLabel = "SECONDS",
              defaultValue = "10",
              description = "Seconds between a host's reports (default ${DEFAULT-VALUE}).")
          int interval,
      @Option(
              names = "--hours",
              paramLabel = "H",
              defaultValue = "24",
              description = "Hours of traffic, ending now (default ${DEFAULT-VALUE}).")
          int hours,
      @Option(
              names = "--late",
              paramLabel = "SHARE",
              defaultValue = "0",
              description = "Share of points sent out of order, 0..1 (default ${DEFAULT-VALUE}).")
          double late,
      @Option(
              names = "--duplicates",
              paramLabel = "SHARE",
              defaultValue = "0",
              description = "Share of points sent twice, 0..1 (default ${DEFAULT-VALUE}).")
          double duplicates,
      @Option(
              names = "--seed",
              paramLabel = "SEED",
              defaultValue = "1",
              description = "Random seed (default ${DEFAULT-VALUE}).")
          long seed) {
    if (hours < 1) {
      throw new InvalidInputException("hours", "--hours must be at least 1");
    }
    long now = System.currentTimeMillis() / 1000;
    int intervals = (int) Math.min(Integer.MAX_VALUE, hours * 3600L / interval);
    long start = now - (long) intervals * interval;
    TsdbGenerator.Spec spec =
        new TsdbGenerator.Spec(hosts, metrics, interval, start, intervals, late, duplicates, seed);
    long lines;
    try (Progress p = Progress.start("generate", spec.points(), "points")) {
      lines = TsdbGenerator.write(spec, out, p::advance);
    }
    System.out.println(
        Json.writePretty(
            new Generated(out.toString(), lines, TsdbGenerator.metricNames(metrics), hosts)));
    return 0;
  }

  @Command(
      name = "query",
      mixinStandardHelpOptions = true,
      description = "Run an OpenTSDB m= query and print the answer as a table.")
  int query(
      @Parameters(
              paramLabel = "M",
              description =
                  "agg:[interval-agg[-fill]:][rate:]metric{tags}, e.g. 'sum:1m-avg:sys.cpu.user{host=*}'.")
          String m,
      @Option(
              names = "--start",
              paramLabel = "TIME",
              defaultValue = "1h-ago",
              description =
                  "Start: 1h-ago, epoch seconds or ms, yyyy/MM/dd-HH:mm:ss (default ${DEFAULT-VALUE}).")
          String start,
      @Option(names = "--end", paramLabel = "TIME", description = "End, as --start (default now).")
          String end,
      @Option(names = "--json", description = "Print OpenTSDB's JSON answer instead of a table.")
          boolean json) {
    Map<String, List<String>> params = new java.util.LinkedHashMap<>();
    params.put("start", List.of(start));
    if (end != null) {
      params.put("end", List.of(end));
    }
    params.put("m", List.of(m));
    byte[] answer;
    try (TsdbService service = service()) {
      QueryJson q = QueryJson.fromParams(params, service.nowMs());
      answer = q.render(service.query(q.query()));
    }
    if (json) {
      System.out.println(new String(answer, java.nio.charset.StandardCharsets.UTF_8));
      return 0;
    }
    System.out.printf("%-40s %-20s %s%n", "series", "time (UTC)", "value");
    for (QueryJson.TableLine line : QueryJson.tableLines(answer)) {
      String time =
          java.time.Instant.ofEpochSecond(line.epochSecond())
              .toString()
              .replace("T", " ")
              .replace("Z", "");
      System.out.printf("%-40s %-20s %s%n", line.series(), time, line.value());
    }
    return 0;
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description =
          "Delete the points an m= query selects from --start to --end (both included), as"
              + " OpenTSDB's delete=true; whatever the allow-delete setting.")
  int delete(
      @Parameters(
              paramLabel = "M",
              description =
                  "agg:metric{tags}{filters}: the series to delete from, e.g."
                      + " 'sum:sys.cpu.user{host=web01}' (the aggregator is not used).")
          String m,
      @Option(
              names = "--start",
              paramLabel = "TIME",
              required = true,
              description = "First time deleted: 2h-ago, epoch seconds or ms, yyyy/MM/dd-HH:mm:ss.")
          String start,
      @Option(
              names = "--end",
              paramLabel = "TIME",
              description = "Last time deleted, as --start (default now).")
          String end) {
    Map<String, List<String>> params = new java.util.LinkedHashMap<>();
    params.put("start", List.of(start));
    if (end != null) {
      params.put("end", List.of(end));
    }
    params.put("m", List.of(m));
    long points;
    try (TsdbService service = service()) {
      QueryJson q = QueryJson.fromParams(params, service.nowMs());
      points = service.delete(q.query()).points();
    }
    System.out.println(Json.writePretty(Map.of("deletedPoints", points)));
    return 0;
  }

  @Command(
      name = "purge",
      mixinStandardHelpOptions = true,
      description =
          "Apply the retention setting now: delete every metric's hours older than its rule"
              + " keeps (serve does this hourly).")
  int purge() {
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    try (TsdbService service = service()) {
      out.put("retention", service.config().retention().toString());
      out.put("purgedRows", service.purgeExpired());
    }
    System.out.println(Json.writePretty(out));
    return 0;
  }

  @Command(
      name = "reindex",
      mixinStandardHelpOptions = true,
      description =
          "Build the series index from the data rows (each read once, keys only), for points"
              + " written before the index existed; until then lookups of those metrics read"
              + " their data rows. Safe to rerun and to run while serving.")
  int reindex() {
    ReindexReport report;
    try (TsdbService service = service();
        Progress p = Progress.start("reindex", 0, "metrics")) {
      report = service.reindex(p::advance);
    }
    System.out.println(Json.writePretty(report));
    return 0;
  }

  @Command(
      name = "compact",
      mixinStandardHelpOptions = true,
      description =
          "Merge every finished hour's point columns into one cell and roll up every finished"
              + " hour now.")
  int compact() {
    try (TsdbService service = service()) {
      int rows = service.compactAll();
      System.out.println(Json.writePretty(Map.of("compactedRows", rows)));
    }
    return 0;
  }

  /** {@code casebook tsdb uid …}. */
  @Command(
      name = "uid",
      mixinStandardHelpOptions = true,
      description = "Names and their ids (metrics, tagk, tagv).")
  static final class Uid {
    @picocli.CommandLine.ParentCommand TsdbCommand parent;

    @Command(
        name = "grep",
        mixinStandardHelpOptions = true,
        description = "Names of a kind matching a regular expression, with their ids.")
    int grep(
        @Parameters(index = "0", paramLabel = "KIND", description = "metrics, tagk or tagv.")
            String kind,
        @Parameters(index = "1", paramLabel = "REGEX", description = "Regular expression.")
            String regex,
        @Option(
                names = "--max",
                paramLabel = "N",
                defaultValue = "1000",
                description = "At most this many (default ${DEFAULT-VALUE}).")
            int max) {
      try (TsdbService service = parent.service()) {
        System.out.println(Json.writePretty(service.grep(kind, regex, max)));
      }
      return 0;
    }

    @Command(
        name = "assign",
        mixinStandardHelpOptions = true,
        description = "Give new names ids (a name that has one is reported).")
    int assign(
        @Parameters(index = "0", paramLabel = "KIND", description = "metrics, tagk or tagv.")
            String kind,
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "NAME", description = "Names.")
            List<String> names) {
      try (TsdbService service = parent.service()) {
        UidAssignment a = service.assign(kind, names);
        System.out.println(Json.writePretty(a));
        return a.errors().isEmpty() ? 0 : 4;
      }
    }

    @Command(
        name = "rename",
        mixinStandardHelpOptions = true,
        description = "Rename a name; its id and data stay.")
    int rename(
        @Parameters(index = "0", paramLabel = "KIND", description = "metrics, tagk or tagv.")
            String kind,
        @Parameters(index = "1", paramLabel = "OLD", description = "Current name.") String from,
        @Parameters(index = "2", paramLabel = "NEW", description = "New name.") String to) {
      try (TsdbService service = parent.service()) {
        service.rename(kind, from, to);
        System.out.println(Json.writePretty(Map.of("renamed", from, "to", to)));
      }
      return 0;
    }
  }
}
