package org.casebook.trails.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.Page;
import org.casebook.trails.Event;
import org.casebook.trails.HistoryLayout;
import org.casebook.trails.HistoryTables;
import org.casebook.trails.IngestOptions;
import org.casebook.trails.IngestReport;
import org.casebook.trails.Trail;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;
import org.casebook.trails.wire.EventView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook trails …}. */
@Command(
    name = "trails",
    mixinStandardHelpOptions = true,
    description = "Behaviour trails (seeds 000, 004).",
    subcommands = {BehaviourCommand.class})
public final class TrailsCommand {
  private final Supplier<SystemContext> context;

  /** What {@code generate} wrote. */
  record Generated(String file, long lines, long malformed, long bytes) {}

  /** One user's trail as printed by {@code query}. */
  record TrailOut(String uid, List<EventView> events) {}

  /**
   * One page of {@code latest}; {@code next} is the value for {@code --cursor}, or null on the last
   * page.
   */
  record LatestOut(String uid, List<EventView> events, String next) {}

  /** What {@code active} found: the active users, or (with {@code --trails}) their trails. */
  record ActiveOut(
      int users,
      int active,
      double seconds,
      String mode,
      List<String> activeUsers,
      List<TrailOut> trails) {}

  /** What {@code match} found: the users whose events satisfy the query, and how many. */
  record MatchOut(
      String query,
      String from,
      String to,
      String mode,
      Integer users,
      int count,
      double seconds,
      List<String> matched) {}

