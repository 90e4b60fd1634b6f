package org.casebook.trails;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What one ingest run did. {@code rejectReasons} counts rejected lines by category; every
 * rejected line is in {@code rejectsFile} with its line number and full reason.
 */
public record IngestReport(Path input, long lines, long accepted, long rejected, long cells, double seconds,
                           Path rejectsFile, Map<String, Long> rejectReasons) {
  public IngestReport {
    Objects.requireNonNull(input, "input is null");
    Objects.requireNonNull(rejectsFile, "rejectsFile is null");
    rejectReasons = Map.copyOf(rejectReasons);
  }

  /** The report as JSON-ready values (paths as plain strings). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("input", input.toString());
    m.put("lines", lines);
    m.put("accepted", accepted);
    m.put("rejected", rejected);
    m.put("cells", cells);
    m.put("seconds", seconds);
    m.put("cellsPerSecond", Math.round(cellsPerSecond()));
    m.put("rejectsFile", rejectsFile.toString());
    m.put("rejectReasons", rejectReasons);
    return m;
  }

  public double cellsPerSecond() {
    return seconds <= 0 ? 0 : cells / seconds;
  }
}
