package org.casebook.trails;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What one ingest run did. {@code rejectReasons} counts rejected lines by category; every rejected
 * line is in {@code rejectsFile} with its line number and full reason.
 */
public record IngestReport(
    Path input,
    long lines,
    long accepted,
    long rejected,
    long cells,
    double seconds,
    Path rejectsFile,
    Map<String, Long> rejectReasons) {
  public IngestReport {
    Objects.requireNonNull(input, "input is null");
    Objects.requireNonNull(rejectsFile, "rejectsFile is null");
    rejectReasons = Map.copyOf(rejectReasons);
  }

  /** The report as printed (paths as plain strings, cells per second rounded). */
  public record Summary(
      String input,
      long lines,
      long accepted,
      long rejected,
      long cells,
      double seconds,
      long cellsPerSecond,
      String rejectsFile,
      Map<String, Long> rejectReasons) {}

  public Summary toJson() {
    return new Summary(
        input.toString(),
        lines,
        accepted,
        rejected,
        cells,
        seconds,
        Math.round(cellsPerSecond()),
        rejectsFile.toString(),
        new java.util.TreeMap<>(rejectReasons));
  }

  public double cellsPerSecond() {
    return seconds <= 0 ? 0 : cells / seconds;
  }
}
