package org.casebook.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The bulk-load path: for each data table a MapReduce job streams the JSON files, writes HFiles
 * for that pre-split table (HFileOutputFormat2: one reducer per region, so every HFile belongs to
 * exactly one region), and {@link BulkLoadHFiles} moves them in. The first job (user table) does
 * SK-bad: a file that fails its validating reads is quarantined with a reason file, so the later
 * jobs never see it. One job per table because HBase 2.6 keeps the multi-table variant's
 * configuration type package-private.
 */
public final class ArchiveBulkLoad {
  static final String ATTEMPTS = "casebook.archive.attempts";
  static final String QUARANTINE = "casebook.archive.quarantine";
  static final String NAMESPACE = "casebook.archive.namespace";
  static final String TARGET = "casebook.archive.target";
  static final String REGIONS = "casebook.archive.regions";
  static final String KEY_RULE = "casebook.archive.keyrule";

  /** Job counters. */
  public enum Counters { FILES_LOADED, FILES_QUARANTINED, USERS, STATUSES, PUTS }

  /** Which table a job writes. */
  enum Target { USER, STATUS, INDEX }

  /** What the three jobs did. */
  public record Outcome(long filesLoaded, long filesQuarantined, long users, long statuses, long hfiles, double seconds) {}

  private ArchiveBulkLoad() {}

