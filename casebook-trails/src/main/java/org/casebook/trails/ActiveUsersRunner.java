package org.casebook.trails;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.LocalFiles;
import org.casebook.core.StorageException;

/**
 * Launches {@link ActiveUsersJob} (the seed-000 task as MapReduce) and reads its output back into
 * trails: the LocalJobRunner when the configuration names no cluster framework, YARN when it does.
 * The work directory holds the user list and the job output.
 */
final class ActiveUsersRunner {
  private final Configuration base;
  private final String namespace;

  ActiveUsersRunner(Configuration base, String namespace) {
    this.base = base;
    this.namespace = namespace;
  }

  Map<String, TrailsService.Trail> run(
      List<String> users, LocalDate from, LocalDate to, Path workDir) {
    new TrailQuery(users, from, to, Set.of(), Set.of());
    Configuration jobConf = new Configuration(base);
    if (jobConf.get("mapreduce.framework.name") == null) {
      jobConf.set("mapreduce.framework.name", "local");
    }
    Path usersFile = workDir.resolve("users.txt");
    Path output = workDir.resolve("output");
    try {
      Files.createDirectories(workDir);
      Files.write(usersFile, users, StandardCharsets.UTF_8);
      LocalFiles.deleteRecursively(output);
    } catch (IOException e) {
      throw LocalFileException.of("prepare", workDir, e);
    }
    ActiveUsersJob.Outcome outcome;
    try {
      outcome =
          ActiveUsersJob.run(
              jobConf,
              new org.apache.hadoop.fs.Path(usersFile.toUri()),
              from,
              to,
              new org.apache.hadoop.fs.Path(output.toUri()),
              namespace);
    } catch (IOException e) {
      throw StorageException.of("run the active-users MapReduce job", e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("run the active-users MapReduce job", e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("MapReduce job classes missing: " + e.getMessage(), e);
    }
    if (!outcome.succeeded()) {
      throw new IllegalStateException("MapReduce job failed; see the job log");
    }
    return readOutput(output);
  }

  /** The job's {@code uid<TAB>[events as JSON]} lines, by uid. */
  private static Map<String, TrailsService.Trail> readOutput(Path output) {
    Map<String, TrailsService.Trail> out = new TreeMap<>();
    Path current = output;
    try (Stream<Path> parts = Files.list(output)) {
      List<Path> files =
          parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
      for (Path part : files) {
        current = part;
        for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
          int tab = line.indexOf('\t');
          String uid = line.substring(0, tab);
          out.put(uid, new TrailsService.Trail(uid, parseEvents(uid, line.substring(tab + 1))));
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("read the job output", current, e);
    }
    return out;
  }

  private static List<Event> parseEvents(String uid, String json) throws IOException {
    List<Event> events = new ArrayList<>();
    for (JsonNode n : Json.mapper().readTree(json)) {
      LogParser.Parsed p = LogParser.parse(n.toString());
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
