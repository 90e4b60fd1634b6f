package org.casebook.bench;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The command-line options of {@code bench archive} ({@link ArchiveExperiment}). */
public final class ArchiveExperimentOptions {
  @Option(
      names = "--users",
      paramLabel = "N,N,…",
      split = ",",
      defaultValue = "1000,2000,3000,4000",
      description = "Sizes in users (default ${DEFAULT-VALUE}).")
  public List<Integer> users;

  @Option(
      names = "--users-per-file",
      paramLabel = "N",
      defaultValue = "250",
      description = "Users in each generated file (default ${DEFAULT-VALUE}).")
  public int usersPerFile;

  @Option(
      names = "--statuses",
      paramLabel = "N",
      defaultValue = "20",
      description = "Mean statuses per user (default ${DEFAULT-VALUE}).")
  public int statuses;

  @Option(
      names = "--round-users",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "Users per bulk-load job; larger sizes take several rounds (default ${DEFAULT-VALUE}).")
  public int roundUsers;

  @Option(
      names = "--regions",
      paramLabel = "N",
      defaultValue = "0",
      description = "Pre-split regions (default 0: computed).")
  public int regions;

  @Option(
      names = "--region-size-mb",
      paramLabel = "MB",
      defaultValue = "0",
      description = "Region size limit (default 0: largest input × 1.5 / 8).")
  public long regionSizeMb;

  @Option(
      names = "--attempts",
      paramLabel = "N",
      defaultValue = "2",
      description = "Reads of a file before it is quarantined (default ${DEFAULT-VALUE}).")
  public int attempts;

  @Option(
      names = "--seed",
      paramLabel = "SEED",
      defaultValue = "1",
      description = "Random seed of the generated input (default ${DEFAULT-VALUE}).")
  public long seed;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Directory for the JSON and the PNG (default bench-results, or -Dcasebook.bench.dir).")
  public Path out;

  ArchiveExperiment.Settings settings() {
    return new ArchiveExperiment.Settings(
        users, usersPerFile, statuses, roundUsers, regions, regionSizeMb << 20, attempts, seed);
  }
}
