package org.casebook.trails.batch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.batch.MapReduceJobs;
import org.casebook.core.batch.hfile.HFileBulkLoad;
import org.casebook.core.batch.hfile.KeyValueShuffle;
import org.casebook.core.cli.Progress;
import org.casebook.trails.Behaviours;
import org.casebook.trails.HistoryTables;
import org.casebook.trails.IngestOptions;
import org.casebook.trails.IngestReport;
import org.casebook.trails.TrailsRowCodec;
import org.casebook.trails.wire.LogLines;
import org.casebook.trails.wire.RejectsFile;

/**
 * The bulk-load ingest (seed 000 loads its logs with a MapReduce job): one job reads the log in
 * splits, cleans every line with the Put path's rules ({@link LogLines#clean}), and emits the
 * events, tall and wide cells ({@link TrailsRowCodec#rowsOf}); core's {@link HFileBulkLoad} writes
 * them as HFiles, one or more per region, and moves them into the tables. The cells are the Put
 * path's (same keys, qualifiers and values), so both paths store the same data and a file loaded
 * twice holds the same cells.
 *
 * <p>Rejected lines: each map task writes its own to a side file (byte offset, reason, line); the
 * driver turns the offsets into line numbers with one pass over the log and writes the same rejects
 * file as the Put path.
 */
public final class TrailsBulkLoad {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(TrailsBulkLoad.class);
  static final String NAMESPACE = "casebook.trails.bulk.namespace";
  static final String HISTORY = "casebook.trails.bulk.history";
  static final String REJECTS = "casebook.trails.bulk.rejects";

  /**
   * Logs from this size on have their map output compressed on the LocalJobRunner. The map output
   * is the cells as the shuffle serialises them, about 4.2 bytes per byte of log (466 MB for the
   * 112 MB of 1M generated lines), and the LocalJobRunner keeps all of it until the job ends,
   * beside the reducers' merged copies and the HFiles: at the seed's 100M lines, tens of GB. With
   * LZ4 it is 3.4 times smaller (136 MB at 1M lines). Below this size it stays in the page cache,
   * where compressing it only costs CPU (a sixth more for a whole {@code bench trails --load bulk}
   * run of 1M lines, measured once each way).
   */
  public static final long COMPRESS_SHUFFLE_FROM_BYTES = 2L << 30;

  /**
   * Sort-buffer bytes a map fills per byte of log it reads: the cells as the shuffle serialises
   * them (about 4.2 per byte of generated log) and the buffer's 16-byte entry per output record.
   */
  static final int SHUFFLE_BYTES_PER_LOG_BYTE = 5;

  /** HBase's pure-Java LZ4 as a Hadoop codec: no native library needed. */
  static final String SHUFFLE_CODEC = "org.apache.hadoop.hbase.io.compress.aircompressor.Lz4Codec";

  /** Lines read from the log to cut the reducers' shares. */
  static final int SAMPLE_LINES = 10_000;

  /** The counter group holding one counter per reject category. */
  static final String REASONS = "casebook trails rejects";

  enum Counters {
    LINES,
    BYTES,
    ACCEPTED,
    REJECTED,
    CELLS
  }

  private TrailsBulkLoad() {}

