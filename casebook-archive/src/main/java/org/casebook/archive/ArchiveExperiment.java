package org.casebook.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.Json;
import org.casebook.core.LocalFiles;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seed 001 §3.2 at small scale: time to store N users' data for (1) no pre-split and no key
 * rule, (2) pre-split without the key rule, (3) pre-split with the key rule. As in the seed, the
 * data arrives in rounds (one bulk-load job per batch of files) into tables with a region size
 * limit, so case 1's single region grows and HBase splits it; a case is timed from its first
 * round until HBase has finished the splits and compactions the rounds caused. Case 2's tables
 * are pre-split at their keys' quantiles, but its job sends rows to reducers by hash, as a job
 * that does not know the regions does: every HFile spans regions and the loader splits it. Case 3
 * partitions by region. Also measured: bulk load vs the put path on the largest input, and what
 * the quarantined files of a set with planted bad files cost.
 */
public final class ArchiveExperiment {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveExperiment.class);
  /** Table setting honoured per region: compact a store after a bulk load when it has enough files. */
  private static final String COMPACT_AFTER_BULKLOAD = "hbase.compaction.after.bulkload.enable";
  /** Bulk load and put each run this many times, alternating, on the largest input. */
  static final int COMPARISON_RUNS = 2;

  /** The experiment's knobs; the defaults finish in a few minutes on two cores. */
  public record Settings(List<Integer> users, int usersPerFile, int statusesPerUser, int roundUsers, int regions,
                         long regionBytes, int attempts, long seed) {
    public Settings {
      users = List.copyOf(users);
      if (users.isEmpty() || users.stream().anyMatch(u -> u < usersPerFile || u % usersPerFile != 0)) {
        throw new org.casebook.core.InvalidInputException("users", "each size must be a positive multiple of --users-per-file ("
            + usersPerFile + ")");
      }
      if (roundUsers < usersPerFile || roundUsers % usersPerFile != 0) {
        throw new org.casebook.core.InvalidInputException("round-users", "--round-users must be a multiple of --users-per-file");
      }
      if (regions < 0 || regions > 1024) {
        throw new org.casebook.core.InvalidInputException("regions", "--regions must be 0 (computed) .. 1024");
      }
      if (statusesPerUser < 1 || attempts < 1 || attempts > 10) {
        throw new org.casebook.core.InvalidInputException("statuses", "--statuses must be >= 1 and --attempts 1..10");
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
  public record Run(Case kase, int users, long records, long cells, long bytes, int rounds, double seconds,
                    double jobSeconds, double loadSeconds, double settleSeconds, long hfiles, long hfileSplits,
                    int regionsBefore, int regionsAfter) {
    public double recordsPerSecond() {
      return records / seconds;
    }

    public int regionSplits() {
      return regionsAfter - regionsBefore;
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("case", kase.number);
      m.put("caseName", kase.label);
      m.put("users", users);
      m.put("records", records);
      m.put("cells", cells);
      m.put("inputBytes", bytes);
      m.put("rounds", rounds);
      m.put("seconds", seconds);
      m.put("jobSeconds", jobSeconds);
      m.put("loadSeconds", loadSeconds);
      m.put("settleSeconds", settleSeconds);
      m.put("recordsPerSecond", recordsPerSecond());
      m.put("hfiles", hfiles);
      m.put("hfileSplits", hfileSplits);
      m.put("regionSplits", regionSplits());
      m.put("regionsBefore", regionsBefore);
      m.put("regionsAfter", regionsAfter);
      return m;
    }
  }

  private final Connection connection;
  private final Configuration conf;
  private final Path scratch;
  private final Settings settings;
  /** Case 2's key samples per input file, parsed on first use. */
  private final Map<Path, List<List<byte[]>>> plainKeys = new java.util.HashMap<>();

  public ArchiveExperiment(Connection connection, Configuration conf, Path scratch, Settings settings) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.conf = Objects.requireNonNull(conf, "conf is null");
    this.scratch = Objects.requireNonNull(scratch, "scratch is null");
    this.settings = Objects.requireNonNull(settings, "settings is null");
  }

  /** Runs everything, prints the table, writes JSON and PNG into {@code outDir}; returns the JSON document. */
  public Map<String, Object> run(Path outDir) throws Exception {
    Files.createDirectories(scratch);
    int maxUsers = settings.maxUsers();
    Path input = scratch.resolve("input");
    LocalFiles.deleteRecursively(input);
    LOG.info("generating {} users in files of {}", maxUsers, settings.usersPerFile());
    ArchiveGenerator.Written written = ArchiveGenerator.write(new ArchiveGenerator.Spec(maxUsers / settings.usersPerFile(),
        settings.usersPerFile(), settings.statusesPerUser(), false, 0, settings.seed()), input);
    long maxBytes = sizeOf(written.files());
    long regionBytes = settings.regionBytes() > 0 ? settings.regionBytes()
        : Math.max(4L << 20, (long) Math.ceil(maxBytes * 1.5 / Math.max(1, settings.regions() == 0 ? 8 : settings.regions())));
    SplitPlan plan = SplitPlan.compute(maxBytes, 1.5, regionBytes, 1);
    int regions = settings.regions() > 0 ? settings.regions() : plan.regions();
    LOG.info("regions: {}; region size limit {} bytes", plan.explain(), regionBytes);

    List<Run> runs = new ArrayList<>();
    int total = settings.users().size() * Case.values().length + 2 + 2 * COMPARISON_RUNS;
    try (Progress progress = Progress.start("experiment", total, "runs")) {
      progress.detail("warm-up (not timed)");
      double warmUp = warmUp(written.files().subList(0, Math.min(written.files().size(),
          settings.roundUsers() / settings.usersPerFile())), regions, regionBytes);
      progress.advance(1);
      for (Case kase : Case.values()) {
        for (int n : settings.users()) {
          progress.detail("case " + kase.number + ", " + n + " users");
          Run r = runCase(kase, n, written.files().subList(0, n / settings.usersPerFile()), regions, regionBytes);
          LOG.info("case {} ({}), {} users: {} s, {} HFiles, {} HFile splits, {} region splits", kase.number, kase.label,
              n, String.format(Locale.ROOT, "%.1f", r.seconds()), r.hfiles(), r.hfileSplits(), r.regionSplits());
          runs.add(r);
          progress.advance(1);
        }
      }
      progress.detail("bulk load vs put, " + maxUsers + " users");
      Map<String, Object> comparison = compare(written.files(), regions, regionBytes, progress);
      progress.detail("planted bad files");
      Map<String, Object> badFiles = badFileCost(regions, regionBytes);
      progress.advance(1);

      Map<String, Object> doc = new LinkedHashMap<>();
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("users", settings.users());
      s.put("usersPerFile", settings.usersPerFile());
      s.put("meanStatusesPerUser", settings.statusesPerUser());
      s.put("roundUsers", settings.roundUsers());
      s.put("attempts", settings.attempts());
      s.put("seed", settings.seed());
      doc.put("settings", s);
      doc.put("regions", regions);
      doc.put("regionSizeLimitBytes", regionBytes);
      doc.put("warmUpSeconds", warmUp);
      doc.put("splitComputation", settings.regions() > 0 ? "--regions " + regions + " given" : plan.explain());
      doc.put("runs", runs.stream().map(Run::toJson).toList());
      doc.put("case3Linearity", linearity(runs));
      doc.put("bulkloadVsPut", comparison);
      doc.put("plantedBadFiles", badFiles);
      print(runs, doc);
      Path json = write(outDir, doc, runs);
      doc.put("json", json.toString());
      return doc;
    } finally {
      plainKeys.clear();
      LocalFiles.deleteRecursively(input);
    }
  }

  private Run runCase(Case kase, int users, List<Path> files, int regions, long regionBytes) throws Exception {
    String ns = "archive_exp" + kase.number + "_" + users;
    Layout layout;
    ArchiveSchema schema;
    switch (kase) {
      case NO_PRESPLIT_NO_RULE -> {
        layout = new Layout(1, false);
        schema = recreate(ns, layout, sc -> sc.dataSpecs(1, false), regionBytes);
      }
      case PRESPLIT_NO_RULE -> {
        layout = new Layout(regions, false);
        List<List<byte[]>> samples = plainKeySample(files);
        schema = recreate(ns, layout, sc -> sc.dataSpecs(SplitPoints.quantiles(samples.get(0), regions),
            SplitPoints.quantiles(samples.get(1), regions), SplitPoints.quantiles(samples.get(2), regions)), regionBytes);
      }
      default -> {
        layout = new Layout(regions, true);
        schema = recreate(ns, layout, sc -> sc.dataSpecs(regions, true), regionBytes);
      }
    }
    int before = regionCount(schema);
    ArchiveBulkLoad.Partitioning partitioning = kase == Case.PRESPLIT_NO_RULE ? ArchiveBulkLoad.Partitioning.HASH
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
      ArchiveBulkLoad.Outcome o = bulkLoad(schema, layout, files.subList(from, Math.min(files.size(), from + perRound)),
          partitioning);
      if (o.filesQuarantined() > 0) {
        throw new IllegalStateException("the experiment's generated input had " + o.filesQuarantined() + " bad file(s)");
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
    long end = Math.max(settleStart, awaitQuiet(schema));
    int after = regionCount(schema);
    new SchemaManager(connection).dropNamespace(ns);
    return new Run(kase, users, records, cells, sizeOf(files), rounds, (end - t0) / 1e9, job, load,
        (end - settleStart) / 1e9, hfiles, hfileSplits, before, after);
  }

  /**
   * One untimed round, so that the first measured case does not also pay for loading and
   * compiling the job's code paths (the JIT); returns its seconds for the record.
   */
  private double warmUp(List<Path> files, int regions, long regionBytes) throws Exception {
    Layout layout = new Layout(regions, true);
    ArchiveSchema schema = recreate("archive_exp_warmup", layout, sc -> sc.dataSpecs(regions, true), regionBytes);
    long t0 = System.nanoTime();
    bulkLoad(schema, layout, files, ArchiveBulkLoad.Partitioning.REGIONS);
    double seconds = (System.nanoTime() - t0) / 1e9;
    new SchemaManager(connection).dropNamespace(schema.namespace());
    return seconds;
  }

  /**
   * Bulk load (one job, case 3's layout) vs the put path on the largest input, each into fresh
   * tables, alternating {@link #COMPARISON_RUNS} times: a single put run varied by up to 45 %
   * between experiments (JVM and HBase background work), so the speed-up is of the means.
   */
  private Map<String, Object> compare(List<Path> files, int regions, long regionBytes, Progress progress) throws Exception {
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
    for (int run = 0; run < COMPARISON_RUNS; run++) {
      ArchiveSchema schema = recreate(ns, layout, sc -> sc.dataSpecs(regions, true), regionBytes);
      long t0 = System.nanoTime();
      bulk = bulkLoad(schema, layout, files, ArchiveBulkLoad.Partitioning.REGIONS);
      bulkRuns.add((System.nanoTime() - t0) / 1e9);
      job += bulk.jobSeconds();
      load += bulk.loadSeconds();
      progress.advance(1);

      recreate(ns, layout, sc -> sc.dataSpecs(regions, true), regionBytes);
      put = new ArchiveService(connection, ns).importWithPuts(files, quarantineOf(schema), settings.attempts(),
          "experiment", Progress.silent());
      putRuns.add(put.seconds());
      write += put.phaseSeconds().get("write");
      flush += put.phaseSeconds().get("memstoreFlush");
      progress.advance(1);
    }
    new SchemaManager(connection).dropNamespace(ns);

    long records = bulk.users() + bulk.statuses();
    double bulkSeconds = bulkRuns.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double putSeconds = putRuns.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("users", bulk.users());
    m.put("records", records);
    m.put("putRecords", put.users() + put.statuses());
    m.put("cells", bulk.cells());
    m.put("runs", COMPARISON_RUNS);
    m.put("bulkloadSeconds", bulkSeconds);
    m.put("bulkloadRunSeconds", bulkRuns);
    m.put("bulkloadJobSeconds", job / COMPARISON_RUNS);
    m.put("bulkloadLoadSeconds", load / COMPARISON_RUNS);
    m.put("bulkloadRecordsPerSecond", records / bulkSeconds);
    m.put("putSeconds", putSeconds);
    m.put("putRunSeconds", putRuns);
    m.put("putWriteSeconds", write / COMPARISON_RUNS);
    m.put("putMemstoreFlushSeconds", flush / COMPARISON_RUNS);
    m.put("putRecordsPerSecond", records / putSeconds);
    m.put("speedup", putSeconds / bulkSeconds);
    return m;
  }

  /** A small set with the generator's four planted bad files, bulk-loaded in case 3's layout. */
  private Map<String, Object> badFileCost(int regions, long regionBytes) throws Exception {
    Path dir = scratch.resolve("bad-input");
    LocalFiles.deleteRecursively(dir);
    int files = Math.max(10, settings.users().get(0) / settings.usersPerFile());
    ArchiveGenerator.Written w = ArchiveGenerator.write(new ArchiveGenerator.Spec(files, settings.usersPerFile(),
        settings.statusesPerUser(), true, 0, settings.seed() + 1), dir);
    Layout layout = new Layout(regions, true);
    ArchiveSchema schema = recreate("archive_exp_bad", layout, sc -> sc.dataSpecs(regions, true), regionBytes);
    LocalFiles.deleteRecursively(quarantineOf(schema));
    ArchiveBulkLoad.Outcome o = bulkLoad(schema, layout, w.files(), ArchiveBulkLoad.Partitioning.REGIONS);
    new SchemaManager(connection).dropNamespace(schema.namespace());
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("files", w.files().size());
    m.put("planted", w.badFiles().size());
    m.put("quarantined", o.filesQuarantined());
    m.put("loaded", o.filesLoaded());
    m.put("usersLoaded", o.users());
    m.put("usersExpected", w.users());
    m.put("attemptsPerFile", settings.attempts());
    m.put("badFileReads", o.badFileReads());
    m.put("badFileReadsAllowed", o.filesQuarantined() * settings.attempts());
    m.put("badFileMillis", o.badFileMillis());
    m.put("jobSeconds", o.jobSeconds());
    m.put("goodBytes", o.bytes());
    LocalFiles.deleteRecursively(dir);
    LocalFiles.deleteRecursively(quarantineOf(schema));
    return m;
  }

  /**
   * Case 3's seconds per user at each size and the largest departure from their mean, twice: for
   * the whole time (until HBase is quiet) and for the import alone (jobs and loads, without
   * waiting for the compactions HBase runs afterwards).
   */
  static Map<String, Object> linearity(List<Run> runs) {
    List<Run> c3 = runs.stream().filter(r -> r.kase() == Case.PRESPLIT_KEY_RULE).toList();
    Map<String, Object> m = new LinkedHashMap<>();
    m.putAll(perUser(c3, Run::seconds, ""));
    m.putAll(perUser(c3, r -> r.jobSeconds() + r.loadSeconds(), "import"));
    m.put("hfileSplits", c3.stream().mapToLong(Run::hfileSplits).sum());
    return m;
  }

  private static Map<String, Object> perUser(List<Run> runs, java.util.function.ToDoubleFunction<Run> seconds, String prefix) {
    double[] perUser = runs.stream().mapToDouble(r -> seconds.applyAsDouble(r) / r.users()).toArray();
    double mean = java.util.Arrays.stream(perUser).average().orElse(0);
    double worst = java.util.Arrays.stream(perUser).map(v -> Math.abs(v / mean - 1)).max().orElse(0);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(key(prefix, "msPerUser"), java.util.Arrays.stream(perUser).map(v -> 1000 * v).boxed().toList());
    m.put(key(prefix, "meanMsPerUser"), 1000 * mean);
    m.put(key(prefix, "maxDeviation"), worst);
    m.put(key(prefix, "withinTwentyPercent"), worst <= 0.20);
    return m;
  }

  private static String key(String prefix, String name) {
    return prefix.isEmpty() ? name : prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  /**
   * Drops {@code namespace} if it exists and creates its tables with the experiment's region
   * settings: the seed's region size limit, scaled down, under a constant-size split policy as in
   * HBase 0.94, and a compaction check after each bulk load.
   */
  private ArchiveSchema recreate(String namespace, Layout layout,
                                 java.util.function.Function<ArchiveSchema, List<org.casebook.core.schema.TableSpec>> specs,
                                 long regionBytes) throws IOException {
    ArchiveSchema schema = ArchiveSchema.in(namespace);
    SchemaManager schemas = new SchemaManager(connection);
    schemas.dropNamespace(namespace);
    schemas.ensure(schema.metaSpec());
    Map<String, String> regionSettings = Map.of(TableDescriptorBuilder.MAX_FILESIZE, Long.toString(regionBytes),
        TableDescriptorBuilder.SPLIT_POLICY, ConstantSizeRegionSplitPolicy.class.getName(), COMPACT_AFTER_BULKLOAD, "true");
    schemas.ensureAll(specs.apply(schema).stream().map(t -> t.withSettings(regionSettings)).toList());
    new ArchiveStore(connection, schema).saveLayout(layout);
    return schema;
  }

  /** One bulk-load job of {@code files} into {@code schema}'s tables, with scratch space of its own. */
  private ArchiveBulkLoad.Outcome bulkLoad(ArchiveSchema schema, Layout layout, List<Path> files,
                                           ArchiveBulkLoad.Partitioning partitioning) throws Exception {
    Path work = scratch.resolve("work-" + schema.namespace());
    try {
      return ArchiveBulkLoad.run(connection, conf, schema, layout, ArchiveService.hadoopPaths(files),
          new org.apache.hadoop.fs.Path(work.toUri()), new org.apache.hadoop.fs.Path(quarantineOf(schema).toUri()),
          settings.attempts(), partitioning, Progress.silent());
    } finally {
      LocalFiles.deleteRecursively(work);
    }
  }

  private Path quarantineOf(ArchiveSchema schema) {
    return scratch.resolve("quarantine-" + schema.namespace());
  }

  private int regionCount(ArchiveSchema schema) throws IOException {
    int n = 0;
    try (Admin admin = connection.getAdmin()) {
      for (TableName t : schema.dataTables()) {
        n += admin.getRegions(t).size();
      }
    }
    return n;
  }

  /**
   * Waits until the tables have no compaction running, no region in transition and a stable
   * region count, seen on two polls in a row; returns when that quiet began (the confirming poll
   * is not part of the work). A compaction HBase requests after a bulk load is registered before
   * the load's RPC returns, so the first poll already sees it.
   */
  private long awaitQuiet(ArchiveSchema schema) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 600_000_000_000L;
    int quietPolls = 0;
    int lastRegions = regionCount(schema);
    long quietSince = 0;
    try (Admin admin = connection.getAdmin()) {
      while (quietPolls < 2) {
        if (System.nanoTime() > deadline) {
          throw new IOException("tables of " + schema.namespace() + " did not settle within 10 minutes");
        }
        long polled = System.nanoTime();
        boolean busy = !admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
            .getRegionStatesInTransition().isEmpty();
        int regions = 0;
        for (TableName t : schema.dataTables()) {
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
    }
    return quietSince;
  }

  /**
   * Row keys of the three tables in the plain (no key rule) layout: every user, status and index
   * row of {@code files}. Each file is parsed once per experiment; the sizes share their first files.
   */
  private List<List<byte[]>> plainKeySample(List<Path> files) throws IOException {
    List<List<byte[]>> sample = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (Path f : files) {
      List<List<byte[]>> keys = plainKeys.get(f);
      if (keys == null) {
        keys = plainKeysOf(f);
        plainKeys.put(f, keys);
      }
      for (int t = 0; t < 3; t++) {
        sample.get(t).addAll(keys.get(t));
      }
    }
    return sample;
  }

  private static List<List<byte[]>> plainKeysOf(Path file) throws IOException {
    List<byte[]> users = new ArrayList<>();
    List<byte[]> statuses = new ArrayList<>();
    List<byte[]> index = new ArrayList<>();
    Layout plain = new Layout(1, false);
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      ArchiveReader.read(in, new ArchiveReader.Sink() {
        @Override
        public void user(UserRecord user) {
          users.add(plain.userRow(user.uid()));
        }

        @Override
        public void status(StatusRecord status) {
          statuses.add(plain.statusRow(status.uid(), status.id()));
          index.add(plain.indexRow(status.id()));
        }
      });
    } catch (BadInputException e) {
      throw new IllegalStateException("generated file " + file + " is bad: " + e.getMessage(), e);
    }
    return List.of(users, statuses, index);
  }

  private static void print(List<Run> runs, Map<String, Object> doc) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%nSeed 001 §3.2 — import time vs users (%s regions, region limit %,d B)%n",
        doc.get("regions"), (Long) doc.get("regionSizeLimitBytes")));
    sb.append(String.format(Locale.ROOT, "%-28s %7s %9s %8s %9s %6s %7s %7s %8s %8s%n", "case", "users", "records", "seconds",
        "rec/s", "rounds", "HFiles", "HFsplit", "Rsplits", "regions"));
    for (Run r : runs) {
      sb.append(String.format(Locale.ROOT, "%-28s %,7d %,9d %8.1f %,9.0f %6d %7d %7d %8d %4d→%-3d%n",
          r.kase().number + " " + r.kase().label, r.users(), r.records(), r.seconds(), r.recordsPerSecond(), r.rounds(),
          r.hfiles(), r.hfileSplits(), r.regionSplits(), r.regionsBefore(), r.regionsAfter()));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> lin = (Map<String, Object>) doc.get("case3Linearity");
    sb.append(String.format(Locale.ROOT, "case 3: %.2f ms per user on average, largest departure %.1f%% (target ±20%%); "
            + "import alone (jobs + loads, not the compactions after): %.2f ms per user, largest departure %.1f%%; "
            + "%d HFile splits%n", (Double) lin.get("meanMsPerUser"), 100 * (Double) lin.get("maxDeviation"),
        (Double) lin.get("importMeanMsPerUser"), 100 * (Double) lin.get("importMaxDeviation"), (Long) lin.get("hfileSplits")));
    @SuppressWarnings("unchecked")
    Map<String, Object> cmp = (Map<String, Object>) doc.get("bulkloadVsPut");
    sb.append(String.format(Locale.ROOT, "bulk load vs put, %,d records, mean of %d runs each: bulk load %.1f s (%,.0f records/s), "
            + "put %.1f s incl. memstore flush (%,.0f records/s): %.2f×%n", (Long) cmp.get("records"), COMPARISON_RUNS,
        (Double) cmp.get("bulkloadSeconds"),
        (Double) cmp.get("bulkloadRecordsPerSecond"), (Double) cmp.get("putSeconds"), (Double) cmp.get("putRecordsPerSecond"),
        (Double) cmp.get("speedup")));
    @SuppressWarnings("unchecked")
    Map<String, Object> bad = (Map<String, Object>) doc.get("plantedBadFiles");
    sb.append(String.format(Locale.ROOT, "planted bad files: %d of %d quarantined, %d reads (allowed %d), %d ms reading them; "
            + "%,d of %,d users loaded%n", (Long) bad.get("quarantined"), (Integer) bad.get("files"), (Long) bad.get("badFileReads"),
        (Long) bad.get("badFileReadsAllowed"), (Long) bad.get("badFileMillis"), (Long) bad.get("usersLoaded"),
        (Long) bad.get("usersExpected")));
    System.out.print(sb);
  }

  private static Path write(Path outDir, Map<String, Object> doc, List<Run> runs) throws IOException {
    Files.createDirectories(outDir);
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path png = outDir.resolve("archive-experiment-" + stamp + ".png");
    List<LineChart.Series> series = new ArrayList<>();
    for (Case kase : Case.values()) {
      series.add(new LineChart.Series("case " + kase.number + ": " + kase.label, runs.stream().filter(r -> r.kase() == kase)
          .map(r -> new double[] {r.users(), r.seconds()}).toList()));
    }
    LineChart.write(png, "Seed 001 §3.2: import time vs users", "users", "seconds", series);
    doc.put("chart", png.toString());
    Path json = outDir.resolve("archive-experiment-" + stamp + ".json");
    Files.writeString(json, Json.writePretty(doc) + System.lineSeparator());
    System.out.println("wrote " + json + " and " + png);
    return json;
  }

  private static long sizeOf(List<Path> files) {
    long n = 0;
    for (Path f : files) {
      try {
        n += Files.size(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return n;
  }
}
