package org.casebook.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.casebook.archive.ArchiveBulkLoad;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ExperimentHooks;
import org.casebook.archive.ExperimentHooks.TableSplits;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportReport;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.Layout;
import org.casebook.archive.SplitPlan;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.LocalFiles;
import org.casebook.core.StorageException;
import org.casebook.core.cli.Progress;
import org.casebook.core.cli.ResultFiles;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

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
 */
public final class ArchiveExperiment {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveExperiment.class);

  /**
   * Table setting honoured per region: compact a store after a bulk load when it has enough files.
   */
  private static final String COMPACT_AFTER_BULKLOAD = "hbase.compaction.after.bulkload.enable";

  /** Bulk load and put each run this many times, alternating, on the largest input. */
  static final int COMPARISON_RUNS = 2;

  /** The command-line options of {@code bench archive}. */
  public static final class Options {
    @Option(
        names = "--users",
        paramLabel = "N,N,…",
        split = ",",
        defaultValue = "1000,2000,3000,4000",
        description = "Sizes in users (default ${DEFAULT-VALUE}).")
    public List<Integer> users;

    @Option(
        names = "--users-per-file",
        paramLabel = "N",
        defaultValue = "250",
        description = "Users in each generated file (default ${DEFAULT-VALUE}).")
    public int usersPerFile;

    @Option(
        names = "--statuses",
        paramLabel = "N",
        defaultValue = "20",
        description = "Mean statuses per user (default ${DEFAULT-VALUE}).")
    public int statuses;

    @Option(
        names = "--round-users",
        paramLabel = "N",
        defaultValue = "1000",
        description =
            "Users per bulk-load job; larger sizes take several rounds (default ${DEFAULT-VALUE}).")
    public int roundUsers;

    @Option(
        names = "--regions",
        paramLabel = "N",
        defaultValue = "0",
        description = "Pre-split regions (default 0: computed).")
    public int regions;

    @Option(
        names = "--region-size-mb",
        paramLabel = "MB",
        defaultValue = "0",
        description = "Region size limit (default 0: largest input × 1.5 / 8).")
    public long regionSizeMb;

    @Option(
        names = "--attempts",
        paramLabel = "N",
        defaultValue = "2",
        description = "Reads of a file before it is quarantined (default ${DEFAULT-VALUE}).")
    public int attempts;

    @Option(
        names = "--seed",
        paramLabel = "SEED",
        defaultValue = "1",
        description = "Random seed of the generated input (default ${DEFAULT-VALUE}).")
    public long seed;

    @Option(
        names = "--out",
        paramLabel = "DIR",
        description =
            "Directory for the JSON and the PNG (default bench-results, or -Dcasebook.bench.dir).")
    public Path out;

    Settings settings() {
      return new Settings(
          users, usersPerFile, statuses, roundUsers, regions, regionSizeMb << 20, attempts, seed);
    }
  }

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

  /** One import of N users in one case. */
  @JsonPropertyOrder({
    "case",
    "caseName",
    "users",
    "records",
    "cells",
    "inputBytes",
    "rounds",
    "seconds",
    "jobSeconds",
    "loadSeconds",
    "settleSeconds",
    "recordsPerSecond",
    "hfiles",
    "hfileSplits",
    "regionSplits",
    "regionsBefore",
    "regionsAfter"
  })
  public record Run(
      @JsonIgnore Case kase,
      int users,
      long records,
      long cells,
      @JsonProperty("inputBytes") long bytes,
      int rounds,
      double seconds,
      double jobSeconds,
      double loadSeconds,
      double settleSeconds,
      long hfiles,
      long hfileSplits,
      int regionsBefore,
      int regionsAfter) {
    @JsonProperty("case")
    public int caseNumber() {
      return kase.number;
    }

    @JsonProperty("caseName")
    public String caseName() {
      return kase.label;
    }

    @JsonProperty("recordsPerSecond")
    public double recordsPerSecond() {
      return records / seconds;
    }

    @JsonProperty("regionSplits")
    public int regionSplits() {
      return regionsAfter - regionsBefore;
    }
  }

  /** The settings as reported. */
  public record SettingsReport(
      List<Integer> users,
      int usersPerFile,
      int meanStatusesPerUser,
      int roundUsers,
      int attempts,
      long seed) {}

  /**
   * Case 3's seconds per user at each size and the largest departure from their mean, for the whole
   * time (until HBase is quiet) and for the import alone (jobs and loads, without the compactions
   * HBase runs afterwards).
   */
  public record Linearity(
      List<Double> msPerUser,
      double meanMsPerUser,
      double maxDeviation,
      boolean withinTwentyPercent,
      List<Double> importMsPerUser,
      double importMeanMsPerUser,
      double importMaxDeviation,
      boolean importWithinTwentyPercent,
      long hfileSplits) {}

  /** Bulk load vs puts on the largest input, means of {@link #COMPARISON_RUNS} alternating runs. */
  public record Comparison(
      long users,
      long records,
      long putRecords,
      long cells,
      int runs,
      double bulkloadSeconds,
      List<Double> bulkloadRunSeconds,
      double bulkloadJobSeconds,
      double bulkloadLoadSeconds,
      double bulkloadRecordsPerSecond,
      double putSeconds,
      List<Double> putRunSeconds,
      double putWriteSeconds,
      double putMemstoreFlushSeconds,
      double putRecordsPerSecond,
      double speedup) {}

  /** The generator's planted bad files, bulk-loaded in case 3's layout. */
  public record BadFiles(
      int files,
      int planted,
      long quarantined,
      long loaded,
      long usersLoaded,
      long usersExpected,
      int attemptsPerFile,
      long badFileReads,
      long badFileReadsAllowed,
      long badFileMillis,
      double jobSeconds,
      long goodBytes) {}

  /** Everything measured, as written to the JSON file. */
  public record Results(
      SettingsReport settings,
      int regions,
      long regionSizeLimitBytes,
      double warmUpSeconds,
      String splitComputation,
      List<Run> runs,
      Linearity case3Linearity,
      Comparison bulkloadVsPut,
      BadFiles plantedBadFiles) {}

  /** The results and where they were written. */
  public record Outcome(Results results, Path json, Path chart) {}

  private final Connection connection;
  private final Configuration conf;
  private final Path scratch;
  private final Settings settings;

  /** Case 2's keys per input file, parsed on first use. */
  private final Map<Path, ExperimentHooks.PlainKeys> plainKeys = new HashMap<>();

  public ArchiveExperiment(
      Connection connection, Configuration conf, Path scratch, Settings settings) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.conf = Objects.requireNonNull(conf, "conf is null");
    this.scratch = Objects.requireNonNull(scratch, "scratch is null");
    this.settings = Objects.requireNonNull(settings, "settings is null");
  }

  /**
   * Runs everything, prints the table, writes JSON and PNG into {@code outDir} (null: {@link
   * BenchResults}).
   */
  public Outcome run(Path outDir) {
    createDirectories(scratch);
    int maxUsers = settings.maxUsers();
    Path input = scratch.resolve("input");
    delete(input);
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
                  regions,
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
      Comparison comparison = compare(input, written.files(), regions, regionBytes, progress);
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
              linearity(runs),
              comparison,
              badFiles);
      System.out.print(table(results));
      Outcome outcome = write(outDir, results);
      // Kept in the archive's meta table too: the console's archive page charts it from there.
      // The file is written first, so a failure here loses no run.
      try {
        ExperimentHooks.recordResults(
            connection, System.currentTimeMillis(), Json.writeBytes(results));
      } catch (RuntimeException e) {
        LOG.warn(
            "the results are in {} but could not be recorded for the console: {}",
            outcome.json(),
            e.toString());
      }
      return outcome;
    } finally {
      plainKeys.clear();
      delete(input);
    }
  }

  private Run runCase(Case kase, int users, List<Path> files, int regions, long regionBytes) {
    String ns = "archive_exp" + kase.number + "_" + users;
    Layout layout;
    switch (kase) {
      case NO_PRESPLIT_NO_RULE -> {
        layout = new Layout(1, false);
        recreate(ns, layout, TableSplits.none(), regionBytes);
      }
      case PRESPLIT_NO_RULE -> {
        layout = new Layout(regions, false);
        recreate(ns, layout, quantileSplits(files, regions), regionBytes);
      }
      default -> {
        layout = new Layout(regions, true);
        recreate(ns, layout, TableSplits.regionIds(regions), regionBytes);
      }
    }
    int before = regionCount(ns);
    ArchiveBulkLoad.Partitioning partitioning =
        kase == Case.PRESPLIT_NO_RULE
            ? ArchiveBulkLoad.Partitioning.HASH
            : ArchiveBulkLoad.Partitioning.REGIONS;
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
      ArchiveBulkLoad.Outcome o =
          bulkLoad(
              ns,
              layout,
              files.subList(from, Math.min(files.size(), from + perRound)),
              partitioning);
      if (o.filesQuarantined() > 0) {
        throw new IllegalStateException(
            "the experiment's generated input had " + o.filesQuarantined() + " bad file(s)");
      }
      records += o.users() + o.statuses();
      cells += o.cells();
      hfiles += o.hfiles();
      hfileSplits += o.hfileSplits();
      job += o.jobSeconds();
      load += o.loadSeconds();
      rounds++;
    }
    long settleStart = System.nanoTime();
    long end = Math.max(settleStart, awaitQuiet(ns));
    int after = regionCount(ns);
    new SchemaManager(connection).dropNamespace(ns);
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
    Layout layout = new Layout(regions, true);
    recreate(ns, layout, TableSplits.regionIds(regions), regionBytes);
    long t0 = System.nanoTime();
    bulkLoad(ns, layout, files, ArchiveBulkLoad.Partitioning.REGIONS);
    double seconds = (System.nanoTime() - t0) / 1e9;
    new SchemaManager(connection).dropNamespace(ns);
    return seconds;
  }

  /**
   * Bulk load (one job, case 3's layout) vs the put path on the largest input, each into fresh
   * tables, alternating {@link #COMPARISON_RUNS} times: a single put run varied by up to 45 %
   * between experiments (JVM and HBase background work), so the speed-up is of the means.
   */
  private Comparison compare(
      Path inputDir, List<Path> files, int regions, long regionBytes, Progress progress) {
    Layout layout = new Layout(regions, true);
    String ns = "archive_exp_cmp";
    List<Double> bulkRuns = new ArrayList<>();
    List<Double> putRuns = new ArrayList<>();
    double job = 0;
    double load = 0;
    double write = 0;
    double flush = 0;
    ArchiveBulkLoad.Outcome bulk = null;
    ImportReport put = null;
    ArchiveService archive =
        new ArchiveService(connection, conf, scratch, ns, Clock.systemUTC(), null);
    ImportRequest putRequest =
        ImportRequest.local(inputDir, ImportMode.PUT)
            .withRegions(regions)
            .withQuarantine(quarantineOf(ns))
            .withAttempts(settings.attempts());
    for (int run = 0; run < COMPARISON_RUNS; run++) {
      recreate(ns, layout, TableSplits.regionIds(regions), regionBytes);
      long t0 = System.nanoTime();
      bulk = bulkLoad(ns, layout, files, ArchiveBulkLoad.Partitioning.REGIONS);
      bulkRuns.add((System.nanoTime() - t0) / 1e9);
      job += bulk.jobSeconds();
      load += bulk.loadSeconds();
      progress.advance(1);

      recreate(ns, layout, TableSplits.regionIds(regions), regionBytes);
      put = archive.importFiles(putRequest, Progress.silent());
      putRuns.add(put.seconds());
      write += put.phaseSeconds().get("write");
      flush += put.phaseSeconds().get("memstoreFlush");
      progress.advance(1);
    }
    new SchemaManager(connection).dropNamespace(ns);

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
    delete(dir);
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
    Layout layout = new Layout(regions, true);
    recreate(ns, layout, TableSplits.regionIds(regions), regionBytes);
    delete(quarantineOf(ns));
    ArchiveBulkLoad.Outcome o =
        bulkLoad(ns, layout, w.files(), ArchiveBulkLoad.Partitioning.REGIONS);
    new SchemaManager(connection).dropNamespace(ns);
    delete(dir);
    delete(quarantineOf(ns));
    return new BadFiles(
        w.files().size(),
        w.badFiles().size(),
        o.filesQuarantined(),
        o.filesLoaded(),
        o.users(),
        w.users(),
        settings.attempts(),
        o.badFileReads(),
        o.filesQuarantined() * settings.attempts(),
        o.badFileMillis(),
        o.jobSeconds(),
        o.bytes());
  }

  static Linearity linearity(List<Run> runs) {
    List<Run> c3 = runs.stream().filter(r -> r.kase() == Case.PRESPLIT_KEY_RULE).toList();
    PerUser all = perUser(c3, Run::seconds);
    PerUser importOnly = perUser(c3, r -> r.jobSeconds() + r.loadSeconds());
    return new Linearity(
        all.msPerUser(),
        all.meanMs(),
        all.worst(),
        all.worst() <= 0.20,
        importOnly.msPerUser(),
        importOnly.meanMs(),
        importOnly.worst(),
        importOnly.worst() <= 0.20,
        c3.stream().mapToLong(Run::hfileSplits).sum());
  }

  private record PerUser(List<Double> msPerUser, double meanMs, double worst) {}

  private static PerUser perUser(List<Run> runs, ToDoubleFunction<Run> seconds) {
    double[] perUser =
        runs.stream().mapToDouble(r -> seconds.applyAsDouble(r) / r.users()).toArray();
    double mean = Arrays.stream(perUser).average().orElse(0);
    double worst = Arrays.stream(perUser).map(v -> Math.abs(v / mean - 1)).max().orElse(0);
    return new PerUser(
        Arrays.stream(perUser).map(v -> 1000 * v).boxed().toList(), 1000 * mean, worst);
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  /**
   * Drops {@code namespace} if it exists and creates its tables with the experiment's region
   * settings: the seed's region size limit, scaled down, under a constant-size split policy as in
   * HBase 0.94, and a compaction check after each bulk load.
   */
  private void recreate(String namespace, Layout layout, TableSplits splits, long regionBytes) {
    ExperimentHooks.recreate(
        connection,
        namespace,
        layout,
        splits,
        Map.of(
            TableDescriptorBuilder.MAX_FILESIZE,
            Long.toString(regionBytes),
            TableDescriptorBuilder.SPLIT_POLICY,
            ConstantSizeRegionSplitPolicy.class.getName(),
            COMPACT_AFTER_BULKLOAD,
            "true"));
  }

  /**
   * One bulk-load job of {@code files} into {@code namespace}'s tables, with scratch space of its
   * own.
   */
  private ArchiveBulkLoad.Outcome bulkLoad(
      String namespace,
      Layout layout,
      List<Path> files,
      ArchiveBulkLoad.Partitioning partitioning) {
    Path work = scratch.resolve("work-" + namespace);
    try {
      return ExperimentHooks.bulkLoad(
          connection,
          conf,
          namespace,
          layout,
          files,
          work,
          quarantineOf(namespace),
          settings.attempts(),
          partitioning);
    } finally {
      delete(work);
    }
  }

  private Path quarantineOf(String namespace) {
    return scratch.resolve("quarantine-" + namespace);
  }

  private int regionCount(String namespace) {
    try (Admin admin = connection.getAdmin()) {
      int n = 0;
      for (TableName t : ExperimentHooks.dataTables(namespace)) {
        n += admin.getRegions(t).size();
      }
      return n;
    } catch (IOException e) {
      throw StorageException.of("count the regions of " + namespace, e);
    }
  }

  /**
   * Waits until the tables have no compaction running, no region in transition and a stable region
   * count, seen on two polls in a row; returns when that quiet began (the confirming poll is not
   * part of the work). A compaction HBase requests after a bulk load is registered before the
   * load's RPC returns, so the first poll already sees it.
   */
  private long awaitQuiet(String namespace) {
    long deadline = System.nanoTime() + 600_000_000_000L;
    int quietPolls = 0;
    int lastRegions = regionCount(namespace);
    long quietSince = 0;
    try (Admin admin = connection.getAdmin()) {
      while (quietPolls < 2) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "tables of " + namespace + " did not settle within 10 minutes");
        }
        long polled = System.nanoTime();
        boolean busy =
            !admin
                .getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
                .getRegionStatesInTransition()
                .isEmpty();
        int regions = 0;
        for (TableName t : ExperimentHooks.dataTables(namespace)) {
          busy |= admin.getCompactionState(t) != CompactionState.NONE;
          regions += admin.getRegions(t).size();
        }
        busy |= regions != lastRegions;
        lastRegions = regions;
        if (busy) {
          quietPolls = 0;
        } else if (quietPolls++ == 0) {
          quietSince = polled;
        }
        if (quietPolls < 2) {
          Thread.sleep(250);
        }
      }
    } catch (IOException e) {
      throw StorageException.of("watch the tables of " + namespace + " settle", e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("wait for the tables of " + namespace + " to settle", e);
    }
    return quietSince;
  }

  /**
   * Case 2's split points: the quantiles of the plain keys of every user, status and index row of
   * {@code files}. Each file is parsed once per experiment; the sizes share their first files.
   */
  private TableSplits quantileSplits(List<Path> files, int regions) {
    List<byte[]> users = new ArrayList<>();
    List<byte[]> statuses = new ArrayList<>();
    List<byte[]> index = new ArrayList<>();
    for (Path f : files) {
      ExperimentHooks.PlainKeys keys = plainKeys.computeIfAbsent(f, ExperimentHooks::plainKeys);
      users.addAll(keys.users());
      statuses.addAll(keys.statuses());
      index.addAll(keys.index());
    }
    return new TableSplits(
        SplitPoints.quantiles(users, regions),
        SplitPoints.quantiles(statuses, regions),
        SplitPoints.quantiles(index, regions));
  }

  static String table(Results doc) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%nSeed 001 §3.2 — import time vs users (%s regions, region limit %,d B)%n",
            doc.regions(),
            doc.regionSizeLimitBytes()));
    sb.append(
        String.format(
            Locale.ROOT,
            "%-28s %7s %9s %8s %9s %6s %7s %7s %8s %8s%n",
            "case",
            "users",
            "records",
            "seconds",
            "rec/s",
            "rounds",
            "HFiles",
            "HFsplit",
            "Rsplits",
            "regions"));
    for (Run r : doc.runs()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-28s %,7d %,9d %8.1f %,9.0f %6d %7d %7d %8d %4d→%-3d%n",
              r.kase().number + " " + r.kase().label,
              r.users(),
              r.records(),
              r.seconds(),
              r.recordsPerSecond(),
              r.rounds(),
              r.hfiles(),
              r.hfileSplits(),
              r.regionSplits(),
              r.regionsBefore(),
              r.regionsAfter()));
    }
    Linearity lin = doc.case3Linearity();
    sb.append(
        String.format(
            Locale.ROOT,
            "case 3: %.2f ms per user on average, largest departure %.1f%% "
                + "(target ±20%%); "
                + "import alone (jobs + loads, not the compactions after): %.2f ms per user, largest departure %.1f%%; "
                + "%d HFile splits%n",
            lin.meanMsPerUser(),
            100 * lin.maxDeviation(),
            lin.importMeanMsPerUser(),
            100 * lin.importMaxDeviation(),
            lin.hfileSplits()));
    Comparison cmp = doc.bulkloadVsPut();
    sb.append(
        String.format(
            Locale.ROOT,
            "bulk load vs put, %,d records, mean of %d runs each: bulk load %.1f s "
                + "(%,.0f records/s), put %.1f s incl. memstore flush (%,.0f records/s): %.2f×%n",
            cmp.records(),
            cmp.runs(),
            cmp.bulkloadSeconds(),
            cmp.bulkloadRecordsPerSecond(),
            cmp.putSeconds(),
            cmp.putRecordsPerSecond(),
            cmp.speedup()));
    BadFiles bad = doc.plantedBadFiles();
    sb.append(
        String.format(
            Locale.ROOT,
            "planted bad files: %d of %d quarantined, %d reads (allowed %d), %d ms "
                + "reading them; %,d of %,d users loaded%n",
            bad.quarantined(),
            bad.files(),
            bad.badFileReads(),
            bad.badFileReadsAllowed(),
            bad.badFileMillis(),
            bad.usersLoaded(),
            bad.usersExpected()));
    return sb.toString();
  }

  /**
   * The JSON (through {@link BenchResults} unless {@code outDir} is given) and the chart next to
   * it.
   */
  private static Outcome write(Path outDir, Results results) {
    Path json;
    if (outDir == null) {
      json = ResultFiles.write("archive", results);
    } else {
      createDirectories(outDir);
      String stamp =
          LocalDateTime.now(ZoneId.systemDefault())
              .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      json = outDir.resolve("archive-" + stamp + ".json");
      try {
        Files.writeString(json, Json.writePretty(results) + System.lineSeparator());
      } catch (IOException e) {
        throw LocalFileException.of("write", json, e);
      }
    }
    String name = json.getFileName().toString();
    Path png = json.resolveSibling(name.substring(0, name.length() - ".json".length()) + ".png");
    List<LineChartPng.Series> series = new ArrayList<>();
    for (Case kase : Case.values()) {
      series.add(
          new LineChartPng.Series(
              "case " + kase.number + ": " + kase.label,
              results.runs().stream()
                  .filter(r -> r.kase() == kase)
                  .map(r -> new double[] {r.users(), r.seconds()})
                  .toList()));
    }
    LineChartPng.write(png, "Seed 001 §3.2: import time vs users", "users", "seconds", series);
    System.out.println("wrote " + json + " and " + png);
    return new Outcome(results, json, png);
  }

  private static void delete(Path path) {
    try {
      LocalFiles.deleteRecursively(path);
    } catch (IOException e) {
      throw LocalFileException.of("delete", path, e);
    }
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
