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
 * hfileSplits} only for a bulk load.
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
      ImportMode mode,
      Layout layout,
      String splitComputation,
      int filesLoaded,
      List<Skipped> skipped,
      long users,
      long statuses,
      long cells,
      long bytes,
      long hfiles,
      long hfileSplits,
      Map<String, Double> phaseSeconds,
      double seconds) {
    boolean bulk = mode == ImportMode.BULKLOAD;
    long rate = seconds <= 0 ? 0 : Math.round((users + statuses) / seconds);
    return new ImportReport(
        mode.label(),
        layout.regions(),
        layout.keyRule(),
        splitComputation,
        filesLoaded,
        skipped.size(),
        skipped,
        users,
        statuses,
        cells,
        bytes,
        bulk ? hfiles : null,
        bulk ? hfileSplits : null,
        phaseSeconds,
        seconds,
        rate);
  }

  /** The layout the import wrote with. */
  @JsonIgnore
  public Layout layout() {
    return new Layout(regions, keyRule);
  }
}
