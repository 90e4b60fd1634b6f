package org.casebook.archive;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one load of input files did (the bulk load's job and loads, or the put path), before it
 * becomes an {@link ImportReport}; {@code hfiles} and {@code hfileSplits} are 0 for puts.
 *
 * @param skipped the files quarantined whole, with why
 * @param salvaged the files loaded but for the records they set aside
 * @param badFileReads reads made of the skipped files
 * @param badFileMillis the time those reads took
 * @param phaseSeconds the load's phases in order (job and load, or write and memstore flush)
 */
public record LoadOutcome(
    int filesLoaded,
    List<ImportReport.Skipped> skipped,
    List<ImportReport.Salvaged> salvaged,
    long users,
    long statuses,
    long cells,
    long bytes,
    long hfiles,
    long hfileSplits,
    long badFileReads,
    long badFileMillis,
    Map<String, Double> phaseSeconds,
    double seconds) {
  public LoadOutcome {
    skipped = List.copyOf(skipped);
    salvaged = List.copyOf(salvaged);
    phaseSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(phaseSeconds));
  }
}
