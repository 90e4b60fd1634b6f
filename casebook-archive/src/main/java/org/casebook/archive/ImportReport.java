package org.casebook.archive;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an import did: the files loaded, the files skipped (with why), counts and time. Serialised
 * as it is (the CLI's and the tool's JSON report, the REST job's result); {@code hfiles} and {@code
 * hfileSplits} only for a bulk load. {@code badFileReads} and {@code badFileMillis} are what the
 * skipped files cost: the reads made of them and the time those took.
 */
public record ImportReport(
    String mode,
    int regions,
    boolean keyRule,
    String splitComputation,
    int filesLoaded,
    int filesSkipped,
    List<Skipped> skipped,
    long users,
    long statuses,
    long cells,
    long bytes,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long hfiles,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long hfileSplits,
    long badFileReads,
    long badFileMillis,
    Map<String, Double> phaseSeconds,
    double seconds,
    long recordsPerSecond) {
  /** A quarantined file. */
  public record Skipped(String file, String reason, int attempts, String quarantinedTo) {}

  public ImportReport {
    skipped = List.copyOf(skipped);
    phaseSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(phaseSeconds));
  }

  static ImportReport of(
      ImportMode mode, Layout layout, String splitComputation, LoadOutcome loaded) {
    boolean bulk = mode == ImportMode.BULKLOAD;
    double seconds = loaded.seconds();
    long rate = seconds <= 0 ? 0 : Math.round((loaded.users() + loaded.statuses()) / seconds);
    return new ImportReport(
        mode.label(),
        layout.regions(),
        layout.keyRule(),
        splitComputation,
        loaded.filesLoaded(),
        loaded.skipped().size(),
        loaded.skipped(),
        loaded.users(),
        loaded.statuses(),
        loaded.cells(),
        loaded.bytes(),
        bulk ? loaded.hfiles() : null,
        bulk ? loaded.hfileSplits() : null,
        loaded.badFileReads(),
        loaded.badFileMillis(),
        loaded.phaseSeconds(),
        seconds,
        rate);
  }

  /** The layout the import wrote with. */
  @JsonIgnore
  public Layout layout() {
    return new Layout(regions, keyRule);
  }
}