  /** Runs the three jobs and the bulk loads; {@code work} is a scratch directory on the job's file system. */
  public static Outcome run(Configuration base, ArchiveSchema schema, Layout layout, List<java.nio.file.Path> files,
                            Path work, Path quarantine, int attempts) throws Exception {
    long t0 = System.nanoTime();
    Configuration conf = new Configuration(base);
    if (conf.get("mapreduce.framework.name") == null) {
      conf.set("mapreduce.framework.name", "local");
    }
    conf.setInt(ATTEMPTS, attempts);
    conf.setInt("mapreduce.map.maxattempts", attempts + 1);
    conf.set(QUARANTINE, quarantine.toString());
    conf.set(NAMESPACE, schema.namespace());
    conf.setInt(REGIONS, layout.regions());
    conf.setBoolean(KEY_RULE, layout.keyRule());
    long loaded = 0;
    long quarantined = 0;
    long users = 0;
    long statuses = 0;
    long hfiles = 0;
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      for (Target target : Target.values()) {
        TableName table = switch (target) {
          case USER -> schema.user();
          case STATUS -> schema.status();
          case INDEX -> schema.statusIndex();
        };
        List<Path> inputs = new ArrayList<>();
        for (java.nio.file.Path f : files) {
          if (java.nio.file.Files.exists(f)) {
            inputs.add(new Path(f.toUri()));
          }
        }
        if (inputs.isEmpty()) {
          break;
        }
        Path out = new Path(work, target.name().toLowerCase(java.util.Locale.ROOT));
        out.getFileSystem(conf).delete(out, true);
        Job job = Job.getInstance(conf, "casebook-archive bulk load " + table);
        job.getConfiguration().set(TARGET, target.name());
        job.setJarByClass(ArchiveBulkLoad.class);
        job.setInputFormatClass(WholeFileInputFormat.class);
        FileInputFormat.setInputPaths(job, inputs.toArray(new Path[0]));
        job.setMapperClass(ArchiveHFileMapper.class);
        job.setMapOutputKeyClass(ImmutableBytesWritable.class);
        job.setMapOutputValueClass(Put.class);
        FileOutputFormat.setOutputPath(job, out);
        try (Table t = connection.getTable(table); RegionLocator locator = connection.getRegionLocator(table)) {
          HFileOutputFormat2.configureIncrementalLoad(job, t.getDescriptor(), locator);
        }
        TableMapReduceUtil.addDependencyJarsForClasses(job.getConfiguration(), ArchiveBulkLoad.class,
            com.fasterxml.jackson.databind.ObjectMapper.class);
        if (!job.waitForCompletion(false)) {
          throw new IOException("bulk-load job for " + table + " failed; see the job log");
        }
        org.apache.hadoop.mapreduce.Counters c = job.getCounters();
        if (target == Target.USER) {
          loaded = c.findCounter(Counters.FILES_LOADED).getValue();
          quarantined = c.findCounter(Counters.FILES_QUARANTINED).getValue();
          users = c.findCounter(Counters.USERS).getValue();
          statuses = c.findCounter(Counters.STATUSES).getValue();
        }
        hfiles += countHFiles(out.getFileSystem(conf), out);
        BulkLoadHFiles.create(conf).bulkLoad(table, out);
        // On a local file system the load copies the HFiles; the job output is scratch either way.
        out.getFileSystem(conf).delete(out, true);
      }
    }
    return new Outcome(loaded, quarantined, users, statuses, hfiles, (System.nanoTime() - t0) / 1e9);
  }

  private static long countHFiles(FileSystem fs, Path dir) throws IOException {
    long n = 0;
    if (!fs.exists(dir)) {
      return 0;
    }
    for (FileStatus s : fs.listStatus(dir)) {
      if (s.isDirectory() && !s.getPath().getName().startsWith("_")) {
        for (FileStatus f : fs.listStatus(s.getPath())) {
          if (f.isFile() && !f.getPath().getName().startsWith(".")) {
            n++;
          }
        }
      }
    }
    return n;
  }

  /** Moves a file to the quarantine with a reason file (idempotent if it is already there). */
  static void quarantine(Configuration conf, Path file, String reason, int attempts) throws IOException {
    Path dir = new Path(conf.get(QUARANTINE));
    FileSystem fs = dir.getFileSystem(conf);
    fs.mkdirs(dir);
    Path target = new Path(dir, file.getName());
    if (fs.exists(file)) {
      fs.delete(target, false);
      if (!fs.rename(file, target)) {
        throw new IOException("could not move " + file + " to " + target);
      }
    }
    try (OutputStream out = fs.create(new Path(dir, Quarantine.reasonFileName(file.getName())), true)) {
      out.write(Quarantine.text(file.toString(), attempts, reason).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Streams one file; emits the target table's Puts, keyed by row. */
  public static final class ArchiveHFileMapper extends Mapper<Text, NullWritable, ImmutableBytesWritable, Put> {
    @Override
    protected void map(Text file, NullWritable none, Context context) throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      Path path = new Path(file.toString());
      FileSystem fs = path.getFileSystem(conf);
      Target target = Target.valueOf(conf.get(TARGET));
      Layout layout = new Layout(conf.getInt(REGIONS, 1), conf.getBoolean(KEY_RULE, true));
      if (target == Target.USER) {
        int attempts = conf.getInt(ATTEMPTS, 2);
        String failure = ArchiveReader.validate(() -> fs.open(path), attempts).orElse(null);
        if (failure != null) {
          quarantine(conf, path, failure, attempts);
          context.getCounter(Counters.FILES_QUARANTINED).increment(1);
          return;
        }
        context.getCounter(Counters.FILES_LOADED).increment(1);
      }
      try (InputStream in = fs.open(path)) {
        ArchiveReader.read(in, new ArchiveReader.Sink() {
          @Override
          public void user(UserRecord user) throws IOException {
            context.getCounter(Counters.USERS).increment(1);
            if (target == Target.USER) {
              emit(ArchiveStore.userPut(layout, user));
            }
          }

          @Override
          public void status(StatusRecord status) throws IOException {
            context.getCounter(Counters.STATUSES).increment(1);
            List<Put> puts = ArchiveStore.statusPuts(layout, status);
            emit(switch (target) {
              case STATUS -> puts.get(0);
              case USER -> puts.get(1);
              case INDEX -> puts.get(2);
            });
          }

          private void emit(Put put) throws IOException {
            try {
              context.write(new ImmutableBytesWritable(put.getRow()), put);
              context.getCounter(Counters.PUTS).increment(1);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new java.io.InterruptedIOException("interrupted");
            }
          }
        });
      } catch (BadInputException e) {
        throw new IOException(path + " validated but failed on the second read: " + e.getMessage(), e);
      }
    }
  }
}
