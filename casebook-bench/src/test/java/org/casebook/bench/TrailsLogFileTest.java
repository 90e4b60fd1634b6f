package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import org.casebook.core.cli.Progress;
import org.casebook.trails.gen.LogGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrailsLogFileTest {
  private static final LocalDate DAY = LocalDate.parse("2026-09-01");

  @TempDir Path dir;

  private static LogGenerator.Spec spec(long records) {
    return new LogGenerator.Spec(50, 2, records, 0.01, DAY, 11);
  }

  private TrailsLogFile.Ready prepare(Path log, LogGenerator.Spec spec) {
    return TrailsLogFile.prepare(log, spec, Progress::silent);
  }

  @Test
  void aLogWrittenForTheSameSizesIsReusedAsItIs() throws Exception {
    Path log = dir.resolve("logs.jsonl");
    TrailsLogFile.Ready first = prepare(log, spec(2000));
    assertThat(first.reused()).isFalse();
    assertThat(Files.size(log)).isEqualTo(first.written().bytes());
    assertThat(TrailsLogFile.specFile(log)).exists();
    assertThat(TrailsLogFile.partialFile(log)).doesNotExist();
    long modified = Files.getLastModifiedTime(log).toMillis();

    TrailsLogFile.Ready second = prepare(log, spec(2000));
    assertThat(second.reused()).isTrue();
    assertThat(second.written()).isEqualTo(first.written());
    assertThat(Files.getLastModifiedTime(log).toMillis()).isEqualTo(modified);
  }

  @Test
  void anotherSpecMeansANewLog() {
    Path log = dir.resolve("logs.jsonl");
    prepare(log, spec(2000));
    assertThat(TrailsLogFile.reusable(log, spec(3000))).isEmpty();
    assertThat(TrailsLogFile.reusable(log, new LogGenerator.Spec(51, 2, 2000, 0.01, DAY, 11)))
        .isEmpty();
    assertThat(TrailsLogFile.reusable(log, new LogGenerator.Spec(50, 2, 2000, 0.02, DAY, 11)))
        .isEmpty();
    assertThat(TrailsLogFile.reusable(log, new LogGenerator.Spec(50, 2, 2000, 0.01, DAY, 12)))
        .isEmpty();
    assertThat(
            TrailsLogFile.reusable(
                log, new LogGenerator.Spec(50, 2, 2000, 0.01, DAY.plusDays(1), 11)))
        .isEmpty();

    TrailsLogFile.Ready again = prepare(log, spec(3000));
    assertThat(again.reused()).isFalse();
    assertThat(again.written().lines()).isEqualTo(3000);
    assertThat(TrailsLogFile.reusable(log, spec(3000))).isPresent();
  }

  @Test
  void aLogOfAnotherLengthThanItsSidecarSaysIsWrittenAgain() throws Exception {
    Path log = dir.resolve("logs.jsonl");
    prepare(log, spec(2000));
    Files.writeString(log, "{}\n", StandardOpenOption.APPEND);
    assertThat(TrailsLogFile.reusable(log, spec(2000))).isEmpty();

    TrailsLogFile.Ready again = prepare(log, spec(2000));
    assertThat(again.reused()).isFalse();
    assertThat(Files.size(log)).isEqualTo(again.written().bytes());
  }

  @Test
  void aLogWithoutSidecarOrWithABrokenOneIsNotTrusted() throws Exception {
    Path log = dir.resolve("logs.jsonl");
    prepare(log, spec(2000));
    Path side = TrailsLogFile.specFile(log);

    Files.writeString(side, "not json");
    assertThat(TrailsLogFile.reusable(log, spec(2000))).isEmpty();
    Files.writeString(side, "[1, 2]");
    assertThat(TrailsLogFile.reusable(log, spec(2000))).isEmpty();
    Files.delete(side);
    assertThat(TrailsLogFile.reusable(log, spec(2000))).isEmpty();
  }

  @Test
  void anInterruptedGenerationLeavesNothingThatLooksComplete() throws Exception {
    // What a run killed while writing leaves: the partial file, and no log or sidecar of it.
    Path log = dir.resolve("logs.jsonl");
    Files.writeString(TrailsLogFile.partialFile(log), "{\"uid\":\"1\",\"ts\":");
    assertThat(TrailsLogFile.reusable(log, spec(2000))).isEmpty();

    // A run killed after an earlier complete log was replaced: the old sidecar went first.
    prepare(log, spec(2000));
    Files.delete(TrailsLogFile.specFile(log));
    assertThat(TrailsLogFile.reusable(log, spec(2000))).isEmpty();

    TrailsLogFile.Ready ready = prepare(log, spec(2000));
    assertThat(ready.reused()).isFalse();
    assertThat(TrailsLogFile.partialFile(log)).doesNotExist();
    assertThat(TrailsLogFile.partialFile(TrailsLogFile.specFile(log))).doesNotExist();
  }
}
