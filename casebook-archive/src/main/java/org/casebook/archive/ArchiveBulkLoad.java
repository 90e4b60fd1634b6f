package org.casebook.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.MultiTableHFileOutputFormat;
import org.apache.hadoop.hbase.mapreduce.MultiTableIncrementalLoad;
import org.apache.hadoop.hbase.tool.BulkLoadHFilesTool;
import org.apache.hadoop.hbase.tool.LoadIncrementalHFiles;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hbase.thirdparty.com.google.common.collect.Multimap;
import org.casebook.core.Futures;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;
import org.casebook.core.batch.MapReduceJobs;
import org.casebook.core.cli.Progress;

/**
 * The bulk-load path, one MapReduce job for all three data tables: the mapper streams each JSON
 * file once and emits the cells of every table; HBase's multi-table HFile output partitions them by
 * region (one reducer per region of every table, so each HFile belongs to exactly one region) and
 * writes {@code out/namespace/table/family/}; then {@link BulkLoadHFilesTool} moves each table's
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

  /** How long a load waits for a table whose regions are in transition (a split, a move). */
  static final long AVAILABLE_WAIT_MILLIS = 300_000;

  /**
   * HBase's switch for asking the region server's location per HFile writer (one connection each).
   */
  static final String LOCALITY_SENSITIVE = "hbase.bulkload.locality.sensitive.enabled";

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
    boolean local = MapReduceJobs.isLocal(conf);
    if (local) {
      // On one machine "locality" buys nothing, and HBase would open a connection per HFile writer
      // to find it.
      MapReduceJobs.setUnlessConfigured(conf, LOCALITY_SENSITIVE, "false");
      String cores = Integer.toString(Runtime.getRuntime().availableProcessors());
      MapReduceJobs.setUnlessConfigured(conf, "mapreduce.local.map.tasks.maximum", cores);
      MapReduceJobs.setUnlessConfigured(conf, "mapreduce.local.reduce.tasks.maximum", cores);
      // One small file per map task: a 32 MB sort buffer holds its output (the 100 MB default is
      // a humongous allocation per task that kept G1 busy), and reducers merge in memory.
      MapReduceJobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", "32");
      MapReduceJobs.setUnlessConfigured(conf, "mapreduce.reduce.input.buffer.percent", "0.7");
    }
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
    FileSystem fs = out.getFileSystem(conf);
    fs.delete(out, true);
    long t0 = System.nanoTime();
    Job job = Job.getInstance(conf, "casebook-archive bulk load " + schema.namespace());
    job.setJarByClass(ArchiveBulkLoad.class);
    job.setInputFormatClass(WholeFileInputFormat.class);
    FileInputFormat.setInputPaths(job, inputs.toArray(new Path[0]));
    job.setMapperClass(ArchiveCellMapper.class);
    job.setMapOutputKeyClass(ImmutableBytesWritable.class);
    // KeyValue for HBase's set-up (which picks its reducer by this class); then our row records.
    job.setMapOutputValueClass(KeyValue.class);
    FileOutputFormat.setOutputPath(job, out);
    List<byte[]> regionStarts = configureHFileOutput(job, connection, tables);
    KeyValueShuffle.install(job);
    job.setOutputFormatClass(UntrackedHFileOutputFormat.class);
    if (partitioning == Partitioning.REGIONS && local) {
      // Four groups per core keep both cores busy when the tables' sizes differ.
      RegionGroups.install(
          job, regionStarts, 4 * conf.getInt("mapreduce.local.reduce.tasks.maximum", 2), work);
    }
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
    long t1 = System.nanoTime();
    long hfiles = 0;
    AtomicLong hfileSplits = new AtomicLong();
    List<Callable<Void>> loads = new ArrayList<>();
    for (TableName t : tables) {
      Path dir = new Path(new Path(out, t.getNamespaceAsString()), t.getQualifierAsString());
      long n = countHFiles(fs, dir);
      if (n > 0) {
        hfiles += n;
        loads.add(
            () -> {
              try {
                load(connection, new CountingLoader(conf, hfileSplits), t, dir);
              } catch (IOException e) {
                throw StorageException.of("bulk-load the HFiles of " + t, e);
              } catch (InterruptedException e) {
                throw StorageException.interrupted("bulk-load the HFiles of " + t, e);
              }
              return null;
            });
      }
    }
    runAll(loads);
    // The loader moved the HFiles away (or, between different file systems, copied them).
    fs.delete(out, true);
    return new Outcome(
        count(c, Counters.FILES_LOADED),
        count(c, Counters.FILES_QUARANTINED),
        count(c, Counters.USERS),
        count(c, Counters.STATUSES),
        count(c, Counters.CELLS),
        count(c, Counters.BYTES),
        hfiles,
        hfileSplits.get(),
        count(c, Counters.BAD_FILE_READS),
        count(c, Counters.BAD_FILE_MILLIS),
        jobSeconds,
        (System.nanoTime() - t1) / 1e9);
  }

  /**
   * Loads one table's HFiles over the caller's connection ({@link BulkLoadHFilesTool#bulkLoad}
   * would open a connection of its own per call, half a second each here). HBase's loader refuses a
   * table with a region offline, as during a split the previous load caused; that is waited out (up
   * to {@link #AVAILABLE_WAIT_MILLIS}) rather than failing the import.
   */
  @SuppressWarnings("deprecation")
  private static void load(Connection connection, CountingLoader loader, TableName table, Path dir)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + AVAILABLE_WAIT_MILLIS * 1_000_000L;
    try (Admin admin = connection.getAdmin();
        Table t = connection.getTable(table);
        RegionLocator locator = connection.getRegionLocator(table)) {
      while (true) {
        while (!admin.isTableAvailable(table) && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        try {
          loader.doBulkLoad(dir, admin, t, locator);
          return;
        } catch (org.apache.hadoop.hbase.TableNotFoundException e) {
          // Checked before any file moved; retry if the table exists and only a region was offline.
          if (!admin.tableExists(table) || System.nanoTime() >= deadline) {
            throw e;
          }
        }
      }
    }
  }

  /**
   * Runs the tables' loads side by side (each waits mostly on region servers); rethrows the first
   * failure.
   */
  private static void runAll(List<Callable<Void>> loads) throws InterruptedException {
    if (loads.isEmpty()) {
      return;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(loads.size(), Threads.daemon("archive-bulkload"));
    try {
      RuntimeException failure = null;
      for (Future<Void> f : pool.invokeAll(loads)) {
        try {
          Futures.await(f);
        } catch (RuntimeException e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static long count(org.apache.hadoop.mapreduce.Counters counters, Counters counter) {
    return counters.findCounter(counter).getValue();
  }

  /**
   * HBase's multi-table HFile set-up for the tables' current regions; returns every region's first
   * composite key (table; start row), sorted, read through the same locators.
   */
  private static List<byte[]> configureHFileOutput(
      Job job, Connection connection, List<TableName> tables) throws IOException {
    List<TableDescriptor> descriptors = new ArrayList<>();
    List<RegionLocator> locators = new ArrayList<>();
    try {
      for (TableName t : tables) {
        try (Table table = connection.getTable(t)) {
          descriptors.add(table.getDescriptor());
        }
        locators.add(connection.getRegionLocator(t));
      }
      MultiTableIncrementalLoad.configure(job, descriptors, locators);
      List<byte[]> starts = new ArrayList<>();
      for (int i = 0; i < tables.size(); i++) {
        for (byte[] start : locators.get(i).getStartKeys()) {
          starts.add(
              MultiTableHFileOutputFormat.createCompositeKey(tables.get(i).getName(), start));
        }
      }
      starts.sort(org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR);
      return starts;
    } finally {
      for (RegionLocator l : locators) {
        l.close();
      }
    }
  }

  private static long countHFiles(FileSystem fs, Path tableDir) throws IOException {
    long n = 0;
    if (!fs.exists(tableDir)) {
      return 0;
    }
    for (FileStatus family : fs.listStatus(tableDir)) {
      if (family.isDirectory() && !family.getPath().getName().startsWith("_")) {
        for (FileStatus f : fs.listStatus(family.getPath())) {
          if (f.isFile() && !f.getPath().getName().startsWith(".")) {
            n++;
          }
        }
      }
    }
    return n;
  }

  /**
   * The cell as a {@link KeyValue}, as the deprecated {@code KeyValueUtil.ensureKeyValue} made it:
   * a plain {@code KeyValue} as is, a subclass re-wrapped around the same bytes (with its sequence
   * id), any other cell copied.
   */
  static KeyValue toKeyValue(Cell cell) {
    if (cell instanceof KeyValue kv) {
      if (kv.getClass() == KeyValue.class) {
        return kv;
      }
      KeyValue plain = new KeyValue(kv.getBuffer(), kv.getOffset(), kv.getLength());
      plain.setSequenceId(kv.getSequenceId());
      return plain;
    }
    return KeyValueUtil.copyToNewKeyValue(cell);
  }

  /**
   * Moves a file to the job's quarantine with a reason file (idempotent if it is already there).
   */
  static void quarantine(Configuration conf, Path file, String reason, int attempts)
      throws IOException {
    Quarantine.move(conf, file, new Path(conf.get(QUARANTINE)), reason, attempts);
  }

  /**
   * HBase's loader, counting the HFile splits it performs: a file whose rows cross a region
   * boundary is split in two at that boundary (and the halves again, as needed).
   */
  static final class CountingLoader extends BulkLoadHFilesTool {
    private final AtomicLong splits;

    CountingLoader(Configuration conf, AtomicLong splits) {
      super(conf);
      this.splits = splits;
    }

    @Override
    @SuppressWarnings("deprecation")
    protected Pair<List<LoadIncrementalHFiles.LoadQueueItem>, String> groupOrSplit(
        Multimap<java.nio.ByteBuffer, LoadIncrementalHFiles.LoadQueueItem> regionGroups,
        LoadIncrementalHFiles.LoadQueueItem item,
        Table table,
        Pair<byte[][], byte[][]> startEndKeys)
        throws IOException {
      Pair<List<LoadIncrementalHFiles.LoadQueueItem>, String> result =
          super.groupOrSplit(regionGroups, item, table, startEndKeys);
      if (result != null && result.getFirst() != null) {
        splits.incrementAndGet();
      }
      return result;
    }
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
      extends Mapper<Text, NullWritable, ImmutableBytesWritable, KeyValueShuffle.RowCells> {
    private byte[][] tableNames;
    private Layout layout;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      String[] names = conf.getStrings(TABLES);
      tableNames = new byte[names.length][];
      for (int i = 0; i < names.length; i++) {
        tableNames[i] = TableName.valueOf(names[i]).getName();
      }
      layout = new Layout(conf.getInt(REGIONS, 1), conf.getBoolean(KEY_RULE, true));
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
                      ImmutableBytesWritable key =
                          new ImmutableBytesWritable(
                              MultiTableHFileOutputFormat.createCompositeKey(
                                  tableNames[table], put.getRow()));
                      List<KeyValue> cells = new ArrayList<>(put.size());
                      for (List<Cell> family : put.getFamilyCellMap().values()) {
                        for (Cell cell : family) {
                          cells.add(toKeyValue(cell));
                        }
                      }
                      context.getCounter(Counters.CELLS).increment(cells.size());
                      try {
                        context.write(key, new KeyValueShuffle.RowCells(cells));
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("interrupted");
                      }
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
