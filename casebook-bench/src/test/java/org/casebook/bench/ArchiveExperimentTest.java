package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArchiveExperimentTest {
  private static ArchiveExperimentReport.Run run(
      ArchiveExperiment.Case kase, int users, double seconds, double job, double load) {
    return new ArchiveExperimentReport.Run(
        kase,
        users,
        users * 20L,
        users * 200L,
        users * 8000L,
        users / 1000,
        seconds,
        job,
        load,
        seconds - job - load,
        56,
        0,
        24,
        24);
  }

  @Test
  void linearityIsTheLargestDepartureOfSecondsPerUserFromTheirMeanForCaseThreeOnly() {
    ArchiveExperiment.Case three = ArchiveExperiment.Case.PRESPLIT_KEY_RULE;
    List<ArchiveExperimentReport.Run> runs =
        List.of(
            run(ArchiveExperiment.Case.NO_PRESPLIT_NO_RULE, 1000, 50, 1, 1),
            run(three, 1000, 1.0, 0.8, 0.2),
            run(three, 2000, 2.0, 1.6, 0.4),
            // A compaction waited for at the end: 1.0 s more than the import itself.
            run(three, 3000, 4.0, 2.4, 0.6),
            run(three, 4000, 4.0, 3.2, 0.8));
    ArchiveExperimentReport.Linearity lin = ArchiveExperimentReport.linearity(runs);
    // ms/user 1.0, 1.0, 1.333, 1.0: mean 1.0833, worst +23.1 %.
    assertThat(lin.meanMsPerUser()).isCloseTo(1.0833, within(1e-3));
    assertThat(lin.maxDeviation()).isCloseTo(0.2308, within(1e-3));
    assertThat(lin.withinTwentyPercent()).isFalse();
    assertThat(lin.importMaxDeviation()).isCloseTo(0.0, within(1e-9));
    assertThat(lin.importWithinTwentyPercent()).isTrue();
  }
}
