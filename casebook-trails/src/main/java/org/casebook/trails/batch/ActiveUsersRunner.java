package org.casebook.trails.batch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.core.StorageException;
import org.casebook.trails.Behaviours;
import org.casebook.trails.Event;
import org.casebook.trails.Trail;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.wire.LogParser;

/**
 * Launches {@link ActiveUsersJob} (the seed-000 task as MapReduce) and reads its output back into
 * trails: the LocalJobRunner when the configuration names no cluster framework, YARN when it does.
 * The work directory (user list and job output) is on the job's file system: local next to embedded
 * HBase, the cluster's default file system (HDFS) on YARN, where every task can read it.
 */
public final class ActiveUsersRunner {
  private final Configuration base;
  private final String namespace;

  /** On the trails tables of {@code namespace}, with the Hadoop configuration {@code base}. */
  public ActiveUsersRunner(Configuration base, String namespace) {
    this.base = base;
    this.namespace = namespace;
  }

  /**
   * Runs the job; {@code localWorkDir} is used by the LocalJobRunner, a directory under the cluster
   * file system's {@code /tmp} on YARN. {@code announce} hears where the job runs and its id.
   */
  public Map<String, Trail> run(
      List<String> users,
      LocalDate from,
      LocalDate to,
      java.nio.file.Path localWorkDir,
      Consumer<String> announce,
      Behaviours behaviours) {
    new TrailQuery(users, from, to, Set.of(), Set.of());
    Configuration jobConf = new Configuration(base);
    Path work = JobWorkDirs.of(jobConf, localWorkDir);
    Path usersFile = new Path(work, "users.txt");
    Path output = new Path(work, "output");
    try {
      FileSystem fs = work.getFileSystem(jobConf);
      fs.delete(work, true);
      fs.mkdirs(work);
      try (OutputStream out = fs.create(usersFile, true)) {
        out.write((String.join("\n", users) + "\n").getBytes(StandardCharsets.UTF_8));
      }
      ActiveUsersJob.run(jobConf, usersFile, from, to, output, namespace, announce, behaviours);
      Map<String, Trail> trails = readOutput(fs, output, behaviours);
      fs.delete(work, true);
      return trails;
    } catch (IOException e) {
      throw StorageException.of("run the active-users MapReduce job in " + work, e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("run the active-users MapReduce job", e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("MapReduce job classes missing: " + e.getMessage(), e);
    }
  }

  /** The job's {@code uid<TAB>[events as JSON]} lines, by uid. */
  private static Map<String, Trail> readOutput(FileSystem fs, Path output, Behaviours behaviours)
      throws IOException {
    Map<String, Trail> out = new TreeMap<>();
    List<Path> parts = new ArrayList<>();
    for (FileStatus s : fs.listStatus(output)) {
      if (s.getPath().getName().startsWith("part-")) {
        parts.add(s.getPath());
      }
    }
    parts.sort(null);
    for (Path part : parts) {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(fs.open(part), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          int tab = line.indexOf('\t');
          String uid = line.substring(0, tab);
          out.put(uid, new Trail(uid, parseEvents(uid, line.substring(tab + 1), behaviours)));
        }
      }
    }
    return out;
  }

  private static List<Event> parseEvents(String uid, String json, Behaviours behaviours)
      throws IOException {
    List<Event> events = new ArrayList<>();
    for (LogParser.Parsed p : LogParser.parseAll(json, behaviours)) {
      events.add(
          p.event()
              .orElseThrow(
                  () ->
                      new IOException(
                          "job wrote an unreadable event for " + uid + ": " + p.reason())));
    }
    return events;
  }
}
