package org.casebook.core.batch;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How every Casebook batch job is submitted: it says where it runs (the LocalJobRunner, or YARN at
 * the ResourceManager's address with the application id), ships what its tasks load when it runs on
 * a cluster (the job jar, core, HBase, Jackson), gives the task JVMs the JDK 17 options the HBase
 * client needs, fails within a bounded time when the ResourceManager cannot be reached, and turns a
 * failed job into an error carrying the first failed task's diagnostics — never a zero-result
 * summary.
 */
public final class MapReduceJobs {
  private static final Logger LOG = LoggerFactory.getLogger(MapReduceJobs.class);

  /** How long to try to reach the ResourceManager before failing (milliseconds). */
  public static final String CONNECT_TIMEOUT = "casebook.yarn.connect.timeout.ms";

  static final long DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

  /** What the HBase client needs on JDK 17, in every task and application-master JVM. */
  static final String JDK17_OPTS =
      "--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED"
          + " --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
          + " --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
          + " -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true";

  private MapReduceJobs() {}

  /** True when jobs of {@code conf} run in this JVM (no framework, or {@code local}). */
  public static boolean isLocal(Configuration conf) {
    String framework = conf.get("mapreduce.framework.name");
    return framework == null || framework.equals("local");
  }

  /**
   * Where jobs of {@code conf} run, in words: {@code MapReduce on YARN at host:port} or the
   * LocalJobRunner.
   */
  public static String where(Configuration conf) {
    if (isLocal(conf)) {
      return "MapReduce in this process (LocalJobRunner)";
    }
    return "MapReduce on "
        + conf.get("mapreduce.framework.name").toUpperCase(java.util.Locale.ROOT)
        + " at "
        + conf.get(
            "yarn.resourcemanager.address", "0.0.0.0:8032 (the default: no yarn-site.xml loaded?)");
  }

  /**
   * Prepares {@code job} to run where its configuration says: on a cluster, ships the jars of
   * {@code classes} (plus HBase's and core's) and adds the JDK 17 options to the task JVMs; in this
   * process, ships nothing (the LocalJobRunner runs on this classpath).
   */
  public static void prepare(Job job, Class<?>... classes) throws IOException {
    Configuration conf = job.getConfiguration();
    if (classes.length > 0) {
      // Under `hadoop jar` the job's classes come from RunJar's class loader, while
      // HBaseConfiguration.create() pins HBase's (the parent): resolve the job's classes with
      // theirs.
      conf.setClassLoader(classes[0].getClassLoader());
    }
    if (isLocal(conf)) {
      conf.set("mapreduce.framework.name", "local");
      conf.unset("tmpjars");
      return;
    }
    TableMapReduceUtil.addDependencyJars(job);
    Class<?>[] all = Arrays.copyOf(classes, classes.length + 5);
    all[classes.length] = MapReduceJobs.class;
    all[classes.length + 1] = com.fasterxml.jackson.databind.ObjectMapper.class;
    all[classes.length + 2] = com.fasterxml.jackson.core.JsonFactory.class;
    all[classes.length + 3] = com.fasterxml.jackson.annotation.JsonInclude.class;
    all[classes.length + 4] = com.fasterxml.jackson.datatype.jdk8.Jdk8Module.class;
    TableMapReduceUtil.addDependencyJarsForClasses(conf, all);
    // The pure-Java codecs, for tasks that write HFiles of a compressed family; absent from a
    // stock `hadoop jar` classpath, where the cluster's own codecs serve.
    for (String codecClass :
        new String[] {
          "org.apache.hadoop.hbase.io.compress.aircompressor.ZstdCodec",
          "io.airlift.compress.zstd.ZstdCompressor"
        }) {
      try {
        TableMapReduceUtil.addDependencyJarsForClasses(
            conf, Class.forName(codecClass, false, MapReduceJobs.class.getClassLoader()));
      } catch (ClassNotFoundException absent) {
        LOG.debug("{} is not on this classpath: not shipped", codecClass);
      }
    }
    prepareTasks(conf);
    TableMapReduceUtil.initCredentials(job);
  }

  /**
   * Prepares the configuration of a job that a tool of HBase's submits itself (such as {@code
   * ExportSnapshot}, which ships its own jars): in this process, the LocalJobRunner; on a cluster,
   * the JDK 17 options in the task and application-master JVMs, and Hadoop's own bound on reaching
   * the ResourceManager (the tool submits the job itself, so {@link #run}'s timed submission does
   * not apply).
   */
  public static void prepareTasks(Configuration conf) {
    if (isLocal(conf)) {
      conf.set("mapreduce.framework.name", "local");
      return;
    }
    long timeout = conf.getLong(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT_MS);
    // The client's own default retries an unreachable ResourceManager for 15 minutes.
    setUnlessConfigured(conf, "yarn.resourcemanager.connect.max-wait.ms", Long.toString(timeout));
    setUnlessConfigured(
        conf,
        "yarn.resourcemanager.connect.retry-interval.ms",
        Long.toString(Math.min(2000, timeout)));
    for (String key :
        new String[] {
          "mapreduce.map.java.opts",
          "mapreduce.reduce.java.opts",
          "yarn.app.mapreduce.am.command-opts"
        }) {
      String current = conf.get(key, "");
      if (!current.contains("java.base/java.lang=")) {
        conf.set(key, (current + " " + JDK17_OPTS).strip());
      }
    }
  }

  /**
   * Submits {@code job}, announces where it runs and its id to {@code announce}, waits for it
   * (calling {@code onProgress} about twice a second), and returns when it succeeded. An
   * unreachable ResourceManager, a failed or killed job: a {@link BatchJobException} naming the
   * address or the first failed task's error.
   */
  public static void run(Job job, Consumer<String> announce, Consumer<Job> onProgress)
      throws IOException, InterruptedException {
    Objects.requireNonNull(announce, "announce is null");
    Configuration conf = job.getConfiguration();
    boolean local = isLocal(conf);
    String where = where(conf);
    submit(job, local, where, conf.getLong(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT_MS));
    String id = job.getJobID().toString();
    announce.accept(where + ", " + (local ? id : id.replaceFirst("^job_", "application_")));
    long nextProgress = 0;
    try {
      while (!job.isComplete()) {
        // The LocalJobRunner answers in-process; on a cluster each check is an RPC.
        Thread.sleep(local ? 20 : 1000);
        if (System.nanoTime() >= nextProgress) {
          onProgress.accept(job);
          nextProgress = System.nanoTime() + 500_000_000L;
        }
      }
    } catch (InterruptedException e) {
      // Nobody waits for the answer any more (shutdown, a cancelled request): stop the job too.
      try {
        job.killJob();
      } catch (IOException killFailed) {
        e.addSuppressed(killFailed);
      }
      throw e;
    }
    onProgress.accept(job);
    if (!job.isSuccessful()) {
      throw new BatchJobException(
          where
              + ": job "
              + id
              + " "
              + job.getJobState()
              + firstTaskError(job)
              + " ("
              + job.getStatus().getFailureInfo()
              + ")",
          null);
    }
  }

  /**
   * Submits the job. On a cluster, within {@code timeoutMillis}: Hadoop's own retries of an
   * unreachable ResourceManager (failover sleeps of 15 s and more, IPC retries within each) do not
   * honour one overall bound, so the submission runs on its own thread and is interrupted.
   */
  private static void submit(Job job, boolean local, String where, long timeoutMillis)
      throws IOException, InterruptedException {
    if (local) {
      try {
        job.submit();
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("job class missing: " + e.getMessage(), e);
      }
      return;
    }
    java.util.concurrent.ExecutorService submitter =
        java.util.concurrent.Executors.newSingleThreadExecutor(
            org.casebook.core.Threads.daemon("job-submit"));
    java.util.concurrent.Future<Void> submitted =
        submitter.submit(
            () -> {
              job.submit();
              return null;
            });
    try {
      submitted.get(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      submitted.cancel(true);
      throw new BatchJobException(
          where
              + ": the ResourceManager did not accept "
              + job.getJobName()
              + " within "
              + timeoutMillis
              + " ms (is it running? set "
              + CONNECT_TIMEOUT
              + " to wait longer)",
          e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new BatchJobException(
          where + ": could not submit " + job.getJobName() + ": " + e.getCause().getMessage(),
          e.getCause());
    } finally {
      submitter.shutdownNow();
    }
  }

  /** The first failed task attempt's diagnostics, or an empty string. */
  private static String firstTaskError(Job job) {
    try {
      for (int from = 0; ; ) {
        TaskCompletionEvent[] events = job.getTaskCompletionEvents(from, 100);
        if (events.length == 0) {
          return "";
        }
        for (TaskCompletionEvent e : events) {
          if (e.getStatus() == TaskCompletionEvent.Status.FAILED
              || e.getStatus() == TaskCompletionEvent.Status.TIPFAILED) {
            String[] diagnostics = job.getTaskDiagnostics(e.getTaskAttemptId());
            String first =
                diagnostics == null || diagnostics.length == 0
                    ? "no diagnostics"
                    : diagnostics[0].lines().limit(3).reduce((a, b) -> a + " | " + b).orElse("");
            return "; first failed task " + e.getTaskAttemptId() + ": " + first;
          }
        }
        from += events.length;
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not read the failed job's task diagnostics: {}", e.getMessage());
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /**
   * Sets {@code key} unless someone configured it: a value from Hadoop's or HBase's {@code
   * *-default.xml} does not count ({@code setIfUnset} would keep it).
   */
  public static void setUnlessConfigured(Configuration conf, String key, String value) {
    String[] sources = conf.getPropertySources(key);
    boolean configured = false;
    if (sources != null) {
      for (String source : sources) {
        configured |= !source.endsWith("-default.xml");
      }
    }
    if (!configured) {
      conf.set(key, value);
    }
  }
}
