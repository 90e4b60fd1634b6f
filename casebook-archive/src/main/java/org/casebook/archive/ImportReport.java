package org.casebook.archive;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an import did: the files loaded, the files skipped (with why), counts and time. Serialised
 * as it is (the CLI's and the tool's JSON report, the REST job's result); {@code hfiles} and {@code
 * hfileSplits} only for a bulk load. {@code badFileReads} and {@code badFileMillis} are what the
 * skipped files cost: the reads made of them and the time those took. {@code filesSkipped} are the
 * files quarantined whole; {@code filesSalvaged} the files that loaded their good records and set
 * bad ones aside ({@code salvaged}, each with its rejects file); {@code recordsLoaded} the user
 * objects loaded (the same as {@code users}), {@code recordsSetAside} those set aside, counted by
 * reason in {@code setAsideByReason}.
 */
public record ImportReport(
    String mode,
    int regions,
    boolean keyRule,
    String splitComputation,
    String badRecords,
    int filesLoaded,
    int filesSkipped,
    List<Skipped> skipped,
    int filesSalvaged,
    List<Salvaged> salvaged,
    long recordsLoaded,
    long recordsSetAside,
    Map<String, Long> setAsideByReason,
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
    long recordsPerSecond,
    @JsonInclude(JsonInclude.Include.NON_NULL) Estimate dryRun) {
  /**
   * What a dry run found a load would write: the cells' bytes as HFile key-values (before
   * compression and block overhead), the HFiles (one per table, family and region the cells fall
   * in; a writer may roll more) and the regions per table that would receive cells.
   */
  public record Estimate(long hfileBytes, long hfiles, Map<String, Integer> regionsByTable) {
    public Estimate {
      regionsByTable = Collections.unmodifiableMap(new TreeMap<>(regionsByTable));
    }
  }

  /** A quarantined file. */
  public record Skipped(String file, String reason, int attempts, String quarantinedTo) {}

  /**
   * A salvaged file: loaded but for {@code recordsSetAside} user objects, listed in {@code
   * rejectsFile} and counted by reason.
   */
  public record Salvaged(
      String file, long recordsSetAside, Map<String, Long> byReason, String rejectsFile) {
    public Salvaged {
      byReason = Collections.unmodifiableMap(new TreeMap<>(byReason));
    }
  }

  public ImportReport {
    skipped = List.copyOf(skipped);
    // Reports written before salvage existed lack these.
    salvaged = salvaged == null ? List.of() : List.copyOf(salvaged);
    setAsideByReason =
        Collections.unmodifiableMap(
            setAsideByReason == null ? new TreeMap<>() : new TreeMap<>(setAsideByReason));
    phaseSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(phaseSeconds));
  }

  static ImportReport of(
      ImportMode mode,
      BadRecords badRecords,
      Layout layout,
      String splitComputation,
      LoadOutcome loaded,
      Estimate dryRun) {
    boolean bulk = mode == ImportMode.BULKLOAD && dryRun == null;
    double seconds = loaded.seconds();
    long rate = seconds <= 0 ? 0 : Math.round((loaded.users() + loaded.statuses()) / seconds);
    Map<String, Long> byReason = new TreeMap<>();
    long setAside = 0;
    for (Salvaged s : loaded.salvaged()) {
      setAside += s.recordsSetAside();
      s.byReason().forEach((reason, n) -> byReason.merge(reason, n, Long::sum));
    }
    return new ImportReport(
        mode.label(),
        layout.regions(),
        layout.keyRule(),
        splitComputation,
        badRecords.label(),
        loaded.filesLoaded(),
        loaded.skipped().size(),
        loaded.skipped(),
        loaded.salvaged().size(),
        loaded.salvaged(),
        loaded.users(),
        setAside,
        byReason,
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
        rate,
        dryRun);
  }

  /** The layout the import wrote with. */
  @JsonIgnore
  public Layout layout() {
    return new Layout(regions, keyRule);
  }
}