  public TrailsCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  TrailsService service() {
    return new TrailsService(context.get());
  }

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = "Write a realistic behaviour log (JSON lines).")
  int generate(
      @Option(
              names = "--out",
              paramLabel = "FILE",
              defaultValue = "trails-logs.jsonl",
              description = "Output file (default ${DEFAULT-VALUE}).")
          Path out,
      @Option(
              names = "--users",
              paramLabel = "N",
              defaultValue = "10000",
              description = "Distinct users (default ${DEFAULT-VALUE}).")
          int users,
      @Option(
              names = "--days",
              paramLabel = "D",
              defaultValue = "10",
              description = "Days of logs from --first-day (default ${DEFAULT-VALUE}).")
          int days,
      @Option(
              names = "--records",
              paramLabel = "N",
              defaultValue = "100000",
              description = "Lines to write, broken ones included (default ${DEFAULT-VALUE}).")
          long records,
      @Option(
              names = "--malformed",
              paramLabel = "SHARE",
              defaultValue = "0.01",
              description = "Share of broken lines, 0..1 (default ${DEFAULT-VALUE}).")
          double malformed,
      @Option(
              names = "--first-day",
              paramLabel = "YYYY-MM-DD",
              defaultValue = "2026-09-01",
              description = "First UTC day of the logs (default ${DEFAULT-VALUE}).")
          LocalDate firstDay,
      @Option(
              names = "--seed",
              paramLabel = "SEED",
              defaultValue = "1",
              description =
                  "Random seed; the same seed writes the same file (default ${DEFAULT-VALUE}).")
          long seed) {
    LogGenerator.Spec spec = new LogGenerator.Spec(users, days, records, malformed, firstDay, seed);
    LogGenerator.Written w;
    try (Progress p = Progress.start("generate", records, "lines")) {
      w = LogGenerator.write(spec, out, p);
    }
    System.out.println(
        Json.writePretty(new Generated(w.file().toString(), w.lines(), w.malformed(), w.bytes())));
    return 0;
  }

  @Command(
      name = "ingest",
      mixinStandardHelpOptions = true,
      description =
          "Clean and store a log file; bad lines go to a rejects file. Re-running is harmless.")
  int ingest(
      @Parameters(paramLabel = "FILE", description = "The log file (JSON lines).") Path file,
      @Option(
              names = "--rejects",
              paramLabel = "PATH",
              description = "Rejects file (default FILE.rejects).")
          Path rejects,
      @Option(
              names = "--history",
              paramLabel = "TABLES",
              defaultValue = "both",
              description =
                  "Also write the seed-004 history tables: both, tall, wide, none "
                      + "(default ${DEFAULT-VALUE}).")
          String history,
      @Option(
              names = "--threads",
              paramLabel = "N",
              defaultValue = "2",
              description = "Parser/writer threads, 1..64 (default ${DEFAULT-VALUE}).")
          int threads,
      @Option(
              names = "--bulk",
              description =
                  "Bulk load: a MapReduce job writes HFiles that HBase adopts (LocalJobRunner"
                      + " when embedded, YARN on a cluster); the same cells and rejects, faster"
                      + " for large logs.")
          boolean bulk) {
    InvalidInputException.check(Files.isRegularFile(file), "file", "no such file: " + file);
    HistoryTables h = Enums.parse(HistoryTables.class, history, "history");
    Path rejectsFile =
        rejects != null ? rejects : file.resolveSibling(file.getFileName() + ".rejects");
    TrailsService s = service();
    IngestOptions options = new IngestOptions(rejectsFile, h, threads);
    IngestReport report;
    try (Progress p = Progress.start("ingest " + file.getFileName(), sizeOf(file), "bytes")) {
      if (bulk) {
        SystemContext ctx = context.get();
        report =
            s.ingestBulk(
                file,
                options,
                ctx.dataDir().resolve("tmp").resolve("trails-bulk-" + ctx.clock().millis()),
                p);
      } else {
        report = s.ingest(file, options, p);
      }
    }
    System.out.println(Json.writePretty(report.toJson()));
    return 0;
  }

  @Command(
      name = "query",
      mixinStandardHelpOptions = true,
      description = "Trails of users over a day range (seed 000 §3.2.1).")
  int query(
      @Option(
              names = "--user",
              paramLabel = "UID",
              required = true,
              description = "A user id (repeatable).")
          List<String> users,
      @Option(
              names = "--from",
              paramLabel = "YYYY-MM-DD",
              required = true,
              description = "First UTC day, included.")
          LocalDate from,
      @Option(
              names = "--to",
              paramLabel = "YYYY-MM-DD",
              description = "Last UTC day, included (default --from).")
          LocalDate to,
      @Option(
              names = "--types",
              paramLabel = "TYPE",
              split = ",",
              description = "login, play, visit, order or declared ones (default all).")
          List<String> types,
      @Option(
              names = "--fields",
              paramLabel = "FIELD",
              split = ",",
              description = "Only these fields (default all).")
          List<String> fields) {
    TrailQuery q =
        new TrailQuery(
            users,
            from,
            to == null ? from : to,
            types == null ? Set.of() : service().parseBehaviours(types, "types"),
            fields == null ? Set.of() : new LinkedHashSet<>(fields));
    List<TrailOut> out = new ArrayList<>();
    service().trails(q).forEach((u, t) -> out.add(new TrailOut(u, EventView.of(t.events()))));
    System.out.println(Json.writePretty(out));
    return 0;
  }

  @Command(
      name = "latest",
      mixinStandardHelpOptions = true,
      description = "A user's latest records, newest first, a page at a time (seed 004).")
  int latest(
      @Parameters(paramLabel = "UID", description = "The user id.") String uid,
      @Mixin PageOptions pageOptions,
      @Option(
              names = "--layout",
              paramLabel = "LAYOUT",
              defaultValue = "wide",
              description = "wide or tall (default ${DEFAULT-VALUE}, the faster).")
          String layout) {
    HistoryLayout l = Enums.parse(HistoryLayout.class, layout, "layout");
    Page<Event> page = service().latest(uid, pageOptions.request(10), l);
    System.out.println(
        Json.writePretty(new LatestOut(uid, EventView.of(page.items()), page.nextOrNull())));
    return 0;
  }

  @Command(
      name = "delete-user",
      mixinStandardHelpOptions = true,
      description = "Delete every record of a user from every trails table; safe to rerun.")
  int deleteUser(@Parameters(paramLabel = "UID", description = "The user id.") String uid) {
    System.out.println(Json.writePretty(service().deleteUser(uid)));
    return 0;
  }

  @Command(
      name = "active",
      mixinStandardHelpOptions = true,
      description =
          "Users who did login, play, visit and order in the range, with their trails (seed 000 task).")
  int active(
      @Option(
              names = "--users-file",
              paramLabel = "FILE",
              required = true,
              description = "One user id per line.")
          Path usersFile,
      @Option(
              names = "--from",
              paramLabel = "YYYY-MM-DD",
              required = true,
              description = "First UTC day, included.")
          LocalDate from,
      @Option(
              names = "--to",
              paramLabel = "YYYY-MM-DD",
              required = true,
              description = "Last UTC day, included.")
          LocalDate to,
      @Option(
              names = "--mapreduce",
              description = "Run as a MapReduce job (LocalJobRunner when embedded).")
          boolean mapreduce,
      @Option(names = "--trails", description = "Print the trails too, not only the users.")
          boolean printTrails) {
    List<String> users = readUsers(usersFile);
    SystemContext ctx = context.get();
    long t0 = System.nanoTime();
    TrailsService s = new TrailsService(ctx);
    Map<String, Trail> active =
        mapreduce
            ? s.activeMapReduce(
                users,
                from,
                to,
                ctx.dataDir().resolve("tmp").resolve("trails-active-" + ctx.clock().millis()),
                where -> System.err.println("trails active: " + where))
            : s.active(users, from, to);
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<TrailOut> trails =
        printTrails
            ? active.values().stream()
                .map(t -> new TrailOut(t.uid(), EventView.of(t.events())))
                .toList()
            : null;
    System.out.println(
        Json.writePretty(
            new ActiveOut(
                users.size(),
                active.size(),
                seconds,
                mapreduce ? "mapreduce" : "direct",
                printTrails ? null : List.copyOf(active.keySet()),
                trails)));
    return 0;
  }

  @Command(
      name = "match",
      mixinStandardHelpOptions = true,
      description =
          "Users whose events in the range satisfy a condition across behaviours and on values,"
              + " e.g. \"login THEN play WITHIN 2h\" (grammar: the module README).")
  int match(
      @Option(
              names = "--query",
              paramLabel = "CONDITION",
              required = true,
              description =
                  "The condition, e.g. \"play AND order WITHIN 1d WHERE order.price > 10\".")
          String query,
      @Option(
              names = "--from",
              paramLabel = "YYYY-MM-DD",
              required = true,
              description = "First UTC day, included.")
          LocalDate from,
      @Option(
              names = "--to",
              paramLabel = "YYYY-MM-DD",
              required = true,
              description = "Last UTC day, included.")
          LocalDate to,
      @Option(
              names = "--users",
              paramLabel = "FILE",
              description = "Test these users (one id per line), read directly.")
          Path usersFile,
      @Option(
              names = "--all",
              description =
                  "Test every user with an event stored, as a MapReduce job (LocalJobRunner when"
                      + " embedded).")
          boolean all) {
    InvalidInputException.check(
        (usersFile != null) != all, "users", "give either --users FILE or --all");
    SystemContext ctx = context.get();
    TrailsService s = new TrailsService(ctx);
    long t0 = System.nanoTime();
    List<String> users = null;
    List<String> matched;
    if (all) {
      matched =
          s.matchMapReduce(
              query,
              from,
              to,
              ctx.dataDir().resolve("tmp").resolve("trails-match-" + ctx.clock().millis()),
              where -> System.err.println("trails match: " + where));
    } else {
      users = readUsers(usersFile);
      matched = s.match(query, users, from, to);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.println(
        Json.writePretty(
            new MatchOut(
                query,
                from.toString(),
                to.toString(),
                all ? "mapreduce" : "direct",
                users == null ? null : new LinkedHashSet<>(users).size(),
                matched.size(),
                seconds,
                matched)));
    return 0;
  }

  private static List<String> readUsers(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
          .map(String::strip)
          .filter(u -> !u.isEmpty())
          .toList();
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }
}