  /**
   * Loads {@code input} (a local file) into the trails tables of {@code namespace}, with the HBase
   * and the Hadoop configuration of {@code context}; {@code localWork} is the scratch directory of
   * a LocalJobRunner run (on YARN the work goes under the cluster file system's {@code /tmp}, where
   * the log is copied first).
   */
  public static IngestReport run(
      SystemContext context,
      String namespace,
      java.nio.file.Path input,
      IngestOptions options,
      java.nio.file.Path localWork,
      Progress progress,
      Behaviours behaviours) {
    if (!Files.isRegularFile(input)) {
      throw LocalFileException.of("read", input, new java.io.FileNotFoundException("no such file"));
    }
    long t0 = System.nanoTime();
    TrailsRowCodec rows = TrailsRowCodec.in(namespace);
    Configuration conf = new Configuration(context.configuration());
    boolean local = MapReduceJobs.isLocal(conf);
    long logBytes = sizeOf(input);
    // The compressed HFiles of a log take less room than its text: its size is a safe bound.
    context.writes().requireSpace(logBytes, "a bulk load of " + input);
    if (local) {
      MapReduceJobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", "128");
      MapReduceJobs.setUnlessConfigured(
          conf,
          "mapreduce.input.fileinputformat.split.maxsize",
          Long.toString(localSplitBytes(logBytes, conf)));
      // Many small map outputs reach each reducer: merged a few dozen at a time, not ten, they are
      // read and written once instead of in several passes.
      MapReduceJobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.factor", "64");
      if (logBytes >= COMPRESS_SHUFFLE_FROM_BYTES) {
        MapReduceJobs.setUnlessConfigured(conf, "mapreduce.map.output.compress", "true");
        MapReduceJobs.setUnlessConfigured(
            conf, "mapreduce.map.output.compress.codec", SHUFFLE_CODEC);
      }
    }
    HFileBulkLoad.tuneLocal(conf);
    Path work =
        local
            ? new Path(localWork.toAbsolutePath().toUri())
            : new Path(
                "/tmp/casebook-" + System.getProperty("user.name"),
                "trails-bulk-" + UUID.randomUUID());
    List<TableName> tables = rows.tables(options.history());
    try {
      FileSystem fs = work.getFileSystem(conf);
      fs.delete(work, true);
      fs.mkdirs(work);
      Path log = new Path(input.toAbsolutePath().toUri());
      if (!local) {
        log = new Path(new Path(work, "input"), input.getFileName().toString());
        fs.copyFromLocalFile(false, true, new Path(input.toAbsolutePath().toUri()), log);
      }
      Path rejectsDir = new Path(work, "rejects");
      Path out = new Path(work, "hfiles");
      conf.set(NAMESPACE, rows.namespace());
      JobBehaviours.set(conf, behaviours);
      conf.setEnum(HISTORY, options.history());
      conf.set(REJECTS, rejectsDir.toString());
      // The tasks write their rejects to a file per task: no second attempt beside the first.
      conf.setBoolean("mapreduce.map.speculative", false);
      Job job = Job.getInstance(conf, "casebook-trails bulk load " + input.getFileName());
      job.setJarByClass(TrailsBulkLoad.class);
      job.setInputFormatClass(LogLineInputFormat.class);
      FileInputFormat.setInputPaths(job, log);
      job.setMapperClass(LineMapper.class);
      HFileBulkLoad.configure(
          job,
          context.connection(),
          tables,
          out,
          work,
          sample(input, rows, options.history(), SAMPLE_LINES, behaviours));
      MapReduceJobs.prepare(job, TrailsBulkLoad.class);
      long[] shown = {0};
      progress.detail("MapReduce job");
      MapReduceJobs.run(
          job,
          where -> {
            LOG.info("bulk load of {}: {}", input.getFileName(), where);
            progress.detail(where);
          },
          running -> {
            try {
              long bytes = running.getCounters().findCounter(Counters.BYTES).getValue();
              progress.advance(bytes - shown[0]);
              shown[0] = bytes;
            } catch (IOException e) {
              // A progress read that failed is skipped; the next one catches up.
              progress.detail("progress not readable now: " + e.getMessage());
            }
          });
      double jobSeconds = (System.nanoTime() - t0) / 1e9;
      org.apache.hadoop.mapreduce.Counters c = job.getCounters();
      progress.advance(c.findCounter(Counters.BYTES).getValue() - shown[0]);
      progress.detail("loading HFiles");
      HFileBulkLoad.Loaded loaded = HFileBulkLoad.load(context.connection(), conf, out, tables);
      LOG.info(
          "bulk load of {}: job {} s, {} HFiles loaded in {} s",
          input.getFileName(),
          String.format(java.util.Locale.ROOT, "%.2f", jobSeconds),
          loaded.hfiles(),
          String.format(java.util.Locale.ROOT, "%.2f", loaded.seconds()));
      RejectsFile.write(readRejects(fs, rejectsDir, input), options.rejectsFile());
      Map<String, Long> reasons = new TreeMap<>();
      CounterGroup group = c.getGroup(REASONS);
      for (Counter counter : group) {
        reasons.put(counter.getName(), counter.getValue());
      }
      return new IngestReport(
          input,
          c.findCounter(Counters.LINES).getValue(),
          c.findCounter(Counters.ACCEPTED).getValue(),
          c.findCounter(Counters.REJECTED).getValue(),
          c.findCounter(Counters.CELLS).getValue(),
          (System.nanoTime() - t0) / 1e9,
          options.rejectsFile(),
          reasons);
    } catch (IOException e) {
      throw StorageException.of("bulk-load " + input + " (work in " + work + ")", e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("bulk-load " + input, e);
    } finally {
      removeWork(conf, work);
    }
  }

  /**
   * The split size of a local job: a quarter of the log per core keeps both cores mapping, and no
   * split is larger than what one sort buffer holds of its output (about {@value
   * #SHUFFLE_BYTES_PER_LOG_BYTE} bytes per byte of log, cells and the buffer's own record entries):
   * a map whose output fits the buffer sorts and spills it once, where a larger one spills several
   * times and then merges its spills, reading and writing its whole output again.
   */
  static long localSplitBytes(long logBytes, Configuration conf) {
    long buffer = (long) conf.getInt("mapreduce.task.io.sort.mb", 128) << 20;
    double fill = conf.getFloat("mapreduce.map.sort.spill.percent", 0.8f);
    long fitsOneSpill = (long) (buffer * fill / SHUFFLE_BYTES_PER_LOG_BYTE);
    long perCore = logBytes / (4L * Runtime.getRuntime().availableProcessors());
    return Math.max(4L << 20, Math.min(fitsOneSpill, perCore));
  }

  /** Deletes the work directory (the log's copy, HFiles not loaded, side files), come what may. */
  private static void removeWork(Configuration conf, Path work) {
    try {
      work.getFileSystem(conf).delete(work, true);
    } catch (IOException e) {
      // The load's outcome stands; the directory is named in the warning for a manual clean-up.
      LOG.warn("bulk load: could not remove its work directory {}: {}", work, e.toString());
    }
  }

  private static long sizeOf(java.nio.file.Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }

  /**
   * The map tasks' rejects files, as rejects numbered by line: sorted by byte offset, the offsets
   * turned into line numbers by counting the log's newlines in one pass.
   */
  private static List<RejectsFile.Reject> readRejects(
      FileSystem fs, Path dir, java.nio.file.Path input) throws IOException {
    List<long[]> offsets = new ArrayList<>();
    List<String[]> texts = new ArrayList<>();
    if (fs.exists(dir)) {
      for (FileStatus f : fs.listStatus(dir)) {
        try (BufferedReader r =
            new BufferedReader(
                new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            int a = line.indexOf('\t');
            int b = line.indexOf('\t', a + 1);
            offsets.add(new long[] {Long.parseLong(line.substring(0, a)), texts.size()});
            texts.add(new String[] {line.substring(a + 1, b), line.substring(b + 1)});
          }
        }
      }
    }
    offsets.sort((x, y) -> Long.compare(x[0], y[0]));
    List<RejectsFile.Reject> out = new ArrayList<>(offsets.size());
    if (offsets.isEmpty()) {
      return out;
    }
    try (InputStream in = Files.newInputStream(input)) {
      byte[] buf = new byte[1 << 16];
      long pos = 0;
      long newlines = 0;
      int next = 0;
      int n;
      while (next < offsets.size() && (n = in.read(buf)) > 0) {
        for (int i = 0; i < n && next < offsets.size(); i++) {
          while (next < offsets.size() && offsets.get(next)[0] == pos + i) {
            String[] t = texts.get((int) offsets.get(next)[1]);
            out.add(new RejectsFile.Reject(newlines + 1, t[0], t[1]));
            next++;
          }
          if (buf[i] == '\n') {
            newlines++;
          }
        }
        pos += n;
      }
    }
    if (out.size() != offsets.size()) {
      throw new IOException(
          "the map tasks' rejects name offsets that are not line starts of " + input);
    }
    return out;
  }

  /**
   * The rows of {@code lines} lines read at evenly spaced places in the log: what the job will
   * write, in proportion, so the reducers can be given equal shares (a TeraSort-style sample).
   */
  static List<HFileBulkLoad.SampledRow> sample(
      java.nio.file.Path input,
      TrailsRowCodec rows,
      HistoryTables history,
      int lines,
      Behaviours behaviours)
      throws IOException {
    List<HFileBulkLoad.SampledRow> out = new ArrayList<>();
    long size = Files.size(input);
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(8 << 10);
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(input)) {
      for (int i = 0; i < lines && size > 0; i++) {
        long pos = size * i / lines;
        buf.clear();
        int n = ch.read(buf, pos);
        if (n <= 0) {
          break;
        }
        byte[] b = buf.array();
        // A line starts at the file's start or after a newline; lines longer than the buffer
        // are left out of the sample.
        int start = 0;
        if (pos > 0) {
          while (start < n && b[start] != '\n') {
            start++;
          }
          start++;
        }
        int end = start;
        while (end < n && b[end] != '\n') {
          end++;
        }
        if (start >= n || end >= n) {
          continue;
        }
        byte[] line = java.util.Arrays.copyOfRange(b, start, end);
        LogLines.Cleaned c =
            LogLines.clean(
                line, LogLines.lengthWithoutCarriageReturn(line, line.length), behaviours);
        if (c.event() != null) {
          rows.rowsOf(
              c.event(), history, (t, p) -> out.add(HFileBulkLoad.SampledRow.of(t.getName(), p)));
        }
      }
    }
    return out;
  }

