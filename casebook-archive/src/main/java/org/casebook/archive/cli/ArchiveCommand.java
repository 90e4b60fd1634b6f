package org.casebook.archive.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.BadRecords;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportReport;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.Partitioning;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook archive …}. The experiment is {@code casebook bench archive}. */
@Command(
    name = "archive",
    mixinStandardHelpOptions = true,
    description = "Weibo archive import (seed 001).")
public final class ArchiveCommand {
  private final Supplier<SystemContext> context;

  public ArchiveCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  /** What {@code generate} wrote. */
  record Generated(
      String directory, int files, List<String> badFiles, long users, long statuses, long bytes) {}

  /** A user and their newest statuses. */
  record UserWithStatuses(UserRecord user, List<StatusRecord> statuses, String next) {}

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description =
          "Write Weibo-API-style JSON files (optionally with planted bad files and one big file).")
  int generate(
      @Option(
              names = "--out",
              paramLabel = "DIR",
              defaultValue = "archive-input",
              description = "Directory to write the files to (default ${DEFAULT-VALUE}).")
          Path out,
      @Option(
              names = "--files",
              paramLabel = "N",
              defaultValue = "20",
              description = "Number of files (default ${DEFAULT-VALUE}).")
          int files,
      @Option(
              names = "--users-per-file",
              paramLabel = "N",
              defaultValue = "200",
              description = "Users in each file (default ${DEFAULT-VALUE}).")
          int usersPerFile,
      @Option(
              names = "--statuses",
              paramLabel = "N",
              defaultValue = "20",
              description = "Mean statuses per user (default ${DEFAULT-VALUE}).")
          int statuses,
      @Option(
              names = "--bad-files",
              description =
                  "Plant 4 bad files (truncated, invalid JSON, wrong type, invalid UTF-8).")
          boolean bad,
      @Option(
              names = "--big-file",
              paramLabel = "TIMES",
              defaultValue = "0",
              description = "Make one file this many times larger (0 = none).")
          int big,
      @Option(
              names = "--seed",
              paramLabel = "SEED",
              defaultValue = "1",
              description = "Random seed (default ${DEFAULT-VALUE}).")
          long seed) {
    ArchiveGenerator.Spec spec =
        new ArchiveGenerator.Spec(files, usersPerFile, statuses, bad, big, seed);
    ArchiveGenerator.Written w = ArchiveGenerator.write(spec, out);
    System.out.println(
        Json.writePretty(
            new Generated(
                out.toString(),
                w.files().size(),
                w.badFiles().stream().map(Path::toString).toList(),
                w.users(),
                w.statuses(),
                w.bytes())));
    return 0;
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description =
          "Import a directory (or file) of JSON; bad files go to the quarantine. Prints a JSON report.")
  int importFiles(
      @Parameters(
              paramLabel = "DIR",
              description = "Directory (or one file) of Weibo JSON to import.")
          Path input,
      @Option(
              names = "--mode",
              paramLabel = "MODE",
              defaultValue = "bulkload",
              description =
                  "bulkload (MapReduce → HFiles → bulk load) or put (default ${DEFAULT-VALUE}).")
          String mode,
      @Option(
              names = "--regions",
              paramLabel = "N",
              description = "Pre-split regions (default: computed from the data size).")
          Integer regions,
      @Option(
              names = "--region-size-mb",
              paramLabel = "MB",
              defaultValue = "10240",
              description = "Region size for the computation (default ${DEFAULT-VALUE}).")
          long regionSizeMb,
      @Option(
              names = "--quarantine",
              paramLabel = "DIR",
              description = "Where bad files go (default DIR/../quarantine).")
          Path quarantine,
      @Option(
              names = "--attempts",
              paramLabel = "N",
              defaultValue = "2",
              description = "Reads of a file before it is quarantined (default ${DEFAULT-VALUE}).")
          int attempts,
      @Option(
              names = "--partitioning",
              paramLabel = "HOW",
              defaultValue = "regions",
              description =
                  "How the bulk load's job sends rows to reducers: regions (each HFile inside one"
                      + " region) or hash (as a job that does not know the regions: HFiles span"
                      + " regions and the loader splits them) (default ${DEFAULT-VALUE}).")
          String partitioning,
      @Option(
              names = "--bad-records",
              paramLabel = "WHAT",
              defaultValue = "quarantine-file",
              description =
                  "A file with bad records: quarantine-file (the whole file, seed 001's SK-bad) or"
                      + " salvage (load its good records, set the bad ones aside with their reason"
                      + " in QUARANTINE/NAME.rejects) (default ${DEFAULT-VALUE}).")
          String badRecords,
      @Option(
              names = "--dry-run",
              description =
                  "Read and measure only: report what would load, what would be set aside or"
                      + " quarantined, and the HFile bytes and regions the load would make; nothing"
                      + " is written to HBase and no file is moved or written.")
          boolean dryRun) {
    ImportRequest request =
        ImportRequest.local(input, ImportMode.parse(mode, "mode"))
            .withRegions(regions)
            .withRegionSizeMb(regionSizeMb)
            .withQuarantine(quarantine)
            .withAttempts(attempts)
            .withPartitioning(Partitioning.parse(partitioning, "partitioning"))
            .withBadRecords(BadRecords.parse(badRecords, "bad-records"))
            .withDryRun(dryRun);
    ArchiveService archive = ArchiveService.create(context.get(), false);
    ImportReport report;
    try (Progress p =
        Progress.start(
            request.mode() == ImportMode.PUT ? "import" : "bulk load",
            archive.inputBytes(request),
            "bytes")) {
      report = archive.importFiles(request, p);
    }
    System.out.println(Json.writePretty(report));
    return 0;
  }

  @Command(
      name = "user",
      mixinStandardHelpOptions = true,
      description = "A user's profile and newest statuses.")
  int user(
      @Parameters(paramLabel = "UID", description = "The user's numeric id.") String uid,
      @Mixin PageOptions pageOptions) {
    ArchiveService archive = ArchiveService.create(context.get(), false);
    PageRequest page = pageOptions.request(10);
    UserRecord user =
        archive
            .user(uid)
            .orElseThrow(() -> new NotFoundException("no user " + uid + " in the archive"));
    Page<StatusRecord> statuses = archive.statuses(uid, page);
    System.out.println(
        Json.writePretty(new UserWithStatuses(user, statuses.items(), statuses.nextOrNull())));
    return 0;
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "One status by id.")
  int status(@Parameters(paramLabel = "ID", description = "The status id.") long id) {
    ArchiveService archive = ArchiveService.create(context.get(), false);
    StatusRecord status =
        archive.status(id).orElseThrow(() -> new NotFoundException("no status " + id));
    System.out.println(Json.writePretty(status));
    return 0;
  }
}
