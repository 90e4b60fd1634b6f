package org.casebook.trails;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What one ingest run did. {@code rejectReasons} counts rejected lines by reason; every rejected
 * line is in {@code rejectsFile} with its line number.
 */
public record IngestReport(Path input, long lines, long accepted, long rejected, long cells, double seconds,
                           Path rejectsFile, Map<String, Long> rejectReasons) {
  public IngestReport {
    Objects.requireNonNull(input, "input is null");
    Objects.requireNonNull(rejectsFile, "rejectsFile is null");
    rejectReasons = Map.copyOf(rejectReasons);
  }

  public double cellsPerSecond() {
    return seconds <= 0 ? 0 : cells / seconds;
  }
}
