package org.casebook.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/**
 * Writes benchmark results as JSON under {@code bench-results/} (or {@code -Dcasebook.bench.dir}).
 */
public final class BenchResults {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private BenchResults() {}

  public static Path directory() {
    return Path.of(System.getProperty("casebook.bench.dir", "bench-results"));
  }

  /** Writes {@code value} to {@code <dir>/<name>-<timestamp>.json} and returns the path. */
  public static Path write(String name, Object value) {
    try {
      Path dir = Files.createDirectories(directory());
      Path file =
          dir.resolve(
              name + "-" + LocalDateTime.now(ZoneId.systemDefault()).format(STAMP) + ".json");
      Files.writeString(file, Json.writePretty(value) + System.lineSeparator());
      return file;
    } catch (IOException e) {
      throw LocalFileException.of("write benchmark results under", directory(), e);
    }
  }
}
