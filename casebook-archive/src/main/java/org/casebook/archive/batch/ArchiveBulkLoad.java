package org.casebook.archive.batch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.casebook.archive.LoadOutcome;
import org.casebook.archive.Partitioning;
import org.casebook.core.SystemContext;
import org.casebook.core.batch.MapReduceJobs;
import org.casebook.core.batch.hfile.HFileBulkLoad;
import org.casebook.core.cli.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bulk-load path, one MapReduce job for all three data tables: the mapper ({@link
 * ArchiveCellMapper}) streams each JSON file once and emits the cells of every table; HBase's
 * multi-table HFile output partitions them by region (one reducer per region of every table, so
 * each HFile belongs to exactly one region) and writes {@code out/namespace/table/family/}; then
 * core's {@link HFileBulkLoad} moves each table's files in. SK-bad (seed 001 §2.2.3) lives in the
 * mapper (bounded validating reads) and in {@link WholeFileInputFormat} (task attempts counted per
 * file); a bad file is quarantined with a reason file and contributes no cells, or, salvaging, a
 * file with bad records contributes the cells of its good ones and a rejects file.
 */
public final class ArchiveBulkLoad {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveBulkLoad.class);
  static final String ATTEMPTS = "casebook.archive.attempts";
  static final String QUARANTINE = "casebook.archive.quarantine";
  static final String BAD_RECORDS = "casebook.archive.bad-records";
  static final String REGIONS = "casebook.archive.regions";
  static final String KEY_RULE = "casebook.archive.keyrule";
  static final String TABLES = "casebook.archive.tables";

  /** Files up to this size are parsed once and held as records; larger ones are read twice. */
  static final String HOLD_BYTES = "casebook.archive.buffer.bytes";

  private static final String SCRATCH_PREFIX = "archive-bulkload-";

  /** The progress detail set once the job wrote its HFiles and before they are loaded. */
  public static final String LOADING_HFILES = "loading HFiles";

  /** Job counters. */
  enum Counters {
    FILES_LOADED,
    FILES_QUARANTINED,
    FILES_SALVAGED,
    RECORDS_SET_ASIDE,
    USERS,
    STATUSES,
    CELLS,
    BYTES,
    BAD_FILE_READS,
    BAD_FILE_MILLIS
  }

  private ArchiveBulkLoad() {}

  /**
   * Runs the job and the bulk loads of {@code plan} over {@code ctx}'s connection (which reads the
   * tables' descriptors and regions) and configuration (where the job runs: the LocalJobRunner
   * unless it names a cluster framework). The quarantined files are listed from their reason files.
   */
  public static LoadOutcome run(SystemContext ctx, LoadPlan plan, Progress progress)
      throws IOException, InterruptedException {
    if (plan.work() != null) {
      return run(ctx, plan, plan.work(), progress);
    }
    // Our own scratch directory: held with a lock while the job runs, deleted afterwards, and
    // left-overs of runs that were killed are removed by the next one.
    ScratchDirs.removeAbandoned(plan.scratch(), SCRATCH_PREFIX);
    try (ScratchDirs.Held dir = ScratchDirs.create(plan.scratch(), SCRATCH_PREFIX)) {
      return run(ctx, plan, new Path(dir.path().toAbsolutePath().normalize().toUri()), progress);
    }
  }

  private static LoadOutcome run(SystemContext ctx, LoadPlan plan, Path work, Progress progress)
      throws IOException, InterruptedException {
    Configuration conf = new Configuration(ctx.configuration());
    HFileBulkLoad.tuneLocal(conf);
    conf.setInt(ATTEMPTS, plan.attempts());
    conf.setInt("mapreduce.map.maxattempts", plan.attempts() + 1);
    conf.set(QUARANTINE, plan.quarantine().toString());
    conf.setEnum(BAD_RECORDS, plan.badRecords());
    conf.setInt(REGIONS, plan.layout().regions());
    conf.setBoolean(KEY_RULE, plan.layout().keyRule());
    conf.setLong(HOLD_BYTES, plan.holdBytes());
    List<TableName> tables = plan.tables();
    conf.setStrings(TABLES, tables.stream().map(TableName::getNameAsString).toArray(String[]::new));
    List<Path> inputs = new ArrayList<>();
    for (Path f : plan.files()) {
      // A file quarantined by an earlier run has moved away; skip it rather than fail the job.
      if (f.getFileSystem(conf).exists(f)) {
        inputs.add(f);
      }
    }
    if (inputs.isEmpty()) {
      return outcome(conf, plan, null, null, 0);
    }
    Path out = new Path(work, "hfiles");
    long t0 = System.nanoTime();
    Job job =
        Job.getInstance(conf, "casebook-archive bulk load " + tables.get(0).getNamespaceAsString());
    job.setJarByClass(ArchiveBulkLoad.class);
    job.setInputFormatClass(WholeFileInputFormat.class);
    FileInputFormat.setInputPaths(job, inputs.toArray(new Path[0]));
    job.setMapperClass(ArchiveCellMapper.class);
    boolean byRegion = plan.partitioning() == Partitioning.REGIONS;
    HFileBulkLoad.configure(job, ctx.connection(), tables, out, work, byRegion);
    if (!byRegion) {
      // A job that does not know the regions cannot have a reducer per region: it hashes rows
      // into as many reducers as the machine runs at once.
      job.setPartitionerClass(RowHashPartitioner.class);
      job.setNumReduceTasks(conf.getInt("mapreduce.local.reduce.tasks.maximum", 2));
    }
    // On a cluster: ships our, core's, HBase's and Jackson's jars and the JDK 17 task options.
    MapReduceJobs.prepare(job, ArchiveBulkLoad.class);
    long[] shown = {0};
    MapReduceJobs.run(
        job,
        where -> {
          LOG.info("archive bulk load: {}", where);
          progress.detail(where);
        },
        running -> {
          try {
            org.apache.hadoop.mapreduce.Counters counters = running.getCounters();
            long bytes = count(counters, Counters.BYTES);
            progress.advance(bytes - shown[0]);
            shown[0] = bytes;
            progress.detail(
                String.format(
                    Locale.ROOT,
                    "%,d records, map %.0f%%, reduce %.0f%%",
                    count(counters, Counters.USERS) + count(counters, Counters.STATUSES),
                    running.mapProgress() * 100,
                    running.reduceProgress() * 100));
          } catch (IOException e) {
            LOG.debug("progress of {} not readable now: {}", running.getJobID(), e.getMessage());
          }
        });
    double jobSeconds = (System.nanoTime() - t0) / 1e9;
    org.apache.hadoop.mapreduce.Counters c = job.getCounters();
    progress.advance(count(c, Counters.BYTES) - shown[0]);
    progress.detail(LOADING_HFILES);
    HFileBulkLoad.Loaded loaded = HFileBulkLoad.load(ctx.connection(), conf, out, tables);
    return outcome(conf, plan, c, loaded, jobSeconds);
  }

  /** The outcome from the job's counters and the loads (none when no file was left to load). */
  private static LoadOutcome outcome(
      Configuration conf,
      LoadPlan plan,
      org.apache.hadoop.mapreduce.Counters c,
      HFileBulkLoad.Loaded loaded,
      double jobSeconds)
      throws IOException {
    double loadSeconds = loaded == null ? 0 : loaded.seconds();
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put("job", jobSeconds);
    phases.put("load", loadSeconds);
    return new LoadOutcome(
        (int) count(c, Counters.FILES_LOADED),
        Quarantine.skipped(conf, plan.quarantine(), plan.files()),
        RejectsFile.salvaged(conf, plan.quarantine(), plan.files()),
        count(c, Counters.USERS),
        count(c, Counters.STATUSES),
        count(c, Counters.CELLS),
        count(c, Counters.BYTES),
        loaded == null ? 0 : loaded.hfiles(),
        loaded == null ? 0 : loaded.hfileSplits(),
        count(c, Counters.BAD_FILE_READS),
        count(c, Counters.BAD_FILE_MILLIS),
        phases,
        jobSeconds + loadSeconds);
  }

  private static long count(org.apache.hadoop.mapreduce.Counters counters, Counters counter) {
    return counters == null ? 0 : counters.findCounter(counter).getValue();
  }

  /**
   * Moves a file to the job's quarantine with a reason file (idempotent if it is already there).
   */
  static void quarantine(Configuration conf, Path file, String reason, int attempts)
      throws IOException {
    Quarantine.move(conf, file, new Path(conf.get(QUARANTINE)), reason, attempts);
  }

  /** Seed 001's layout without the key rule: rows go to reducers by hash, not by region. */
  public static final class RowHashPartitioner extends Partitioner<ImmutableBytesWritable, Object> {
    @Override
    public int getPartition(ImmutableBytesWritable key, Object value, int partitions) {
      return (Bytes.hashCode(key.get(), key.getOffset(), key.getLength()) & Integer.MAX_VALUE)
          % partitions;
    }
  }
}
