package org.casebook.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ArchiveTables;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportReport;
import org.casebook.archive.Layout;
import org.casebook.archive.Partitioning;
import org.casebook.archive.SplitPlan;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.bench.ArchiveExperimentReport.BadFiles;
import org.casebook.bench.ArchiveExperimentReport.Comparison;
import org.casebook.bench.ArchiveExperimentReport.Outcome;
import org.casebook.bench.ArchiveExperimentReport.Results;
import org.casebook.bench.ArchiveExperimentReport.Run;
import org.casebook.bench.ArchiveExperimentReport.SettingsReport;
import org.casebook.bench.ArchiveExperimentTables.KeySplits;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seed 001 §3.2 at small scale ({@code casebook bench archive}): time to store N users' data for
 * (1) no pre-split and no key rule, (2) pre-split without the key rule, (3) pre-split with the key
 * rule. As in the seed, the data arrives in rounds (one bulk-load job per batch of files) into
 * tables with a region size limit, so case 1's single region grows and HBase splits it; a case is
 * timed from its first round until HBase has finished the splits and compactions the rounds caused.
 * Case 2's tables are pre-split at their keys' quantiles, but its job sends rows to reducers by
 * hash, as a job that does not know the regions does: every HFile spans regions and the loader
 * splits it. Case 3 partitions by region. Also measured: bulk load vs the put path on the largest
 * input, and what the quarantined files of a set with planted bad files cost.
 *
 * <p>Everything goes through the archive's public service, each case in an archive namespace of its
 * own ({@link ArchiveExperimentTables}); the results are kept in the default archive's {@code meta}
 * table too, where {@code GET /api/archive/experiments} and the console find them.
 */
