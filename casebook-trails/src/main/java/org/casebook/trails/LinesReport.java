package org.casebook.trails;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one upload of log lines ({@link TrailsService#ingestLines}) did: the counts of a file
 * ingest's {@link IngestReport}, with the first rejected lines themselves in place of a rejects
 * file.
 *
 * @param rejectReasons rejected lines by category
 * @param rejects the first rejected lines, in line order (numbered from 1 within the upload)
 * @param rejectsLeftOut rejected lines not in {@code rejects}
 */
public record LinesReport(
    long lines,
    long accepted,
    long rejected,
    long cells,
    Map<String, Long> rejectReasons,
    List<Rejected> rejects,
    long rejectsLeftOut) {
  public LinesReport {
    rejectReasons = Map.copyOf(Objects.requireNonNull(rejectReasons, "rejectReasons is null"));
    rejects = List.copyOf(Objects.requireNonNull(rejects, "rejects is null"));
  }

  /** A rejected line: its number, why, and the line as read. */
  public record Rejected(long line, String reason, String text) {
    public Rejected {
      Objects.requireNonNull(reason, "reason is null");
      Objects.requireNonNull(text, "text is null");
    }
  }
}
