package org.casebook.core.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/**
 * Writes a measurement's results (a benchmark's, {@code hotspot}'s) as JSON under {@code
 * bench-results/} (or {@code -Dcasebook.bench.dir}), with the machine they were measured on.
 */
public final class ResultFiles {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private ResultFiles() {}

  public static Path directory() {
    return Path.of(System.getProperty("casebook.bench.dir", "bench-results"));
  }

  /**
   * Writes {@code value} to {@code <dir>/<name>-<timestamp>.json}, with a {@code machine} field
   * added (cores, memory, heap, JVM, OS, HBase) so that runs can be compared, and returns the path.
   * The JVM's arguments are left out: a {@code -D} may hold a secret.
   */
  public static Path write(String name, Object value) {
    try {
      Path dir = Files.createDirectories(directory());
      Path file =
          dir.resolve(
              name + "-" + LocalDateTime.now(ZoneId.systemDefault()).format(STAMP) + ".json");
      com.fasterxml.jackson.databind.JsonNode tree = Json.mapper().valueToTree(value);
      if (tree instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
        object.set("machine", Json.mapper().valueToTree(machine()));
      }
      Files.writeString(file, Json.writePretty(tree) + System.lineSeparator());
      return file;
    } catch (IOException e) {
      throw LocalFileException.of("write benchmark results under", directory(), e);
    }
  }

  /** What a figure depends on besides the code: the machine and the software under it. */
  public record Machine(
      int cores,
      long memoryBytes,
      long maxHeapBytes,
      String jvm,
      String collector,
      List<String> jvmOptions,
      String os,
      String hbase) {}

  public static Machine machine() {
    long memory = -1;
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      memory = os.getTotalMemorySize();
    }
    return new Machine(
        Runtime.getRuntime().availableProcessors(),
        memory,
        Runtime.getRuntime().maxMemory(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        String.join(
            ", ",
            java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.GarbageCollectorMXBean::getName)
                .toList()),
        // The -X/-XX options (heap, collector settings): the launcher's and the user's.
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("-X"))
            .toList(),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        org.apache.hadoop.hbase.util.VersionInfo.getVersion());
  }
}