public final class ArchiveExperiment {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveExperiment.class);

  /** Bulk load and put each run this many times, alternating, on the largest input. */
  static final int COMPARISON_RUNS = 2;

  /** The experiment's knobs; the defaults finish in a few minutes on two cores. */
  public record Settings(
      List<Integer> users,
      int usersPerFile,
      int statusesPerUser,
      int roundUsers,
      int regions,
      long regionBytes,
      int attempts,
      long seed) {
    public Settings {
      users = List.copyOf(users);
      if (users.isEmpty()
          || users.stream().anyMatch(u -> u < usersPerFile || u % usersPerFile != 0)) {
        throw new InvalidInputException(
            "users",
            "each size must be a positive multiple of --users-per-file (" + usersPerFile + ")");
      }
      if (roundUsers < usersPerFile || roundUsers % usersPerFile != 0) {
        throw new InvalidInputException(
            "round-users", "--round-users must be a multiple of --users-per-file");
      }
      if (regions < 0 || regions > 1024) {
        throw new InvalidInputException("regions", "--regions must be 0 (computed) .. 1024");
      }
      if (statusesPerUser < 1 || attempts < 1 || attempts > 10) {
        throw new InvalidInputException("statuses", "--statuses must be >= 1 and --attempts 1..10");
      }
    }

    int maxUsers() {
      return users.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }
  }

  /** The seed's three cases. */
  public enum Case {
    NO_PRESPLIT_NO_RULE(1, "no pre-split, no key rule"),
    PRESPLIT_NO_RULE(2, "pre-split, no key rule"),
    PRESPLIT_KEY_RULE(3, "pre-split + key rule");

    final int number;
    final String label;

    Case(int number, String label) {
      this.number = number;
      this.label = label;
    }
  }

  private final SystemContext ctx;
  private final Path scratch;
  private final Settings settings;
  private final ArchiveExperimentTables tables;

  /**
   * @param ctx a context of the benchmarks' (HBase, its configuration, a data directory)
   * @param scratch where the generated input and the batches go (emptied of them afterwards)
   */
  public ArchiveExperiment(SystemContext ctx, Path scratch, Settings settings) {
    this.ctx = Objects.requireNonNull(ctx, "ctx is null");
    this.scratch = Objects.requireNonNull(scratch, "scratch is null");
    this.settings = Objects.requireNonNull(settings, "settings is null");
    this.tables = new ArchiveExperimentTables(ctx, scratch, settings.attempts());
  }

  /**
   * Runs everything, prints the table, writes JSON and PNG into {@code outDir} (null: {@link
   * org.casebook.core.cli.ResultFiles}).
   */
  public Outcome run(Path outDir) {
    createDirectories(scratch);
    int maxUsers = settings.maxUsers();
    Path input = scratch.resolve("input");
    ArchiveExperimentTables.delete(input);
    LOG.info("generating {} users in files of {}", maxUsers, settings.usersPerFile());
    ArchiveGenerator.Written written =
        ArchiveGenerator.write(
            new ArchiveGenerator.Spec(
                maxUsers / settings.usersPerFile(),
                settings.usersPerFile(),
                settings.statusesPerUser(),
                false,
                0,
                settings.seed()),
            input);
    long maxBytes = sizeOf(written.files());
    long regionBytes =
        settings.regionBytes() > 0
            ? settings.regionBytes()
            : Math.max(
                4L << 20,
                (long)
                    Math.ceil(maxBytes * 1.5 / (settings.regions() == 0 ? 8 : settings.regions())));
    SplitPlan plan = SplitPlan.compute(maxBytes, 1.5, regionBytes, 1);
    int regions = settings.regions() > 0 ? settings.regions() : plan.regions();
    LOG.info("regions: {}; region size limit {} bytes", plan.explain(), regionBytes);

    List<Run> runs = new ArrayList<>();
    int total = settings.users().size() * Case.values().length + 2 + 2 * COMPARISON_RUNS;
    try (Progress progress = Progress.start("experiment", total, "runs")) {
      progress.detail("case 2's split points (not timed)");
      Map<Integer, KeySplits> quantiles =
          tables.quantileSplits(
              written.files(), settings.users(), settings.usersPerFile(), regions);
      progress.detail("warm-up (not timed)");
      double warmUp =
          warmUp(
              written
                  .files()
                  .subList(
                      0,
                      Math.min(
                          written.files().size(), settings.roundUsers() / settings.usersPerFile())),
              regions,
              regionBytes);
      progress.advance(1);
      for (Case kase : Case.values()) {
        for (int n : settings.users()) {
          progress.detail("case " + kase.number + ", " + n + " users");
          Run r =
              runCase(
                  kase,
                  n,
                  written.files().subList(0, n / settings.usersPerFile()),
                  caseTables(kase, regions, quantiles.get(n)),
                  regionBytes);
          LOG.info(
              "case {} ({}), {} users: {} s, {} HFiles, {} HFile splits, {} region splits",
              kase.number,
              kase.label,
              n,
              String.format(Locale.ROOT, "%.1f", r.seconds()),
              r.hfiles(),
              r.hfileSplits(),
              r.regionSplits());
          runs.add(r);
          progress.advance(1);
        }
      }
      progress.detail("bulk load vs put, " + maxUsers + " users");
      Comparison comparison = compare(input, regions, regionBytes, progress);
      progress.detail("planted bad files");
      BadFiles badFiles = badFileCost(regions, regionBytes);
      progress.advance(1);

      SettingsReport reported =
          new SettingsReport(
              settings.users(),
              settings.usersPerFile(),
              settings.statusesPerUser(),
              settings.roundUsers(),
              settings.attempts(),
              settings.seed());
      String computation =
          settings.regions() > 0 ? "--regions " + regions + " given" : plan.explain();
      Results results =
          new Results(
              reported,
              regions,
              regionBytes,
              warmUp,
              computation,
              runs,
              ArchiveExperimentReport.linearity(runs),
              comparison,
              badFiles);
      System.out.print(ArchiveExperimentReport.table(results));
      Outcome outcome = ArchiveExperimentReport.write(outDir, results);
      // Kept in the archive's meta table too: the console's archive page charts it from there.
      // The file is written first, so a failure here loses no run.
      try {
        ArchiveService.create(ctx, false)
            .recordExperiment(ctx.clock().instant(), Json.write(results));
      } catch (RuntimeException e) {
        LOG.warn(
            "the results are in {} but could not be recorded for the console: {}",
            outcome.json(),
            e.toString());
      }
      return outcome;
    } finally {
      ArchiveExperimentTables.delete(input);
    }
  }

  /** The tables of {@code kase}: its layout and where they are split. */
  private static ArchiveTables caseTables(Case kase, int regions, KeySplits quantiles) {
    return switch (kase) {
      case NO_PRESPLIT_NO_RULE -> ArchiveTables.unsplit(new Layout(1, false));
      case PRESPLIT_NO_RULE ->
          ArchiveTables.unsplit(new Layout(regions, false))
              .splitAt(quantiles.user(), quantiles.status(), quantiles.index());
      case PRESPLIT_KEY_RULE -> ArchiveTables.regionIds(new Layout(regions, true));
    };
  }

  private Run runCase(
      Case kase, int users, List<Path> files, ArchiveTables caseTables, long regionBytes) {
    String ns = "archive_exp" + kase.number + "_" + users;
    ArchiveService archive = tables.recreate(ns, caseTables, regionBytes);
    int before = tables.regionCount(ns);
    Partitioning partitioning =
        kase == Case.PRESPLIT_NO_RULE ? Partitioning.HASH : Partitioning.REGIONS;
    int perRound = settings.roundUsers() / settings.usersPerFile();
    long records = 0;
    long cells = 0;
    long hfiles = 0;
    long hfileSplits = 0;
    double job = 0;
    double load = 0;
    int rounds = 0;
    long t0 = System.nanoTime();
    for (int from = 0; from < files.size(); from += perRound) {
      // Rounds follow each other as in an import pipeline; the splits and compactions a round
      // causes run in the background, and the next load waits only if a region is offline.
      ImportReport o =
          tables.load(
              archive,
              ns,
              files.subList(from, Math.min(files.size(), from + perRound)),
              ImportMode.BULKLOAD,
              partitioning,
              caseTables.layout().regions());
      if (o.filesSkipped() > 0) {
        throw new IllegalStateException(
            "the experiment's generated input had " + o.filesSkipped() + " bad file(s)");
      }
      records += o.users() + o.statuses();
      cells += o.cells();
      hfiles += o.hfiles();
      hfileSplits += o.hfileSplits();
      job += o.phaseSeconds().get("job");
      load += o.phaseSeconds().get("load");
      rounds++;
    }
    long settleStart = System.nanoTime();
    long end = Math.max(settleStart, tables.awaitQuiet(ns));
    int after = tables.regionCount(ns);
    tables.drop(ns);
    return new Run(
        kase,
        users,
        records,
        cells,
        sizeOf(files),
        rounds,
        (end - t0) / 1e9,
        job,
        load,
        (end - settleStart) / 1e9,
        hfiles,
        hfileSplits,
        before,
        after);
  }

  /**
   * One untimed round, so that the first measured case does not also pay for loading and compiling
   * the job's code paths (the JIT); returns its seconds for the record.
   */
  private double warmUp(List<Path> files, int regions, long regionBytes) {
    String ns = "archive_exp_warmup";
    ArchiveService archive =
        tables.recreate(ns, ArchiveTables.regionIds(new Layout(regions, true)), regionBytes);
    long t0 = System.nanoTime();
    tables.load(archive, ns, files, ImportMode.BULKLOAD, Partitioning.REGIONS, regions);
    double seconds = (System.nanoTime() - t0) / 1e9;
    tables.drop(ns);
    return seconds;
  }

  /**
   * Bulk load (one job, case 3's layout) vs the put path on the largest input, each into fresh
   * tables, alternating {@link #COMPARISON_RUNS} times: a single put run varied by up to 45 %
   * between experiments (JVM and HBase background work), so the speed-up is of the means.
   */
  private Comparison compare(Path inputDir, int regions, long regionBytes, Progress progress) {
    ArchiveTables caseThree = ArchiveTables.regionIds(new Layout(regions, true));
    String ns = "archive_exp_cmp";
    List<Double> bulkRuns = new ArrayList<>();
    List<Double> putRuns = new ArrayList<>();
    double job = 0;
    double load = 0;
    double write = 0;
    double flush = 0;
    ImportReport bulk = null;
    ImportReport put = null;
    for (int run = 0; run < COMPARISON_RUNS; run++) {
      ArchiveService archive = tables.recreate(ns, caseThree, regionBytes);
      bulk =
          archive.importFiles(
              tables.request(inputDir, ns, ImportMode.BULKLOAD, regions), Progress.silent());
      bulkRuns.add(bulk.seconds());
      job += bulk.phaseSeconds().get("job");
      load += bulk.phaseSeconds().get("load");
      progress.advance(1);

      archive = tables.recreate(ns, caseThree, regionBytes);
      put =
          archive.importFiles(
              tables.request(inputDir, ns, ImportMode.PUT, regions), Progress.silent());
      putRuns.add(put.seconds());
      write += put.phaseSeconds().get("write");
      flush += put.phaseSeconds().get("memstoreFlush");
      progress.advance(1);
    }
    tables.drop(ns);

    long records = bulk.users() + bulk.statuses();
    double bulkSeconds = mean(bulkRuns);
    double putSeconds = mean(putRuns);
    return new Comparison(
        bulk.users(),
        records,
        put.users() + put.statuses(),
        bulk.cells(),
        COMPARISON_RUNS,
        bulkSeconds,
        bulkRuns,
        job / COMPARISON_RUNS,
        load / COMPARISON_RUNS,
        records / bulkSeconds,
        putSeconds,
        putRuns,
        write / COMPARISON_RUNS,
        flush / COMPARISON_RUNS,
        records / putSeconds,
        putSeconds / bulkSeconds);
  }

  /** A small set with the generator's four planted bad files, bulk-loaded in case 3's layout. */
  private BadFiles badFileCost(int regions, long regionBytes) {
    Path dir = scratch.resolve("bad-input");
    ArchiveExperimentTables.delete(dir);
    int files = Math.max(10, settings.users().get(0) / settings.usersPerFile());
    ArchiveGenerator.Written w =
        ArchiveGenerator.write(
            new ArchiveGenerator.Spec(
                files,
                settings.usersPerFile(),
                settings.statusesPerUser(),
                true,
                0,
                settings.seed() + 1),
            dir);
    String ns = "archive_exp_bad";
    ArchiveService archive =
        tables.recreate(ns, ArchiveTables.regionIds(new Layout(regions, true)), regionBytes);
    ArchiveExperimentTables.delete(tables.quarantineOf(ns));
    ImportReport o =
        archive.importFiles(
            tables.request(dir, ns, ImportMode.BULKLOAD, regions), Progress.silent());
    tables.drop(ns);
    ArchiveExperimentTables.delete(dir);
    ArchiveExperimentTables.delete(tables.quarantineOf(ns));
    return new BadFiles(
        w.files().size(),
        w.badFiles().size(),
        o.filesSkipped(),
        o.filesLoaded(),
        o.users(),
        w.users(),
        settings.attempts(),
        o.badFileReads(),
        (long) o.filesSkipped() * settings.attempts(),
        o.badFileMillis(),
        o.phaseSeconds().get("job"),
        o.bytes());
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  private static void createDirectories(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw LocalFileException.of("create", dir, e);
    }
  }

  private static long sizeOf(List<Path> files) {
    long n = 0;
    for (Path f : files) {
      try {
        n += Files.size(f);
      } catch (IOException e) {
        throw LocalFileException.of("read the size of", f, e);
      }
    }
    return n;
  }
}
