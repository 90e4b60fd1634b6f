package org.casebook.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.cli.ResultFiles;

/**
 * What {@code bench archive} ({@link ArchiveExperiment}) measured, as written to its JSON file, and
 * how it is shown: the table it prints and the chart next to the JSON.
 */
public final class ArchiveExperimentReport {
  private ArchiveExperimentReport() {}

  /** One import of N users in one case. */
  @JsonPropertyOrder({
    "case",
    "caseName",
    "users",
    "records",
    "cells",
    "inputBytes",
    "rounds",
    "seconds",
    "jobSeconds",
    "loadSeconds",
    "settleSeconds",
    "recordsPerSecond",
    "hfiles",
    "hfileSplits",
    "regionSplits",
    "regionsBefore",
    "regionsAfter"
  })
  public record Run(
      @JsonIgnore ArchiveExperiment.Case kase,
      int users,
      long records,
      long cells,
      @JsonProperty("inputBytes") long bytes,
      int rounds,
      double seconds,
      double jobSeconds,
      double loadSeconds,
      double settleSeconds,
      long hfiles,
      long hfileSplits,
      int regionsBefore,
      int regionsAfter) {
    @JsonProperty("case")
    public int caseNumber() {
      return kase.number;
    }

    @JsonProperty("caseName")
    public String caseName() {
      return kase.label;
    }

    @JsonProperty("recordsPerSecond")
    public double recordsPerSecond() {
      return records / seconds;
    }

    @JsonProperty("regionSplits")
    public int regionSplits() {
      return regionsAfter - regionsBefore;
    }
  }

  /** The settings as reported. */
  public record SettingsReport(
      List<Integer> users,
      int usersPerFile,
      int meanStatusesPerUser,
      int roundUsers,
      int attempts,
      long seed) {}

  /**
   * Case 3's seconds per user at each size and the largest departure from their mean, for the whole
   * time (until HBase is quiet) and for the import alone (jobs and loads, without the compactions
   * HBase runs afterwards).
   */
  public record Linearity(
      List<Double> msPerUser,
      double meanMsPerUser,
      double maxDeviation,
      boolean withinTwentyPercent,
      List<Double> importMsPerUser,
      double importMeanMsPerUser,
      double importMaxDeviation,
      boolean importWithinTwentyPercent,
      long hfileSplits) {}

  /**
   * Bulk load vs puts on the largest input, means of {@link ArchiveExperiment#COMPARISON_RUNS}
   * alternating runs.
   */
  public record Comparison(
      long users,
      long records,
      long putRecords,
      long cells,
      int runs,
      double bulkloadSeconds,
      List<Double> bulkloadRunSeconds,
      double bulkloadJobSeconds,
      double bulkloadLoadSeconds,
      double bulkloadRecordsPerSecond,
      double putSeconds,
      List<Double> putRunSeconds,
      double putWriteSeconds,
      double putMemstoreFlushSeconds,
      double putRecordsPerSecond,
      double speedup) {}

  /** The generator's planted bad files, bulk-loaded in case 3's layout. */
  public record BadFiles(
      int files,
      int planted,
      long quarantined,
      long loaded,
      long usersLoaded,
      long usersExpected,
      int attemptsPerFile,
      long badFileReads,
      long badFileReadsAllowed,
      long badFileMillis,
      double jobSeconds,
      long goodBytes) {}

  /** Everything measured, as written to the JSON file. */
  public record Results(
      SettingsReport settings,
      int regions,
      long regionSizeLimitBytes,
      double warmUpSeconds,
      String splitComputation,
      List<Run> runs,
      Linearity case3Linearity,
      Comparison bulkloadVsPut,
      BadFiles plantedBadFiles) {}

  /** The results and where they were written. */
  public record Outcome(Results results, Path json, Path chart) {}

  static Linearity linearity(List<Run> runs) {
    List<Run> c3 =
        runs.stream().filter(r -> r.kase() == ArchiveExperiment.Case.PRESPLIT_KEY_RULE).toList();
    PerUser all = perUser(c3, Run::seconds);
    PerUser importOnly = perUser(c3, r -> r.jobSeconds() + r.loadSeconds());
    return new Linearity(
        all.msPerUser(),
        all.meanMs(),
        all.worst(),
        all.worst() <= 0.20,
        importOnly.msPerUser(),
        importOnly.meanMs(),
        importOnly.worst(),
        importOnly.worst() <= 0.20,
        c3.stream().mapToLong(Run::hfileSplits).sum());
  }

  private record PerUser(List<Double> msPerUser, double meanMs, double worst) {}

