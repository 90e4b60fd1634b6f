package org.casebook.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.casebook.core.batch.MapReduceJobs;
import org.casebook.core.batch.hfile.HFileBulkLoad;
import org.casebook.core.cli.Progress;

/**
 * The bulk-load path, one MapReduce job for all three data tables: the mapper streams each JSON
 * file once and emits the cells of every table; HBase's multi-table HFile output partitions them by
 * region (one reducer per region of every table, so each HFile belongs to exactly one region) and
 * writes {@code out/namespace/table/family/}; then core's {@link HFileBulkLoad} moves each table's
 * files in. SK-bad (seed 001 §2.2.3) lives in the mapper (bounded validating reads) and in {@link
 * WholeFileInputFormat} (task attempts counted per file); a bad file is quarantined with a reason
 * file and contributes no cells.
 */
public final class ArchiveBulkLoad {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ArchiveBulkLoad.class);
  static final String ATTEMPTS = "casebook.archive.attempts";
  static final String QUARANTINE = "casebook.archive.quarantine";
  static final String REGIONS = "casebook.archive.regions";
  static final String KEY_RULE = "casebook.archive.keyrule";
  static final String TABLES = "casebook.archive.tables";

  /** Files up to this size are parsed once and held as records; larger ones are read twice. */
  static final String BUFFER_BYTES = "casebook.archive.buffer.bytes";

  /** Job counters. */
  public enum Counters {
    FILES_LOADED,
    FILES_QUARANTINED,
    USERS,
    STATUSES,
    CELLS,
    BYTES,
    BAD_FILE_READS,
    BAD_FILE_MILLIS
  }

  /**
   * How rows are sent to reducers. {@link #REGIONS} is HBase's total-order partitioning on the
   * tables' regions; {@link #HASH} ignores the regions, as a job does that does not know them (seed
   * 001's case 2): every HFile then spans regions and the loader must split it. Only the experiment
   * uses it.
   */
  public enum Partitioning {
    REGIONS,
    HASH
  }

  /** What the job and the loads did. */
  public record Outcome(
      long filesLoaded,
      long filesQuarantined,
      long users,
      long statuses,
      long cells,
      long bytes,
      long hfiles,
      long hfileSplits,
      long badFileReads,
      long badFileMillis,
      double jobSeconds,
      double loadSeconds) {
    public double seconds() {
      return jobSeconds + loadSeconds;
    }
  }

  private ArchiveBulkLoad() {}

  /**
   * Runs the job and the bulk loads; {@code work} is a scratch directory on the job's file system.
   * {@code connection} (the caller's) reads the tables' descriptors and regions.
   */
  static Outcome run(
      Connection connection,
      Configuration base,
      ArchiveSchema schema,
      Layout layout,
      List<Path> files,
      Path work,
      Path quarantine,
      int attempts,
      Partitioning partitioning,
      Progress progress)
      throws IOException, InterruptedException {
    Configuration conf = new Configuration(base);
    HFileBulkLoad.tuneLocal(conf);
    conf.setInt(ATTEMPTS, attempts);
    conf.setInt("mapreduce.map.maxattempts", attempts + 1);
    conf.set(QUARANTINE, quarantine.toString());
    conf.setInt(REGIONS, layout.regions());
    conf.setBoolean(KEY_RULE, layout.keyRule());
    List<TableName> tables = schema.dataTables();
    conf.setStrings(TABLES, tables.stream().map(TableName::getNameAsString).toArray(String[]::new));
    List<Path> inputs = new ArrayList<>();
    for (Path f : files) {
      // A file quarantined by an earlier run has moved away; skip it rather than fail the job.
      if (f.getFileSystem(conf).exists(f)) {
        inputs.add(f);
      }
    }
    if (inputs.isEmpty()) {
      return new Outcome(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
    Path out = new Path(work, "hfiles");
    long t0 = System.nanoTime();
    Job job = Job.getInstance(conf, "casebook-archive bulk load " + schema.namespace());
    job.setJarByClass(ArchiveBulkLoad.class);
    job.setInputFormatClass(WholeFileInputFormat.class);
    FileInputFormat.setInputPaths(job, inputs.toArray(new Path[0]));
    job.setMapperClass(ArchiveCellMapper.class);
    HFileBulkLoad.configure(
        job, connection, tables, out, work, partitioning == Partitioning.REGIONS);
    if (partitioning == Partitioning.HASH) {
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
                    java.util.Locale.ROOT,
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
    progress.detail("loading HFiles");
    HFileBulkLoad.Loaded loaded = HFileBulkLoad.load(connection, conf, out, tables);
    return new Outcome(
        count(c, Counters.FILES_LOADED),
        count(c, Counters.FILES_QUARANTINED),
        count(c, Counters.USERS),
        count(c, Counters.STATUSES),
        count(c, Counters.CELLS),
        count(c, Counters.BYTES),
        loaded.hfiles(),
        loaded.hfileSplits(),
        count(c, Counters.BAD_FILE_READS),
        count(c, Counters.BAD_FILE_MILLIS),
        jobSeconds,
        loaded.seconds());
  }

  private static long count(org.apache.hadoop.mapreduce.Counters counters, Counters counter) {
    return counters.findCounter(counter).getValue();
  }

  /**
   * Moves a file to the job's quarantine with a reason file (idempotent if it is already there).
   */
  static void quarantine(Configuration conf, Path file, String reason, int attempts)
      throws IOException {
    Quarantine.move(conf, file, new Path(conf.get(QUARANTINE)), reason, attempts);
  }

  /** Seed 001's case 2: rows go to reducers by hash, with no regard for the regions. */
  public static final class RowHashPartitioner extends Partitioner<ImmutableBytesWritable, Object> {
    @Override
    public int getPartition(ImmutableBytesWritable key, Object value, int partitions) {
      return (org.apache.hadoop.hbase.util.Bytes.hashCode(
                  key.get(), key.getOffset(), key.getLength())
              & Integer.MAX_VALUE)
          % partitions;
    }
  }

  /** Streams one file once; emits each row's cells for all three tables, keyed by table and row. */
  public static final class ArchiveCellMapper
      extends Mapper<
          Text,
          NullWritable,
          ImmutableBytesWritable,
          org.casebook.core.batch.hfile.KeyValueShuffle.RowCells> {
    private byte[][] tableNames;
    private Layout layout;
    private HFileBulkLoad.Emitter emitter;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      String[] names = conf.getStrings(TABLES);
      tableNames = new byte[names.length][];
      for (int i = 0; i < names.length; i++) {
        tableNames[i] = TableName.valueOf(names[i]).getName();
      }
      layout = new Layout(conf.getInt(REGIONS, 1), conf.getBoolean(KEY_RULE, true));
      emitter = HFileBulkLoad.emitter(conf);
    }

    @Override
    protected void map(Text file, NullWritable none, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      Path path = new Path(file.toString());
      FileSystem fs = path.getFileSystem(conf);
      int attempts = conf.getInt(ATTEMPTS, 2);
      long size = fs.getFileStatus(path).getLen();
      long started = System.nanoTime();
      int[] reads = {0};
      String failure =
          ArchiveReader.readAllOrNothing(
                  () -> {
                    reads[0]++;
                    return fs.open(path, 1 << 16);
                  },
                  size,
                  attempts,
                  conf.getLong(BUFFER_BYTES, ArchiveReader.DEFAULT_HOLD_BYTES),
                  new ArchiveReader.Sink() {
                    @Override
                    public void user(UserRecord user) throws IOException {
                      context.getCounter(Counters.USERS).increment(1);
                      emit(0, ArchiveStore.userPut(layout, user));
                    }

                    @Override
                    public void status(StatusRecord status) throws IOException {
                      context.getCounter(Counters.STATUSES).increment(1);
                      List<Put> puts = ArchiveStore.statusPuts(layout, status);
                      emit(1, puts.get(0));
                      emit(0, puts.get(1));
                      emit(2, puts.get(2));
                    }

                    private void emit(int table, Put put) throws IOException {
                      context
                          .getCounter(Counters.CELLS)
                          .increment(emitter.emit(context, tableNames[table], put));
                    }
                  })
              .orElse(null);
      if (failure != null) {
        quarantine(conf, path, failure, attempts);
        context.getCounter(Counters.FILES_QUARANTINED).increment(1);
        context.getCounter(Counters.BAD_FILE_READS).increment(reads[0]);
        context
            .getCounter(Counters.BAD_FILE_MILLIS)
            .increment((System.nanoTime() - started) / 1_000_000);
        return;
      }
      context.getCounter(Counters.FILES_LOADED).increment(1);
      context.getCounter(Counters.BYTES).increment(size);
    }
  }
}
