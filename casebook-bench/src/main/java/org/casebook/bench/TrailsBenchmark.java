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
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
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
 * {@link TrailsComparisons}.
 */
final class TrailsBenchmark {
  static final String NAMESPACE = "casebook_bench_trails";
  private static final LocalDate FIRST_DAY = LocalDate.parse("2026-09-01");

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
                + " each; the median is reported (default ${DEFAULT-VALUE}).")
    int loadRounds;

    @Option(
        names = "--no-bulk-load",
        description = "Skip the bulk load (MapReduce job writing HFiles) of the same log.")
    boolean noBulkLoad;

    @Option(
        paramLabel = "DIR",
        names = "--work",
        defaultValue = "bench-work/trails",
        description = "Scratch directory (default ${DEFAULT-VALUE}).")
    Path work;

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
    Map<String, Object> json = new LinkedHashMap<>();
    BenchTable table =
        new BenchTable(
            String.format(
                Locale.ROOT,
                "bench trails: %,d lines, %,d users, %d days",
                o.records,
                o.users,
                o.days));
    RawBenchmark.Figures raw = null;
    if (o.rawRows > 0) {
      raw = RawBenchmark.ceiling(context.connection(), o.rawRows);
      json.put("raw", raw.table().toJson());
    }
    Files.createDirectories(o.work);
    Path log = o.work.resolve("logs.jsonl");
    long t0 = System.nanoTime();
    LogGenerator.Written written;
    try (Progress p = Progress.start("generate", o.records, "lines")) {
      written =
          LogGenerator.write(
              new LogGenerator.Spec(o.users, o.days, o.records, 0.01, FIRST_DAY, 11), log, p);
    }
    table.add(
        "generate log (1% malformed)",
        written.lines(),
        "lines",
        (System.nanoTime() - t0) / 1e9,
        null,
        String.format(Locale.ROOT, "%,d MB", written.bytes() >> 20));

    SchemaManager schemas = new SchemaManager(context.connection());
    List<TableSpec> specs = TrailsService.schemas(NAMESPACE);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    TrailsService trails = new TrailsService(context, NAMESPACE);
    try {
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
      if (!o.noBulkLoad) {
        // An untimed first load, then the median of --load-rounds: the first MapReduce job in a
        // JVM runs its shuffle and HFile writers through cold code (5.5 s against 2.5 s for the
        // same job again here); PostgreSQL's load gets the same rounds.
        List<Double> bulkRuns = new ArrayList<>();
        IngestReport bulk = null;
        for (int round = 0; round <= o.loadRounds; round++) {
          bulk = bulkLoad(schemas, log, written.bytes());
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
                "the same 3 tables in another namespace, median of %s after an untimed first"
                    + " load of %.2f s; %,d records, %,d rejected%s",
                TrailsSteps.runs(bulkRuns),
                (Double) json.get("bulkLoadFirstSeconds"),
                bulk.accepted(),
                bulk.rejected(),
                bulk.cells() == report.cells() ? "" : " (the Puts wrote " + report.cells() + ")"));
        json.put("bulkLoad", bulk.toJson());
      }
      settle(specs);
      json.put("storeFilesAtQueryTime", storeFiles(specs));
      TrailsHBaseQueries.Task task =
          new TrailsHBaseQueries(trails, o, steps, FIRST_DAY).run(table, json);
      if (!o.noPostgres) {
        new TrailsPostgres(o, steps, FIRST_DAY).run(log, table, task.users(), task.active());
      }
    } finally {
      schemas.dropNamespace(NAMESPACE);
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

  /**
   * Loads the log again through the bulk-load path, into the same tables in a namespace of their
   * own (dropped afterwards): the load PostgreSQL's COPY is compared with.
   */
  private IngestReport bulkLoad(SchemaManager schemas, Path log, long bytes) {
    String namespace = NAMESPACE + "_bulk";
    List<TableSpec> specs = TrailsService.schemas(namespace);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    try (Progress p = Progress.start("bulk load", bytes, "bytes")) {
      return new TrailsService(context, namespace)
          .ingestBulk(
              log,
              new IngestOptions(o.work.resolve("rejects-bulk.tsv"), HistoryTables.BOTH, 2),
              o.work.toAbsolutePath().resolve("bulk"),
              p);
    } finally {
      schemas.dropNamespace(namespace);
    }
  }

  /**
   * Waits until the region servers have no compaction running on the tables (at most 2 minutes).
   */
  private void settle(List<TableSpec> specs) throws IOException, InterruptedException {
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
