package org.casebook.archive;

import java.time.Instant;
import java.util.Objects;

/**
 * The results of one run of seed 001's experiment ({@code casebook bench archive}), as recorded in
 * the archive's {@code meta} table: when, and the JSON document the run wrote.
 */
public record RecordedExperiment(Instant recordedAt, String resultsJson) {
  public RecordedExperiment {
    Objects.requireNonNull(recordedAt, "recordedAt is null");
    Objects.requireNonNull(resultsJson, "resultsJson is null");
  }
}
