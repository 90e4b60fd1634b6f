package org.casebook.archive.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.archive.ArchiveExperiment;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ImportReport;
import org.casebook.archive.Layout;
import org.casebook.archive.SplitPlan;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook archive …}. */
@Command(name = "archive", mixinStandardHelpOptions = true, description = "Weibo archive import (seed 001).")
public final class ArchiveCommand {
  private final Supplier<SystemContext> context;

  public ArchiveCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  @Command(name = "generate", mixinStandardHelpOptions = true,
      description = "Write Weibo-API-style JSON files (optionally with planted bad files and one big file).")
  int generate(@Option(names = "--out", defaultValue = "archive-input") Path out,
               @Option(names = "--files", defaultValue = "20") int files,
               @Option(names = "--users-per-file", defaultValue = "200") int usersPerFile,
               @Option(names = "--statuses", defaultValue = "20", description = "Mean statuses per user (default ${DEFAULT-VALUE}).") int statuses,
               @Option(names = "--bad-files", description = "Plant 4 bad files (truncated, invalid JSON, wrong type, invalid UTF-8).") boolean bad,
               @Option(names = "--big-file", defaultValue = "0", description = "Make one file this many times larger (0 = none).") int big,
               @Option(names = "--seed", defaultValue = "1") long seed) {
    ArchiveGenerator.Written w = ArchiveGenerator.write(new ArchiveGenerator.Spec(files, usersPerFile, statuses, bad, big, seed), out);
    System.out.println(Json.writePretty(Map.of("directory", out.toString(), "files", w.files().size(),
        "badFiles", w.badFiles().stream().map(Path::toString).toList(), "users", w.users(), "statuses", w.statuses(),
        "bytes", w.bytes())));
    return 0;
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = "Import a directory (or file) of JSON; bad files go to the quarantine. Prints a JSON report.")
  int importFiles(@Parameters(paramLabel = "DIR") Path input,
                  @Option(names = "--mode", defaultValue = "bulkload", description = "bulkload (MapReduce → HFiles → bulk load) or put (default ${DEFAULT-VALUE}).") String mode,
                  @Option(names = "--regions", description = "Pre-split regions (default: computed from the data size).") Integer regions,
                  @Option(names = "--region-size-mb", defaultValue = "10240", description = "Region size for the computation (default ${DEFAULT-VALUE}).") long regionSizeMb,
                  @Option(names = "--quarantine", description = "Where bad files go (default DIR/../quarantine).") Path quarantine,
                  @Option(names = "--attempts", defaultValue = "2", description = "Reads of a file before it is quarantined (default ${DEFAULT-VALUE}).") int attempts) {
    List<Path> files = ArchiveService.inputFiles(input);
    InvalidInputException.check(!files.isEmpty(), "input", "no files in " + input);
    long bytes = files.stream().mapToLong(ArchiveCommand::size).sum();
    SystemContext ctx = context.get();
    SplitPlan plan = SplitPlan.compute(bytes, 1.5, regionSizeMb << 20, ctx.runtime().liveRegionServers());
    int r = regions != null ? regions : plan.regions();
    InvalidInputException.check(r >= 1 && r <= 65536, "regions", "--regions must be 1..65536");
    ArchiveService archive = new ArchiveService(ctx.connection());
    Layout layout = archive.prepare(new Layout(r, true), true);
    Path q = quarantine != null ? quarantine : input.toAbsolutePath().getParent().resolve("quarantine");
    String computation = regions != null ? "--regions " + r + " given" : plan.explain();
    ImportReport report;
    if (mode.equals("bulkload")) {
      try (Progress p = Progress.start("bulk load", bytes, "bytes")) {
        report = archive.importWithBulkLoad(files, q, attempts, computation, ctx.runtime().configuration(),
            ctx.dataDir().resolve("tmp").resolve("archive-bulkload-" + System.currentTimeMillis()), p);
      }
    } else if (mode.equals("put")) {
      try (Progress p = Progress.start("import", bytes, "bytes")) {
        report = archive.importWithPuts(files, q, attempts, computation, p);
      }
    } else {
      throw new InvalidInputException("mode", "--mode must be bulkload or put");
    }
    System.out.println(Json.writePretty(report.toJson()));
    if (!layout.equals(new Layout(r, true))) {
      System.err.println("note: the archive already existed with " + layout.regions() + " regions; kept them");
    }
    return 0;
  }

  @Command(name = "experiment", mixinStandardHelpOptions = true,
      description = {"Seed 001 §3.2: import time vs users for (1) no pre-split, no key rule, (2) pre-split, no key rule, "
          + "(3) pre-split with the key rule; HFile and region splits; bulk load vs put; planted bad files.",
          "Prints a table and writes JSON and a PNG chart to --out."})
  int experiment(@Option(names = "--users", split = ",", defaultValue = "1000,2000,3000,4000",
                     description = "Sizes in users (default ${DEFAULT-VALUE}).") List<Integer> users,
                 @Option(names = "--users-per-file", defaultValue = "250") int usersPerFile,
                 @Option(names = "--statuses", defaultValue = "20", description = "Mean statuses per user (default ${DEFAULT-VALUE}).") int statuses,
                 @Option(names = "--round-users", defaultValue = "1000",
                     description = "Users per bulk-load job; larger sizes take several rounds (default ${DEFAULT-VALUE}).") int roundUsers,
                 @Option(names = "--regions", defaultValue = "0", description = "Pre-split regions (default: computed).") int regions,
                 @Option(names = "--region-size-mb", defaultValue = "0",
                     description = "Region size limit (default: largest input × 1.5 / 8).") long regionSizeMb,
                 @Option(names = "--attempts", defaultValue = "2") int attempts,
                 @Option(names = "--seed", defaultValue = "1") long seed,
                 @Option(names = "--out", defaultValue = "bench-results") Path out) throws Exception {
    SystemContext ctx = context.get();
    ArchiveExperiment.Settings settings = new ArchiveExperiment.Settings(users, usersPerFile, statuses, roundUsers, regions,
        regionSizeMb << 20, attempts, seed);
    new ArchiveExperiment(ctx.connection(), ctx.runtime().configuration(), ctx.dataDir().resolve("tmp").resolve("archive-experiment"),
        settings).run(out);
    return 0;
  }

  @Command(name = "user", mixinStandardHelpOptions = true, description = "A user's profile and newest statuses.")
  int user(@Parameters(paramLabel = "UID") String uid, @Option(names = "--limit", defaultValue = "10") int limit) {
    ArchiveService archive = new ArchiveService(context.get().connection());
    var user = archive.user(uid).orElseThrow(() -> new NotFoundException("no user " + uid + " in the archive"));
    System.out.println(Json.writePretty(Map.of("user", user, "statuses", archive.statuses(uid, 0, limit))));
    return 0;
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "One status by id.")
  int status(@Parameters(paramLabel = "ID") long id) {
    ArchiveService archive = new ArchiveService(context.get().connection());
    System.out.println(Json.writePretty(archive.status(id).orElseThrow(() -> new NotFoundException("no status " + id))));
    return 0;
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
