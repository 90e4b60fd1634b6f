package org.casebook.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/** Benchmark result files read back (they are written by core's {@code ResultFiles}). */
public final class BenchResults {
  private BenchResults() {}

  /** A result file read back (for {@code bench compare} and {@code bench trails-growth}). */
  static com.fasterxml.jackson.databind.JsonNode read(Path file) {
    InvalidInputException.check(Files.isRegularFile(file), "file", file + " is not a file");
    try {
      return Json.mapper().readTree(Files.readString(file));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new InvalidInputException("file", file + " is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }
}
