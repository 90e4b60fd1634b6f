package org.casebook.archive;

import java.nio.file.Path;
import java.util.Objects;
import org.casebook.core.InvalidInputException;

/**
 * One bulk import, however it was asked for (CLI, REST job, {@code hadoop jar} tool). Paths are
 * Hadoop paths ({@code file:/…}, {@code hdfs://…}, or relative to the default file system).
 *
 * @param input a directory of JSON files, or one file
 * @param mode bulk load or puts
 * @param regions pre-split regions, or null to compute them from the input size ({@link SplitPlan})
 * @param regionSizeMb the region size the computation divides by
 * @param quarantine where bad files go, or null for {@code quarantine} next to the input
 * @param work scratch space of a bulk load on the job's file system, or null for the service's own
 * @param attempts reads of a file before it is quarantined
 * @param partitioning how a bulk load's job sends rows to reducers ({@link Partitioning#REGIONS}
 *     unless asked otherwise)
 * @param badRecords what a file with bad records becomes: quarantined whole or salvaged
 * @param dryRun read and measure only: nothing is written to HBase, no file is moved or written
 */
public record ImportRequest(
    String input,
    ImportMode mode,
    Integer regions,
    long regionSizeMb,
    String quarantine,
    String work,
    int attempts,
    Partitioning partitioning,
    BadRecords badRecords,
    boolean dryRun) {
  public static final long DEFAULT_REGION_SIZE_MB = 10240;
  public static final int DEFAULT_ATTEMPTS = 2;

  public ImportRequest {
    InvalidInputException.check(
        input != null && !input.isBlank(), "input", "input must name a directory or file");
    Objects.requireNonNull(mode, "mode is null");
    Objects.requireNonNull(partitioning, "partitioning is null");
    Objects.requireNonNull(badRecords, "badRecords is null");
    InvalidInputException.check(
        regions == null || (regions >= 1 && regions <= 65536),
        "regions",
        "regions must be 1..65536");
    InvalidInputException.check(
        regionSizeMb >= 1, "regionSizeMb", "the region size must be at least 1 MB");
    InvalidInputException.check(
        attempts >= 1 && attempts <= 10, "attempts", "attempts must be 1..10");
  }

  /** An import of a local directory or file (CLI, REST), defaults for the rest. */
  public static ImportRequest local(Path input, ImportMode mode) {
    return new ImportRequest(
        localUri(input),
        mode,
        null,
        DEFAULT_REGION_SIZE_MB,
        null,
        null,
        DEFAULT_ATTEMPTS,
        Partitioning.REGIONS,
        BadRecords.QUARANTINE_FILE,
        false);
  }

  public ImportRequest withRegions(Integer value) {
    return new ImportRequest(
        input,
        mode,
        value,
        regionSizeMb,
        quarantine,
        work,
        attempts,
        partitioning,
        badRecords,
        dryRun);
  }

  public ImportRequest withRegionSizeMb(long value) {
    return new ImportRequest(
        input, mode, regions, value, quarantine, work, attempts, partitioning, badRecords, dryRun);
  }

  public ImportRequest withQuarantine(Path localDir) {
    return new ImportRequest(
        input,
        mode,
        regions,
        regionSizeMb,
        localDir == null ? null : localUri(localDir),
        work,
        attempts,
        partitioning,
        badRecords,
        dryRun);
  }

  public ImportRequest withAttempts(int value) {
    return new ImportRequest(
        input,
        mode,
        regions,
        regionSizeMb,
        quarantine,
        work,
        value,
        partitioning,
        badRecords,
        dryRun);
  }

  public ImportRequest withPartitioning(Partitioning value) {
    return new ImportRequest(
        input, mode, regions, regionSizeMb, quarantine, work, attempts, value, badRecords, dryRun);
  }

  public ImportRequest withBadRecords(BadRecords value) {
    return new ImportRequest(
        input,
        mode,
        regions,
        regionSizeMb,
        quarantine,
        work,
        attempts,
        partitioning,
        value,
        dryRun);
  }

  public ImportRequest withDryRun(boolean value) {
    return new ImportRequest(
        input,
        mode,
        regions,
        regionSizeMb,
        quarantine,
        work,
        attempts,
        partitioning,
        badRecords,
        value);
  }

  /** A local path as the URI of Hadoop's local file system ({@code file:/…}). */
  static String localUri(Path p) {
    return p.toAbsolutePath().normalize().toUri().toString();
  }
}
