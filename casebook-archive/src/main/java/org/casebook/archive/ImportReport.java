package org.casebook.archive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What an import did: the files loaded, the files skipped (with why), counts and time. */
public record ImportReport(String mode, Layout layout, String splitComputation, int filesLoaded, List<Skipped> skipped,
                           long users, long statuses, long cells, long bytes, long hfiles, long hfileSplits,
                           Map<String, Double> phaseSeconds, double seconds) {
  /** A quarantined file. */
  public record Skipped(String file, String reason, int attempts, String quarantinedTo) {}

  public ImportReport {
    skipped = List.copyOf(skipped);
    phaseSeconds = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(phaseSeconds));
  }

  public double recordsPerSecond() {
    return seconds <= 0 ? 0 : (users + statuses) / seconds;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", mode);
    m.put("regions", layout.regions());
    m.put("keyRule", layout.keyRule());
    m.put("splitComputation", splitComputation);
    m.put("filesLoaded", filesLoaded);
    m.put("filesSkipped", skipped.size());
    m.put("skipped", skipped);
    m.put("users", users);
    m.put("statuses", statuses);
    m.put("cells", cells);
    m.put("bytes", bytes);
    if (mode.equals("bulkload")) {
      m.put("hfiles", hfiles);
      m.put("hfileSplits", hfileSplits);
    }
    m.put("phaseSeconds", phaseSeconds);
    m.put("seconds", seconds);
    m.put("recordsPerSecond", Math.round(recordsPerSecond()));
    return m;
  }
}
