package org.casebook.trails.batch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.core.StorageException;
import org.casebook.trails.Behaviours;
import org.casebook.trails.TrailCondition;

/**
 * Launches {@link ConditionMatchJob} and reads the matching uids back: the LocalJobRunner when the
 * configuration names no cluster framework, YARN when it does (the output then goes under the
 * cluster file system's {@code /tmp}, where every task can write it).
 */
public final class ConditionMatchRunner {
  private final Configuration base;
  private final String namespace;

  /** On the trails tables of {@code namespace}, with the Hadoop configuration {@code base}. */
  public ConditionMatchRunner(Configuration base, String namespace) {
    this.base = base;
    this.namespace = namespace;
  }

  /** Runs the job; the matching uids, sorted. {@code announce} hears where the job runs. */
  public List<String> run(
      TrailCondition condition,
      LocalDate from,
      LocalDate to,
      java.nio.file.Path localWorkDir,
      Consumer<String> announce,
      Behaviours behaviours) {
    Configuration jobConf = new Configuration(base);
    Path work = JobWorkDirs.of(jobConf, localWorkDir);
    Path output = new Path(work, "output");
    try {
      FileSystem fs = work.getFileSystem(jobConf);
      fs.delete(work, true);
      fs.mkdirs(work);
      ConditionMatchJob.run(jobConf, condition, from, to, output, namespace, announce, behaviours);
      List<String> users = readOutput(fs, output);
      fs.delete(work, true);
      return users;
    } catch (IOException e) {
      throw StorageException.of("run the condition MapReduce job in " + work, e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("run the condition MapReduce job", e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("MapReduce job classes missing: " + e.getMessage(), e);
    }
  }

  /** The uids of the job's part files (one per line), sorted. */
  private static List<String> readOutput(FileSystem fs, Path output) throws IOException {
    List<String> users = new ArrayList<>();
    for (FileStatus s : fs.listStatus(output)) {
      if (!s.getPath().getName().startsWith("part-")) {
        continue;
      }
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(fs.open(s.getPath()), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          users.add(line);
        }
      }
    }
    users.sort(null);
    return users;
  }
}
