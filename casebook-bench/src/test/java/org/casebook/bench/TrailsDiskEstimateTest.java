package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.casebook.bench.TrailsBenchmark.Load;
import org.casebook.bench.TrailsDiskEstimate.Need;
import org.casebook.bench.TrailsDiskEstimate.Run;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TrailsDiskEstimateTest {
  private static final long GB = 1_000_000_000L;
  private static final long SEED = 100_000_000L;

  private static Run bulkOnce(long records) {
    return new Run(records, Load.BULK, 1, true, false);
  }

  @Test
  void theSeedsSizeAddsUpFromTheMeasuredFactors() {
    Need need = TrailsDiskEstimate.of(bulkOnce(SEED));
    long log = 112 * SEED;
    long tables = 390 * SEED;
    long wal = 3L << 30;
    assertThat(need.log()).isEqualTo(log);
    // Compressed map output: a log of 11 GB is past the threshold.
    assertThat(need.hbaseLoad()).isEqualTo(log + 560 * SEED);
    assertThat(need.postgresCopy()).isEqualTo(log + tables + 115 * SEED + wal);
    // The log is gone before the index builds.
    assertThat(need.postgresIndexes()).isEqualTo(tables + (115 + 81 + 41) * SEED + wal);
    assertThat(need.peak()).isEqualTo(need.hbaseLoad());
    assertThat(need.withMargin()).isEqualTo(need.peak() + (long) (need.peak() * 0.10));
    assertThat(need.peak()).isBetween(60 * GB, 70 * GB);
  }

  @Test
  void keepingTheLogOrMoreRoundsOrBothLoadsNeedMore() {
    Need least = TrailsDiskEstimate.of(bulkOnce(SEED));
    Need kept = TrailsDiskEstimate.of(new Run(SEED, Load.BULK, 1, true, true));
    assertThat(kept.postgresIndexes() - least.postgresIndexes()).isEqualTo(112 * SEED);
    Need rounds = TrailsDiskEstimate.of(new Run(SEED, Load.BULK, 2, true, false));
    // The round before, dropped, still in HBase's archive; and the log stays for the next COPY.
    assertThat(rounds.hbaseLoad() - least.hbaseLoad()).isEqualTo(390 * SEED);
    assertThat(rounds.postgresIndexes()).isEqualTo(kept.postgresIndexes());
    Need both = TrailsDiskEstimate.of(new Run(SEED, Load.BOTH, 1, true, false));
    assertThat(both.peak()).isGreaterThan(least.peak());
    Need noPostgres = TrailsDiskEstimate.of(new Run(SEED, Load.BULK, 1, false, false));
    assertThat(noPostgres.postgresCopy()).isZero();
    assertThat(noPostgres.postgresIndexes()).isZero();
    assertThat(noPostgres.peak()).isEqualTo(least.hbaseLoad());
  }

  @Test
  void smallLogsCountTheirMapOutputUncompressed() {
    long records = 10_000_000L; // 1.1 GB of log: under the threshold
    Need need = TrailsDiskEstimate.of(bulkOnce(records));
    assertThat(need.hbaseLoad())
        .isEqualTo(
            need.log()
                + (long) Math.ceil(records * TrailsDiskEstimate.BULK_LOAD_PEAK_BYTES_PER_RECORD));
    assertThat(TrailsDiskEstimate.BULK_LOAD_PEAK_BYTES_PER_RECORD)
        .isGreaterThan(TrailsDiskEstimate.BULK_LOAD_PEAK_BYTES_PER_RECORD_COMPRESSED);
  }

  @Test
  void tooLittleFreeSpaceIsRefusedNamingRecordsAndWhatFits() {
    Run run = bulkOnce(SEED);
    long free = 50 * GB;
    assertThatThrownBy(() -> TrailsDiskEstimate.check(run, free, Path.of("/work")))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("records"))
        .hasMessageContaining("--records 100,000,000 needs about")
        .hasMessageContaining("50.0 GB is free for /work")
        .hasMessageContaining("At most --records ")
        .hasMessageContaining("--skip-disk-check");

    long fits = TrailsDiskEstimate.largestFitting(run, free);
    assertThat(TrailsDiskEstimate.of(bulkOnce(fits)).withMargin()).isLessThanOrEqualTo(free);
    assertThat(TrailsDiskEstimate.of(bulkOnce(fits + fits / 10)).withMargin()).isGreaterThan(free);
    assertThat(Long.toString(fits)).matches("[1-9][0-9]0*");
  }

  @Test
  void whatFitsIsFoundOnBothSidesOfTheCompressionThreshold() {
    // 20 GB: too little for 19M lines with an uncompressed map output, enough for 25M with one.
    Run run = bulkOnce(SEED);
    long free = 20 * GB;
    assertThat(TrailsDiskEstimate.of(bulkOnce(19_000_000)).withMargin()).isGreaterThan(free);
    long fits = TrailsDiskEstimate.largestFitting(run, free);
    assertThat(fits).isGreaterThanOrEqualTo(20_000_000);
    assertThat(TrailsDiskEstimate.of(bulkOnce(fits)).withMargin()).isLessThanOrEqualTo(free);
    // And below it, when only a small run fits.
    long small = TrailsDiskEstimate.largestFitting(run, 10 * GB);
    assertThat(small).isPositive().isLessThan(19_000_000);
    assertThat(TrailsDiskEstimate.of(bulkOnce(small)).withMargin()).isLessThanOrEqualTo(10 * GB);
  }

  @Test
  void enoughFreeSpacePasses() {
    Run run = bulkOnce(SEED);
    long needed = TrailsDiskEstimate.of(run).withMargin();
    TrailsDiskEstimate.check(run, needed, Path.of("/work"));
    assertThatThrownBy(() -> TrailsDiskEstimate.check(run, needed - 1, Path.of("/work")))
        .isInstanceOf(InvalidInputException.class);
    // A small run asks for the 2 GiB margin at least.
    Need small = TrailsDiskEstimate.of(bulkOnce(300_000));
    assertThat(small.withMargin() - small.peak()).isEqualTo(2L << 30);
  }

  @Test
  void theLoadOptionIsParsedAndCheckedWithTheOthers() {
    TrailsBenchmark.Options o =
        CommandLine.populateCommand(
            new TrailsBenchmark.Options(),
            "--load",
            "bulk",
            "--load-rounds",
            "1",
            "--no-load-warmup");
    o.validate();
    assertThat(o.loadMode()).isEqualTo(Load.BULK);
    assertThat(o.allLoadRounds()).isEqualTo(1);
    TrailsBenchmark.Options defaults = CommandLine.populateCommand(new TrailsBenchmark.Options());
    assertThat(defaults.loadMode()).isEqualTo(Load.BOTH);
    assertThat(defaults.allLoadRounds()).isEqualTo(4);
    TrailsBenchmark.Options bad =
        CommandLine.populateCommand(new TrailsBenchmark.Options(), "--load", "sideways");
    assertThatThrownBy(bad::validate)
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("load"))
        .hasMessageContaining("bulk, puts or both");
  }
}
