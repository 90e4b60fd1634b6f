package org.casebook.trails.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.trails.Behaviour;
import org.casebook.trails.Event;
import org.casebook.trails.HistoryLayout;
import org.casebook.trails.IngestReport;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook trails …}. */
@Command(name = "trails", mixinStandardHelpOptions = true, description = "Behaviour trails (seeds 000, 004).")
public final class TrailsCommand {
  private final Supplier<SystemContext> context;

  public TrailsCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  private TrailsService service() {
    return new TrailsService(context.get().connection());
  }

  @Command(name = "generate", mixinStandardHelpOptions = true, description = "Write a realistic behaviour log (JSON lines).")
  int generate(@Option(names = "--out", defaultValue = "trails-logs.jsonl", description = "Output file (default ${DEFAULT-VALUE}).") Path out,
               @Option(names = "--users", defaultValue = "10000") int users,
               @Option(names = "--days", defaultValue = "10") int days,
               @Option(names = "--records", defaultValue = "100000") long records,
               @Option(names = "--malformed", defaultValue = "0.01", description = "Share of broken lines (default ${DEFAULT-VALUE}).") double malformed,
               @Option(names = "--first-day", defaultValue = "2026-09-01") LocalDate firstDay,
               @Option(names = "--seed", defaultValue = "1") long seed) {
    LogGenerator.Spec spec = new LogGenerator.Spec(users, days, records, malformed, firstDay, seed);
    LogGenerator.Written w;
    try (Progress p = Progress.start("generate", records, "lines")) {
      w = LogGenerator.write(spec, out, p);
    }
    System.out.println(Json.writePretty(Map.of("file", w.file().toString(), "lines", w.lines(), "malformed", w.malformed(),
        "bytes", w.bytes())));
    return 0;
  }

  @Command(name = "ingest", mixinStandardHelpOptions = true,
      description = "Clean and store a log file; bad lines go to a rejects file. Re-running is harmless.")
  int ingest(@Parameters(paramLabel = "FILE") Path file,
             @Option(names = "--rejects", description = "Rejects file (default FILE.rejects).") Path rejects,
             @Option(names = "--history", defaultValue = "both", description = "Also write the seed-004 history tables: both, tall, wide, none (default ${DEFAULT-VALUE}).") String history,
             @Option(names = "--threads", defaultValue = "2") int threads) {
    InvalidInputException.check(Files.isRegularFile(file), "file", "no such file: " + file);
    TrailsService.History h;
    try {
      h = TrailsService.History.valueOf(history.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("history", "--history must be both, tall, wide or none");
    }
    Path rejectsFile = rejects != null ? rejects : file.resolveSibling(file.getFileName() + ".rejects");
    TrailsService s = service();
    IngestReport report;
    try (Progress p = Progress.start("ingest " + file.getFileName(), sizeOf(file), "bytes")) {
      report = s.ingest(file, new TrailsService.IngestOptions(rejectsFile, h, threads), p);
    }
    System.out.println(Json.writePretty(report.toJson()));
    return 0;
  }

  @Command(name = "query", mixinStandardHelpOptions = true, description = "Trails of users over a day range (seed 000 §3.2.1).")
  int query(@Option(names = "--user", required = true, description = "A user id (repeatable).") List<String> users,
            @Option(names = "--from", required = true) LocalDate from,
            @Option(names = "--to") LocalDate to,
            @Option(names = "--types", split = ",", description = "login, play, visit, order (default all).") List<String> types,
            @Option(names = "--fields", split = ",", description = "Only these fields.") List<String> fields) {
    TrailQuery q = new TrailQuery(users, from, to == null ? from : to, types(types),
        fields == null ? Set.of() : new LinkedHashSet<>(fields));
    List<Object> out = new ArrayList<>();
    service().trails(q).forEach((u, t) -> out.add(Map.of("uid", u, "events", json(t.events()))));
    System.out.println(Json.writePretty(out));
    return 0;
  }

  @Command(name = "latest", mixinStandardHelpOptions = true, description = "A user's latest records (seed 004).")
  int latest(@Parameters(paramLabel = "UID") String uid, @Option(names = "-n", defaultValue = "10") int n,
             @Option(names = "--layout", defaultValue = "tall", description = "tall or wide (default ${DEFAULT-VALUE}).") String layout) {
    HistoryLayout l;
    try {
      l = HistoryLayout.valueOf(layout.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("layout", "--layout must be tall or wide");
    }
    System.out.println(Json.writePretty(json(service().latest(uid, n, l))));
    return 0;
  }

  @Command(name = "active", mixinStandardHelpOptions = true,
      description = "Users who did login, play, visit and order in the range, with their trails (seed 000 task).")
  int active(@Option(names = "--users-file", required = true, description = "One user id per line.") Path usersFile,
             @Option(names = "--from", required = true) LocalDate from,
             @Option(names = "--to", required = true) LocalDate to,
             @Option(names = "--mapreduce", description = "Run as a MapReduce job (LocalJobRunner when embedded).") boolean mapreduce,
             @Option(names = "--trails", description = "Print the trails too, not only the users.") boolean printTrails) {
    List<String> users;
    try {
      users = Files.readAllLines(usersFile, StandardCharsets.UTF_8).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    } catch (IOException e) {
      throw new InvalidInputException("users-file", "cannot read " + usersFile + ": " + e.getMessage());
    }
    SystemContext ctx = context.get();
    long t0 = System.nanoTime();
    TrailsService s = new TrailsService(ctx.connection());
    Map<String, TrailsService.Trail> active = mapreduce
        ? s.activeMapReduce(users, from, to, ctx.runtime().configuration(),
            ctx.dataDir().resolve("tmp").resolve("trails-active-" + System.currentTimeMillis()))
        : s.active(users, from, to);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("users", users.size());
    out.put("active", active.size());
    out.put("seconds", (System.nanoTime() - t0) / 1e9);
    out.put("mode", mapreduce ? "mapreduce" : "direct");
    if (printTrails) {
      Map<String, Object> trails = new LinkedHashMap<>();
      active.forEach((u, t) -> trails.put(u, json(t.events())));
      out.put("trails", trails);
    } else {
      out.put("activeUsers", new ArrayList<>(active.keySet()));
    }
    System.out.println(Json.writePretty(out));
    return 0;
  }

  private static Set<Behaviour> types(List<String> labels) {
    Set<Behaviour> out = EnumSet.noneOf(Behaviour.class);
    if (labels != null) {
      for (String l : labels) {
        out.add(Behaviour.byLabel(l.trim()).orElseThrow(() -> new InvalidInputException("types", "unknown type '" + l + "'")));
      }
    }
    return out;
  }

  private static List<Object> json(List<Event> events) {
    List<Object> out = new ArrayList<>(events.size());
    events.forEach(e -> out.add(e.toJson()));
    return out;
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