  private static PerUser perUser(List<Run> runs, ToDoubleFunction<Run> seconds) {
    double[] perUser =
        runs.stream().mapToDouble(r -> seconds.applyAsDouble(r) / r.users()).toArray();
    double mean = Arrays.stream(perUser).average().orElse(0);
    double worst = Arrays.stream(perUser).map(v -> Math.abs(v / mean - 1)).max().orElse(0);
    return new PerUser(
        Arrays.stream(perUser).map(v -> 1000 * v).boxed().toList(), 1000 * mean, worst);
  }

  static String table(Results doc) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%nSeed 001 §3.2 — import time vs users (%s regions, region limit %,d B)%n",
            doc.regions(),
            doc.regionSizeLimitBytes()));
    sb.append(
        String.format(
            Locale.ROOT,
            "%-28s %7s %9s %8s %9s %6s %7s %7s %8s %8s%n",
            "case",
            "users",
            "records",
            "seconds",
            "rec/s",
            "rounds",
            "HFiles",
            "HFsplit",
            "Rsplits",
            "regions"));
    for (Run r : doc.runs()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-28s %,7d %,9d %8.1f %,9.0f %6d %7d %7d %8d %4d→%-3d%n",
              r.kase().number + " " + r.kase().label,
              r.users(),
              r.records(),
              r.seconds(),
              r.recordsPerSecond(),
              r.rounds(),
              r.hfiles(),
              r.hfileSplits(),
              r.regionSplits(),
              r.regionsBefore(),
              r.regionsAfter()));
    }
    Linearity lin = doc.case3Linearity();
    sb.append(
        String.format(
            Locale.ROOT,
            "case 3: %.2f ms per user on average, largest departure %.1f%% "
                + "(target ±20%%); "
                + "import alone (jobs + loads, not the compactions after): %.2f ms per user, largest departure %.1f%%; "
                + "%d HFile splits%n",
            lin.meanMsPerUser(),
            100 * lin.maxDeviation(),
            lin.importMeanMsPerUser(),
            100 * lin.importMaxDeviation(),
            lin.hfileSplits()));
    Comparison cmp = doc.bulkloadVsPut();
    sb.append(
        String.format(
            Locale.ROOT,
            "bulk load vs put, %,d records, mean of %d runs each: bulk load %.1f s "
                + "(%,.0f records/s), put %.1f s incl. memstore flush (%,.0f records/s): %.2f×%n",
            cmp.records(),
            cmp.runs(),
            cmp.bulkloadSeconds(),
            cmp.bulkloadRecordsPerSecond(),
            cmp.putSeconds(),
            cmp.putRecordsPerSecond(),
            cmp.speedup()));
    BadFiles bad = doc.plantedBadFiles();
    sb.append(
        String.format(
            Locale.ROOT,
            "planted bad files: %d of %d quarantined, %d reads (allowed %d), %d ms "
                + "reading them; %,d of %,d users loaded%n",
            bad.quarantined(),
            bad.files(),
            bad.badFileReads(),
            bad.badFileReadsAllowed(),
            bad.badFileMillis(),
            bad.usersLoaded(),
            bad.usersExpected()));
    return sb.toString();
  }

  /**
   * The JSON (through {@link ResultFiles} unless {@code outDir} is given) and the chart next to it.
   */
  static Outcome write(Path outDir, Results results) {
    Path json;
    if (outDir == null) {
      json = ResultFiles.write("archive", results);
    } else {
      try {
        Files.createDirectories(outDir);
      } catch (IOException e) {
        throw LocalFileException.of("create", outDir, e);
      }
      String stamp =
          LocalDateTime.now(ZoneId.systemDefault())
              .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      json = outDir.resolve("archive-" + stamp + ".json");
      try {
        Files.writeString(json, Json.writePretty(results) + System.lineSeparator());
      } catch (IOException e) {
        throw LocalFileException.of("write", json, e);
      }
    }
    String name = json.getFileName().toString();
    Path png = json.resolveSibling(name.substring(0, name.length() - ".json".length()) + ".png");
    List<LineChartPng.Series> series = new ArrayList<>();
    for (ArchiveExperiment.Case kase : ArchiveExperiment.Case.values()) {
      series.add(
          new LineChartPng.Series(
              "case " + kase.number + ": " + kase.label,
              results.runs().stream()
                  .filter(r -> r.kase() == kase)
                  .map(r -> new double[] {r.users(), r.seconds()})
                  .toList()));
    }
    LineChartPng.write(png, "Seed 001 §3.2: import time vs users", "users", "seconds", series);
    System.out.println("wrote " + json + " and " + png);
    return new Outcome(results, json, png);
  }
}