  /** Cleans the lines of one split and emits their cells; rejects go to the task's side file. */
  public static final class LineMapper
      extends Mapper<LongWritable, Text, ImmutableBytesWritable, KeyValueShuffle.RowCells> {
    private TrailsRowCodec rows;
    private HistoryTables history;
    private Path rejectsFile;
    private OutputStream rejects;
    private HFileBulkLoad.Emitter emitter;
    private Behaviours behaviours;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      rows = TrailsRowCodec.in(conf.get(NAMESPACE));
      behaviours = JobBehaviours.of(conf);
      history = conf.getEnum(HISTORY, HistoryTables.BOTH);
      emitter = HFileBulkLoad.emitter(conf);
      // Named by task, not attempt: a retried task overwrites its failed attempt's files.
      rejectsFile =
          new Path(conf.get(REJECTS), "rejects-" + context.getTaskAttemptID().getTaskID().getId());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      byte[] raw = line.getBytes();
      context.getCounter(Counters.LINES).increment(1);
      context.getCounter(Counters.BYTES).increment(line.getLength() + 1L);
      LogLines.Cleaned c =
          LogLines.clean(
              raw, LogLines.lengthWithoutCarriageReturn(raw, line.getLength()), behaviours);
      if (c.event() == null) {
        context.getCounter(Counters.REJECTED).increment(1);
        context.getCounter(REASONS, c.category()).increment(1);
        if (rejects == null) {
          rejects = rejectsFile.getFileSystem(context.getConfiguration()).create(rejectsFile, true);
        }
        rejects.write(
            (offset.get()
                    + "\t"
                    + RejectsFile.oneLine(c.reason())
                    + "\t"
                    + RejectsFile.oneLine(c.shown())
                    + "\n")
                .getBytes(StandardCharsets.UTF_8));
        return;
      }
      long[] cells = {0};
      rows.rowsOf(
          c.event(),
          history,
          (table, put) -> cells[0] += emitter.emit(context, table.getName(), put));
      context.getCounter(Counters.ACCEPTED).increment(1);
      context.getCounter(Counters.CELLS).increment(cells[0]);
    }

    @Override
    protected void cleanup(Context context) throws IOException {
      if (rejects != null) {
        rejects.close();
      }
    }
  }
}
