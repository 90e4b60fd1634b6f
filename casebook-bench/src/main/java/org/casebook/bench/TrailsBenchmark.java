package org.casebook.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFiles;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableFootprint;
import org.casebook.core.schema.TableSpec;
import org.casebook.trails.HistoryTables;
import org.casebook.trails.IngestOptions;
import org.casebook.trails.IngestReport;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;
import picocli.CommandLine.Option;

/**
 * {@code bench trails}: generate logs, ingest them, then the seed's queries on HBase — and the same
 * data and queries on PostgreSQL 16 in the same run, loaded with COPY and indexed as a DBA would
 * for these queries. Both sides are timed from a single client thread. The queries go through the
 * system's Java API ({@link TrailsService}) on tables of the benchmark's own namespace: {@link
 * TrailsHBaseQueries}, {@link TrailsPostgres}, timed as {@link TrailsSteps} says and compared by
 * {@link TrailsComparisons}, with the bytes each side stores per record. HBase is loaded with Puts,
 * the bulk load or both ({@code --load}); the log is reused across runs ({@link TrailsLogFile}); a
 * run that would not fit on the disk is refused before it starts ({@link TrailsDiskEstimate}).
 */
final class TrailsBenchmark {
  static final String NAMESPACE = "casebook_bench_trails";
  private static final LocalDate FIRST_DAY = LocalDate.parse("2026-09-01");
  private static final long LOG_SEED = 11;

  /**
   * What the run writes in its work directory besides the log: removed at the end (the bulk load's
   * and the 000 task's job directories, PostgreSQL's binaries, data directory and logs, the rejects
   * files).
   */
  private static final List<String> SCRATCH =
      List.of(
          "bulk",
          "mr",
          "rejects.tsv",
          "rejects-bulk.tsv",
          "pgdata",
          "postgres-16.4",
          "initdb.log",
          "postgres.log");

  /** How {@code --load} loads HBase. */
  enum Load {
    BULK,
    PUTS,
    BOTH
  }

