package org.casebook.core.batch.hfile;

import java.io.IOException;
import java.io.InterruptedIOException;
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
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.NoServerForRegionException;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.RegionOfflineException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.exceptions.ClientExceptionsUtil;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.MultiTableHFileOutputFormat;
import org.apache.hadoop.hbase.mapreduce.MultiTableIncrementalLoad;
import org.apache.hadoop.hbase.tool.BulkLoadHFilesTool;
import org.apache.hadoop.hbase.tool.LoadIncrementalHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hbase.thirdparty.com.google.common.collect.Multimap;
import org.casebook.core.Futures;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;
import org.casebook.core.batch.MapReduceJobs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's bulk load for systems' batch imports: one MapReduce job writes HFiles for several tables
 * in one pass over the input — the mapper emits each Put's cells with an {@link Emitter}, HBase's
 * multi-table HFile output partitions them by region and writes {@code out/namespace/table/family/}
 * — then {@link #load} moves each table's files into its regions with {@link BulkLoadHFilesTool}.
 * The cells bypass the region servers' write path (no WAL, no memstore, no flush, no compaction of
 * what was written), which is why it is faster than Puts for large inputs.
 *
 * <p>Usage: {@link #tuneLocal} on the configuration, build the job (input, mapper), {@link
 * #configure}, {@link MapReduceJobs#prepare}, {@link MapReduceJobs#run}, then {@link #load}.
 */
public final class HFileBulkLoad {
  /** How long a load waits for a table whose regions are in transition (a split, a move). */
  private static final Logger LOG = LoggerFactory.getLogger(HFileBulkLoad.class);

  static final long AVAILABLE_WAIT_MILLIS = 300_000;

  /**
   * HBase's switch for asking the region server's location per HFile writer (one connection each).
   */
  static final String LOCALITY_SENSITIVE = "hbase.bulkload.locality.sensitive.enabled";

  /** Reducer groups per core of a balanced local job (see {@link #configure}); default 2. */
  public static final String GROUPS_PER_CORE = "casebook.bulkload.groups.per.core";

  /** What {@link #load} did: HFiles moved in, and how many HBase had to split at a boundary. */
  public record Loaded(long hfiles, long hfileSplits, double seconds) {}

  /** A row of a sample of the job's output: its composite key (table; row) and its cells. */
  public record SampledRow(byte[] key, int cells) {
    /** The sampled row of {@code put} in {@code table} (its {@code TableName.getName()}). */
    public static SampledRow of(byte[] table, Put put) {
      return new SampledRow(
          MultiTableHFileOutputFormat.createCompositeKey(table, put.getRow()), put.size());
    }
  }

  private HFileBulkLoad() {}

  /**
   * Settings for the LocalJobRunner inside the server's JVM (nothing changes on a cluster): every
   * core maps and reduces, no per-writer locality lookups, a 32 MB sort buffer (the 100 MB default
   * is a humongous allocation per task that kept G1 busy), reducers merging in memory within their
   * share of the heap. Values the configuration already has are kept.
   */
  public static void tuneLocal(Configuration conf) {
    if (!MapReduceJobs.isLocal(conf)) {
      return;
    }
    MapReduceJobs.setUnlessConfigured(conf, LOCALITY_SENSITIVE, "false");
    int processors = Runtime.getRuntime().availableProcessors();
    String cores = Integer.toString(processors);
    MapReduceJobs.setUnlessConfigured(conf, "mapreduce.local.map.tasks.maximum", cores);
    MapReduceJobs.setUnlessConfigured(conf, "mapreduce.local.reduce.tasks.maximum", cores);
    // Each reducer sizes its in-memory shuffle (70 % of this figure, merged to disk from 66 % of
    // that) as if it had the heap to itself, and here one runs per core in the JVM that also runs
    // HBase: together they could ask for more than the heap once their shares reach gigabytes (a
    // quarter of the 47 GB of cells of 100M trails lines each). Half the heap, shared out.
    MapReduceJobs.setUnlessConfigured(
        conf,
        "mapreduce.reduce.memory.totalbytes",
        Long.toString(Runtime.getRuntime().maxMemory() / (2L * processors)));
    MapReduceJobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", "32");
    MapReduceJobs.setUnlessConfigured(conf, "mapreduce.reduce.input.buffer.percent", "0.7");
  }

  /**
   * Sets up {@code job}'s output: HFiles for {@code tables} under {@code out} (deleted first), the
   * row-per-record shuffle, total-order partitioning over every region of every table. With {@code
   * groupRegions} on the LocalJobRunner, contiguous regions share a reducer (four groups per core)
   * and each HFile still stays inside one region; otherwise, as HBase sets it up, one reducer per
   * region (a caller may then install a partitioner of its own). {@code work} holds the partition
   * file. Returns every region's first composite key (table; start row), sorted.
   */
  public static List<byte[]> configure(
      Job job,
      Connection connection,
      List<TableName> tables,
      Path out,
      Path work,
      boolean groupRegions)
      throws IOException {
    if (groupRegions) {
      return configure(job, connection, tables, out, work, List.of());
    }
    List<byte[]> regionStarts = configureOutput(job, connection, tables, out);
    RegionGroups.installPerRegion(job, regionStarts, work, TableIndex.of(job.getConfiguration()));
    return regionStarts;
  }

  /**
   * As {@link #configure(Job, Connection, List, Path, Path, boolean)} with groups of about equal
   * cells on the LocalJobRunner, cut by {@code sample} (rows of the job's output, e.g. from a
   * sample of its input): two groups per core, each HFile still inside one region. Use it when the
   * data is spread unevenly over the regions (a table of one region beside a pre-split one). An
   * empty sample groups contiguous regions, four groups per core.
   */
  public static List<byte[]> configure(
      Job job,
      Connection connection,
      List<TableName> tables,
      Path out,
      Path work,
      List<SampledRow> sample)
      throws IOException {
    List<byte[]> regionStarts = configureOutput(job, connection, tables, out);
    Configuration conf = job.getConfiguration();
    TableIndex index = TableIndex.of(conf);
    if (!MapReduceJobs.isLocal(conf)) {
      RegionGroups.installPerRegion(job, regionStarts, work, index);
    } else if (sample.isEmpty()) {
      RegionGroups.install(job, regionStarts, 4 * localReducers(conf), work, index);
    } else {
      RegionGroups.installBalanced(
          job,
          regionStarts,
          sample,
          conf.getInt(GROUPS_PER_CORE, 2) * localReducers(conf),
          work,
          index);
    }
    return regionStarts;
  }

  private static int localReducers(Configuration conf) {
    return conf.getInt("mapreduce.local.reduce.tasks.maximum", 2);
  }

  private static List<byte[]> configureOutput(
      Job job, Connection connection, List<TableName> tables, Path out) throws IOException {
    Configuration conf = job.getConfiguration();
    out.getFileSystem(conf).delete(out, true);
    job.setMapOutputKeyClass(ImmutableBytesWritable.class);
    // KeyValue for HBase's set-up (which picks its reducer by this class); then row records.
    job.setMapOutputValueClass(KeyValue.class);
    FileOutputFormat.setOutputPath(job, out);
    List<byte[]> regionStarts = configureHFileOutput(job, connection, tables);
    TableIndex.set(conf, tables);
    KeyValueShuffle.install(job);
    job.setOutputFormatClass(UntrackedHFileOutputFormat.class);
    return regionStarts;
  }

  /** A mapper's way to emit rows: create one in {@code setup}, call it for every Put. */
  public static Emitter emitter(Configuration conf) {
    return new Emitter(TableIndex.of(conf));
  }

  /**
   * Emits Puts as map output: one record per row, keyed by the table's index in the job and the row
   * (a byte where the table's name would repeat in every key the shuffle sorts and merges).
   */
  public static final class Emitter {
    private final TableIndex index;

    private Emitter(TableIndex index) {
      this.index = index;
    }

    /**
     * Emits the cells of {@code put} for {@code table} (its {@code TableName.getName()}), one of
     * the job's tables; returns the number of cells.
     */
    public int emit(
        TaskInputOutputContext<?, ?, ImmutableBytesWritable, KeyValueShuffle.RowCells> context,
        byte[] table,
        Put put)
        throws IOException {
      ImmutableBytesWritable key = new ImmutableBytesWritable(index.key(table, put.getRow()));
      List<KeyValue> cells = new ArrayList<>(put.size());
      for (List<Cell> family : put.getFamilyCellMap().values()) {
        for (Cell cell : family) {
          cells.add(toKeyValue(cell));
        }
      }
      try {
        context.write(key, new KeyValueShuffle.RowCells(cells));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        InterruptedIOException io = new InterruptedIOException("interrupted while emitting cells");
        io.initCause(e);
        throw io;
      }
      return cells.size();
    }
  }

  /**
   * Loads the HFiles the job wrote under {@code out} into {@code tables}, the tables side by side,
   * over the caller's connection (or, where its calls end at a request's deadline, a connection of
   * the batch configuration {@code conf}), then deletes {@code out}.
   */
  public static Loaded load(
      Connection connection, Configuration conf, Path out, List<TableName> tables)
      throws IOException, InterruptedException {
    // A cluster connection's calls end at a request's deadline, sooner than a dead RegionServer's
    // regions (meta among them) come back; the load is batch work and waits that out, as the
    // job's tasks do, over a connection of its own with the batch configuration.
    try (Connection own = withinRequestDeadline(connection, conf) ? batchConnection(conf) : null) {
      return loadOver(own != null ? own : connection, conf, out, tables);
    }
  }

  private static boolean withinRequestDeadline(Connection connection, Configuration conf) {
    return operationTimeout(connection.getConfiguration()) < operationTimeout(conf);
  }

  private static long operationTimeout(Configuration c) {
    return c.getLong(
        HConstants.HBASE_CLIENT_OPERATION_TIMEOUT,
        HConstants.DEFAULT_HBASE_CLIENT_OPERATION_TIMEOUT);
  }

  private static Connection batchConnection(Configuration conf) throws IOException {
    Configuration batch = new Configuration(conf);
    // HBase's own number of retries at least: their back-off spans a RegionServer's recovery.
    batch.setInt(
        HConstants.HBASE_CLIENT_RETRIES_NUMBER,
        Math.max(
            conf.getInt(
                HConstants.HBASE_CLIENT_RETRIES_NUMBER,
                HConstants.DEFAULT_HBASE_CLIENT_RETRIES_NUMBER),
            HConstants.DEFAULT_HBASE_CLIENT_RETRIES_NUMBER));
    return ConnectionFactory.createConnection(batch);
  }

  private static Loaded loadOver(
      Connection connection, Configuration conf, Path out, List<TableName> tables)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    FileSystem fs = out.getFileSystem(conf);
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
    return new Loaded(hfiles, hfileSplits.get(), (System.nanoTime() - t0) / 1e9);
  }

  /**
   * Loads one table's HFiles over the caller's connection ({@link BulkLoadHFilesTool#bulkLoad}
   * would open a connection of its own per call, half a second each here). HBase's loader refuses a
   * table with a region offline, as during a split the previous load caused, and gives up on a
   * region whose RegionServer died before the master reassigned it; both are waited out (up to
   * {@link #AVAILABLE_WAIT_MILLIS}) rather than failing the import. A load begun again finds only
   * the HFiles not loaded yet: each one loaded was moved into its region.
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
        } catch (IOException e) {
          if (!regionUnreachable(e) || System.nanoTime() >= deadline) {
            throw e;
          }
          LOG.warn("bulk load of {} met a region out of reach; again in a second: {}", table, e);
          Thread.sleep(1000);
        }
      }
    }
  }

  /** Whether {@code e} says a region had no server for now (a RegionServer died or restarts). */
  static boolean regionUnreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof NotServingRegionException
          || t instanceof NoServerForRegionException
          || t instanceof RegionOfflineException
          || t instanceof RetriesExhaustedException
          || ClientExceptionsUtil.isConnectionException(t)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs the tables' loads side by side (each waits mostly on region servers); rethrows the first
   * failure.
   */
  private static void runAll(List<Callable<Void>> loads) throws InterruptedException {
    if (loads.isEmpty()) {
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(loads.size(), Threads.daemon("bulkload"));
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
      starts.sort(Bytes.BYTES_COMPARATOR);
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
}