  /**
   * Sizes; the defaults finish in a few minutes on a 2-core machine; {@code --records 100000000} is
   * the seed's.
   */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--records",
        defaultValue = "300000",
        description = "Log lines (default ${DEFAULT-VALUE}).")
    long records;

    @Option(
        paramLabel = "N",
        names = "--users",
        defaultValue = "20000",
        description = "Users (default ${DEFAULT-VALUE}).")
    int users;

    @Option(
        paramLabel = "N",
        names = "--days",
        defaultValue = "10",
        description = "Days (default ${DEFAULT-VALUE}).")
    int days;

    @Option(
        paramLabel = "N",
        names = "--samples",
        defaultValue = "500",
        description =
            "Timed single-user queries per step, after as many untimed (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(
        paramLabel = "N",
        names = "--multi-user-samples",
        defaultValue = "500",
        description =
            "Timed 100-user queries on each side, after as many untimed (default"
                + " ${DEFAULT-VALUE}; the p99 of 100 is the second-slowest query).")
    int multiUserSamples;

    @Option(
        paramLabel = "N",
        names = "--active-users",
        defaultValue = "1000",
        description = "Users given to the seed-000 task (default ${DEFAULT-VALUE}).")
    int activeUsers;

    @Option(
        paramLabel = "S",
        names = "--warmup-seconds",
        defaultValue = "20",
        description =
            "Untimed single-user queries before the timed ones, on each side, for this long"
                + " (default ${DEFAULT-VALUE}): the JIT needs thousands of calls through the"
                + " client and the region server before their times settle.")
    int warmupSeconds;

    @Option(
        paramLabel = "N",
        names = "--raw-rows",
        defaultValue = "100000",
        description = "Rows of the raw ceiling run; 0 skips it.")
    int rawRows;

    @Option(names = "--no-postgres", description = "Skip the PostgreSQL side.")
    boolean noPostgres;

    @Option(names = "--no-mapreduce", description = "Skip the MapReduce run of the seed-000 task.")
    boolean noMapReduce;

    @Option(
        paramLabel = "N",
        names = "--load-rounds",
        defaultValue = "3",
        description =
            "Timed rounds of the bulk load and of PostgreSQL's load, after an untimed first one"
                + " each (unless --no-load-warmup); the median is reported (default"
                + " ${DEFAULT-VALUE}).")
    int loadRounds;

    @Option(
        names = "--no-load-warmup",
        description =
            "No untimed first round of the bulk load nor of PostgreSQL's load (at the seed's size"
                + " a warm-up round doubles an hour of work); the table's notes say which ran.")
    boolean noLoadWarmup;

    @Option(
        paramLabel = "HOW",
        names = "--load",
        defaultValue = "both",
        description =
            "How HBase is loaded: bulk (the MapReduce bulk load into the queried tables, no Puts),"
                + " puts (Puts only), both (Puts into the queried tables, and the bulk load timed"
                + " into a namespace of its own, dropped after; default ${DEFAULT-VALUE}).")
    String load;

    @Option(
        names = "--keep-log",
        description =
            "Keep the generated log (and its .spec) in the work directory for the next run, which"
                + " reuses it when the sizes match; the rest of the work directory is removed at"
                + " the end either way.")
    boolean keepLog;

    @Option(
        names = "--skip-disk-check",
        description =
            "Start even when the work directory's file system has less free space than the run"
                + " is estimated to need.")
    boolean skipDiskCheck;

    @Option(
        paramLabel = "DIR",
        names = "--work",
        defaultValue = "bench-work/trails",
        description = "Scratch directory (default ${DEFAULT-VALUE}).")
    Path work;

    /** {@code --load} parsed. */
    Load loadMode() {
      return Enums.parse(Load.class, load, "load");
    }

    /** Load rounds in all, the untimed warm-up round included. */
    int allLoadRounds() {
      return loadRounds + (noLoadWarmup ? 0 : 1);
    }

    void validate() {
      InvalidInputException.check(records >= 1000, "records", "--records must be at least 1000");
      InvalidInputException.check(users >= 10, "users", "--users must be at least 10");
      InvalidInputException.check(days >= 1 && days <= 366, "days", "--days must be 1..366");
      InvalidInputException.check(samples >= 10, "samples", "--samples must be at least 10");
      InvalidInputException.check(
          multiUserSamples >= 10, "multi-user-samples", "--multi-user-samples must be at least 10");
      InvalidInputException.check(
          warmupSeconds >= 0, "warmup-seconds", "--warmup-seconds must be 0 or more");
      InvalidInputException.check(
          loadRounds >= 1 && loadRounds <= 20, "load-rounds", "--load-rounds must be 1..20");
      loadMode();
      InvalidInputException.check(
          activeUsers >= 1 && activeUsers <= users,
          "active-users",
          "--active-users must be 1..users");
    }
  }

  private final SystemContext context;
  private final Options o;
  private final TrailsSteps steps;

  TrailsBenchmark(SystemContext context, Options options) {
    this.context = context;
    this.o = options;
    options.validate();
    this.steps = new TrailsSteps(options.users, options.samples);
  }

  Map<String, Object> run() throws Exception {
    Load load = o.loadMode();
    Path log = o.work.resolve("logs.jsonl");
    LogGenerator.Spec spec =
        new LogGenerator.Spec(o.users, o.days, o.records, 0.01, FIRST_DAY, LOG_SEED);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("disk", checkDisk(load, log));
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("load", Enums.label(load));
    options.put("loadRounds", o.loadRounds);
    options.put("loadWarmup", !o.noLoadWarmup);
    json.put("options", options);
    BenchTable table =
        new BenchTable(
            String.format(
                Locale.ROOT,
                "bench trails: %,d lines, %,d users, %d days; HBase loaded by %s; %s",
                o.records,
                o.users,
                o.days,
                switch (load) {
                  case BULK -> "the bulk load (queries on its tables)";
                  case PUTS -> "Puts";
                  case BOTH -> "Puts (queries on their tables) and, timed apart, the bulk load";
                },
                loadRoundsNote()));
    RawBenchmark.Figures raw = null;
    boolean finished = false;
    try {
      if (o.rawRows > 0) {
        raw = RawBenchmark.ceiling(context.connection(), o.rawRows);
        json.put("raw", raw.table().toJson());
      }
      LogGenerator.Written written = log(log, spec, table);
      SchemaManager schemas = new SchemaManager(context.connection());
      List<TableSpec> specs = TrailsService.schemas(NAMESPACE);
      specs.forEach(s -> schemas.drop(s.name()));
      schemas.ensureAll(specs);
      TrailsService trails = new TrailsService(context, NAMESPACE);
      try {
        IngestReport loaded = null;
        if (load != Load.BULK) {
          loaded = putIngest(trails, log, written, table, json);
        }
        if (load != Load.PUTS) {
          IngestReport bulk = bulkLoads(schemas, log, written.bytes(), load, table, json);
          if (loaded != null && bulk.cells() != loaded.cells()) {
            System.out.printf(
                Locale.ROOT,
                "the bulk load wrote %,d cells, the Puts %,d%n",
                bulk.cells(),
                loaded.cells());
          }
          loaded = loaded == null ? bulk : loaded;
        }
        settle(specs);
        json.put("storeFilesAtQueryTime", storeFiles(specs));
        hbaseBytes(specs, loaded.accepted(), load, table, json);
        TrailsHBaseQueries.Task task =
            new TrailsHBaseQueries(trails, o, steps, FIRST_DAY).run(table, json);
        if (!o.noPostgres) {
          json.put(
              "postgresStorage",
              new TrailsPostgres(o, steps, FIRST_DAY)
                  .run(
                      log,
                      written.bytes(),
                      () -> logNoLongerNeeded(log),
                      table,
                      task.users(),
                      task.active()));
        }
      } finally {
        schemas.dropNamespace(NAMESPACE);
      }
      finished = true;
    } finally {
      cleanUp(log, finished);
    }
    json.put("results", table.toJson());
    System.out.println();
    if (raw != null) {
      System.out.print(raw.table().render());
      System.out.println();
    }
    System.out.print(table.render());
    System.out.println();
    System.out.print(TrailsComparisons.ratios(table, raw, json));
    return json;
  }

  /** The load rounds, in words for the table's title. */
  private String loadRoundsNote() {
    return String.format(
        Locale.ROOT,
        "loads: %s %d timed round%s",
        o.noLoadWarmup ? "no warm-up round," : "an untimed warm-up round, then",
        o.loadRounds,
        o.loadRounds == 1 ? "" : "s");
  }

  /**
   * Refuses to start when the work directory's file system cannot hold the run at its fullest
   * (unless {@code --skip-disk-check}); returns the estimate for the JSON.
   */
  private Map<String, Object> checkDisk(Load load, Path log) {
    TrailsDiskEstimate.Run run =
        new TrailsDiskEstimate.Run(o.records, load, o.allLoadRounds(), !o.noPostgres, o.keepLog);
    TrailsDiskEstimate.Need need = TrailsDiskEstimate.of(run);
    // The log already there is reused or replaced: its bytes are in the budget either way. Files
    // of dropped tables in HBase's archive are deleted by its master's cleaner once 5 minutes old.
    long logThere = sizeIfAny(log);
    long archived = hbaseArchiveBytes();
    long free = TrailsDiskEstimate.freeBytes(o.work) + logThere + archived;
    Path where = o.work.toAbsolutePath();
    System.out.printf(
        Locale.ROOT,
        "disk: %s; %s free under %s (a log already there %s, HBase's archive of dropped tables"
            + " %s included)%s%n",
        need.describe(),
        TrailsDiskEstimate.gb(free),
        where,
        TrailsDiskEstimate.gb(logThere),
        TrailsDiskEstimate.gb(archived),
        o.skipDiskCheck ? "; --skip-disk-check: not enforced" : "");
    if (!o.skipDiskCheck) {
      TrailsDiskEstimate.check(run, free, where);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("estimatedPeakBytes", need.peak());
    m.put("estimatedLogBytes", need.log());
    m.put("estimatedHBaseLoadPeakBytes", need.hbaseLoad());
    m.put("estimatedPostgresCopyPeakBytes", need.postgresCopy());
    m.put("estimatedPostgresIndexPeakBytes", need.postgresIndexes());
    m.put("freeBytesAtStart", free);
    m.put("checked", !o.skipDiskCheck);
    return m;
  }

  /** Bytes under HBase's archive directory when HBase's root is a local directory, else 0. */
  private long hbaseArchiveBytes() {
    String root = context.configuration().get("hbase.rootdir", "");
    if (!root.startsWith("file:")) {
      return 0;
    }
    Path archive = Path.of(java.net.URI.create(root)).resolve("archive");
    if (!Files.isDirectory(archive)) {
      return 0;
    }
    try (java.util.stream.Stream<Path> files = Files.walk(archive)) {
      return files.filter(Files::isRegularFile).mapToLong(TrailsBenchmark::sizeIfAny).sum();
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0; // files going while we count: count none
    }
  }

  private static long sizeIfAny(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0; // gone or unreadable: not counted
    }
  }

  /** The log: an earlier run's when its sidecar matches, else generated now. */
  private LogGenerator.Written log(Path log, LogGenerator.Spec spec, BenchTable table) {
    long t0 = System.nanoTime();
    TrailsLogFile.Ready ready =
        TrailsLogFile.prepare(log, spec, () -> Progress.start("generate", o.records, "lines"));
    LogGenerator.Written written = ready.written();
    if (ready.reused()) {
      System.out.printf(
          Locale.ROOT,
          "reusing %s (%,d lines, %,d MB): its %s matches these sizes%n",
          log,
          written.lines(),
          written.bytes() >> 20,
          TrailsLogFile.specFile(log).getFileName());
    }
    table.add(
        ready.reused() ? "log reused (1% malformed)" : "generate log (1% malformed)",
        written.lines(),
        "lines",
        ready.reused() ? 0 : (System.nanoTime() - t0) / 1e9,
        null,
        String.format(
            Locale.ROOT,
            "%,d MB%s",
            written.bytes() >> 20,
            ready.reused() ? ", written by an earlier run with the same sizes" : ""));
    return written;
  }

  /** The Put ingest into the queried tables. */
  private IngestReport putIngest(
      TrailsService trails,
      Path log,
      LogGenerator.Written written,
      BenchTable table,
      Map<String, Object> json) {
    IngestReport report;
    try (Progress p = Progress.start("ingest", written.bytes(), "bytes")) {
      report =
          trails.ingest(
              log, new IngestOptions(o.work.resolve("rejects.tsv"), HistoryTables.BOTH, 2), p);
    }
    table.add(
        "HBase ingest (events + tall + wide)",
        report.cells(),
        "cells",
        report.seconds(),
        null,
        String.format(
            Locale.ROOT, "%,d records, %,d rejected", report.accepted(), report.rejected()));
    json.put("ingest", report.toJson());
    return report;
  }

  /**
   * The bulk load's rounds: an untimed first one (unless {@code --no-load-warmup}), then the median
   * of {@code --load-rounds}. The first MapReduce job in a JVM runs its shuffle and HFile writers
   * through cold code (5.5 s against 2.5 s for the same job again here); PostgreSQL's load gets the
   * same rounds. With {@code --load bulk} every round loads the queried tables afresh and the last
   * one's stay; with {@code both} they load a namespace of their own, dropped after each round.
   */
  private IngestReport bulkLoads(
      SchemaManager schemas,
      Path log,
      long bytes,
      Load load,
      BenchTable table,
      Map<String, Object> json) {
    String namespace = load == Load.BULK ? NAMESPACE : NAMESPACE + "_bulk";
    List<Double> bulkRuns = new ArrayList<>();
    IngestReport bulk = null;
    for (int round = o.noLoadWarmup ? 1 : 0; round <= o.loadRounds; round++) {
      bulk = bulkLoad(schemas, namespace, log, bytes, load == Load.BOTH, round);
      if (round > 0) {
        bulkRuns.add(bulk.seconds());
      } else {
        json.put("bulkLoadFirstSeconds", bulk.seconds());
      }
    }
    table.add(
        "HBase bulk load (MapReduce, HFiles)",
        bulk.cells(),
        "cells",
        TrailsSteps.median(bulkRuns),
        null,
        String.format(
            Locale.ROOT,
            "%s; %s%s; %,d records, %,d rejected",
            load == Load.BULK
                ? "into the queried tables"
                : "the same 3 tables in another namespace, dropped after",
            bulkRuns.size() == 1 ? "one run" : "median of " + TrailsSteps.runs(bulkRuns),
            o.noLoadWarmup
                ? ", no warm-up round"
                : String.format(
                    Locale.ROOT,
                    " after an untimed first load of %.2f s",
                    (Double) json.get("bulkLoadFirstSeconds")),
            bulk.accepted(),
            bulk.rejected()));
    json.put("bulkLoad", bulk.toJson());
    return bulk;
  }

  /**
   * One bulk load of the log into the trails tables of {@code namespace}, created afresh; dropped
   * afterwards when {@code drop} (they are not the queried ones).
   */
  private IngestReport bulkLoad(
      SchemaManager schemas, String namespace, Path log, long bytes, boolean drop, int round) {
    List<TableSpec> specs = TrailsService.schemas(namespace);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    String label = round == 0 ? "bulk load (warm-up)" : "bulk load " + round + "/" + o.loadRounds;
    try (Progress p = Progress.start(label, bytes, "bytes")) {
      return new TrailsService(context, namespace)
          .ingestBulk(
              log,
              new IngestOptions(o.work.resolve("rejects-bulk.tsv"), HistoryTables.BOTH, 2),
              o.work.toAbsolutePath().resolve("bulk"),
              p);
    } finally {
      if (drop) {
        schemas.dropNamespace(namespace);
      }
    }
  }

  /**
   * The bytes HBase stores for the records: the three tables' store files on disk after the load
   * and a flush ({@link TableFootprint}), as a table row and under {@code hbaseStorage}.
   */
  private void hbaseBytes(
      List<TableSpec> specs, long accepted, Load load, BenchTable table, Map<String, Object> json) {
    long total = 0;
    Map<String, Object> perTable = new LinkedHashMap<>();
    List<String> parts = new ArrayList<>();
    for (TableSpec s : specs) {
      TableFootprint f =
          TableFootprint.measure(context.connection(), context.configuration(), s.name());
      total += f.bytesOnDisk();
      String name = s.name().getQualifierAsString();
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("bytesOnDisk", f.bytesOnDisk());
      t.put("regions", f.regions());
      perTable.put(name, t);
      parts.add(String.format(Locale.ROOT, "%s %,d MB", name, f.bytesOnDisk() >> 20));
    }
    double perRecord = accepted == 0 ? 0 : (double) total / accepted;
    // Each record's cells are written once (no deletes, one version, no duplicates), so the files
    // hold nothing a major compaction would drop; none runs.
    String loadedBy = load == Load.BULK ? "bulk-loaded HFiles" : "Put-loaded, flushed";
    table.add(
        "HBase: bytes stored (events + tall + wide)",
        total,
        "bytes",
        0,
        null,
        String.format(
            Locale.ROOT,
            "%.1f B/record (%,d records); %s; store files, %s, no major compaction",
            perRecord,
            accepted,
            String.join(", ", parts),
            loadedBy));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("bytesOnDisk", total);
    m.put("records", accepted);
    m.put("bytesPerRecord", perRecord);
    m.put("tables", perTable);
    m.put("loadedBy", loadedBy);
    m.put("majorCompaction", false);
    json.put("hbaseStorage", m);
  }

  /**
   * After PostgreSQL's last COPY nothing reads the log again: unless {@code --keep-log}, it goes
   * before the index builds, where PostgreSQL's disk use peaks (11 GB less at the seed's size).
   */
  private void logNoLongerNeeded(Path log) {
    if (o.keepLog) {
      return;
    }
    try {
      Files.deleteIfExists(TrailsLogFile.specFile(log));
      Files.deleteIfExists(log);
      System.out.println("removed " + log + ": read for the last time (no --keep-log)");
    } catch (IOException e) {
      System.out.println("could not remove " + log + ": " + e.getMessage());
    }
  }

  /**
   * Removes what the run wrote in the work directory (and the directory when that leaves it empty):
   * all of it after a finished run, except the log and its sidecar with {@code --keep-log}; after a
   * failed one, a complete log stays for the next run to reuse. Only names the benchmark writes are
   * removed: {@code --work} may name a directory holding other files.
   */
  private void cleanUp(Path log, boolean finished) {
    boolean keepLog = o.keepLog || !finished;
    List<Path> ours = new ArrayList<>();
    for (String name : SCRATCH) {
      ours.add(o.work.resolve(name));
    }
    ours.add(TrailsLogFile.partialFile(log));
    ours.add(TrailsLogFile.partialFile(TrailsLogFile.specFile(log)));
    if (!keepLog) {
      ours.add(log);
      ours.add(TrailsLogFile.specFile(log));
    }
    for (Path p : ours) {
      try {
        LocalFiles.deleteRecursively(p);
      } catch (IOException e) {
        System.out.println("could not remove " + p + ": " + e.getMessage());
      }
    }
    if (keepLog && Files.exists(TrailsLogFile.specFile(log))) {
      System.out.println(
          "kept "
              + log
              + (finished ? " (--keep-log)" : "")
              + ": the next run with the same sizes reuses it");
      return;
    }
    if (!Files.isDirectory(o.work)) {
      return;
    }
    try (java.util.stream.Stream<Path> left = Files.list(o.work)) {
      if (left.findAny().isEmpty()) {
        Files.delete(o.work);
      }
    } catch (IOException e) {
      System.out.println("left " + o.work + " in place: " + e.getMessage());
    }
  }

  /**
   * Waits until the region servers have no compaction running on the tables (at most 2 minutes).
   */
  private void settle(List<TableSpec> specs) throws IOException, InterruptedException {
    System.out.println("flushing the tables and waiting for their compactions (2 minutes at most)");
    long t0 = System.nanoTime();
    try (Admin admin = context.connection().getAdmin()) {
      for (TableSpec s : specs) {
        admin.flush(s.name());
      }
      long deadline = System.currentTimeMillis() + 120_000;
      for (TableSpec s : specs) {
        while (admin.getCompactionState(s.name())
                != org.apache.hadoop.hbase.client.CompactionState.NONE
            && System.currentTimeMillis() < deadline) {
          Thread.sleep(250);
        }
      }
    }
    System.out.printf(
        Locale.ROOT, "flushed and settled in %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /** Store files per table and their most in one region: what each read merges. */
  private Map<String, String> storeFiles(List<TableSpec> specs) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Admin admin = context.connection().getAdmin()) {
      for (TableSpec s : specs) {
        int total = 0;
        int most = 0;
        for (org.apache.hadoop.hbase.ServerName server : admin.getRegionServers()) {
          for (org.apache.hadoop.hbase.RegionMetrics m : admin.getRegionMetrics(server, s.name())) {
            total += m.getStoreFileCount();
            most = Math.max(most, m.getStoreFileCount());
          }
        }
        out.put(
            s.name().getQualifierAsString(), total + " files, at most " + most + " in a region");
      }
    }
    System.out.println("store files at query time: " + out);
    return out;
  }
}
