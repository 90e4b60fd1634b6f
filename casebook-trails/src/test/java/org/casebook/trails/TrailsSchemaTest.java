package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.testing.SplitPointChecks;
import org.casebook.trails.gen.LogGenerator;
import org.casebook.trails.wire.LogParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrailsSchemaTest {
  private static final TrailsSchema SCHEMA = TrailsSchema.in(TrailsSchema.DEFAULT_NAMESPACE);

  /**
   * A generated log (the CLI's default users and days, 5,000 records) ingested as the ingest writes
   * it: every pre-split table's regions each receive rows, none more than its share allows.
   */
  @Test
  void generatedEventsReachEveryRegion(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("trails.jsonl");
    LogGenerator.write(
        new LogGenerator.Spec(10_000, 10, 5_000, 0, LocalDate.parse("2026-09-01"), 1),
        log,
        Progress.silent());
    Map<TableName, List<byte[]>> keys = new HashMap<>();
    TrailsRowCodec rows = TrailsRowCodec.of(SCHEMA);
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Event e = LogParser.parse(line, Behaviours.BUILT_INS).event().orElseThrow();
      rows.rowsOf(
          e,
          HistoryTables.BOTH,
          (table, put) -> keys.computeIfAbsent(table, t -> new ArrayList<>()).add(put.getRow()));
    }
    assertThat(SplitPointChecks.verify(SCHEMA.tables(), keys))
        .singleElement()
        .satisfies(r -> assertThat(r.regions()).isEqualTo(10));
  }

  /** The regions are the reversed uid's first character, i.e. the uid's last one. */
  @Test
  void aUidsLastCharacterPicksItsRegion() {
    SplitPoints splits = SCHEMA.tables().get(0).splits();
    int day = TrailsKeys.epochDay(LocalDate.parse("2026-09-01"));
    for (int digit = 0; digit <= 9; digit++) {
      assertThat(splits.regionOf(TrailsKeys.eventRow("1000000" + digit, day, Behaviour.LOGIN)))
          .isEqualTo(digit);
      assertThat(splits.regionOf(TrailsKeys.eventRow(Integer.toString(digit), day, Behaviour.PLAY)))
          .isEqualTo(digit);
    }
    // Other uids (the API takes any id): below '0' with the zeros, above '9' with the nines.
    assertThat(splits.regionOf(TrailsKeys.eventRow("user-", day, Behaviour.LOGIN))).isZero();
    assertThat(splits.regionOf(TrailsKeys.eventRow("alice", day, Behaviour.LOGIN))).isEqualTo(9);
    assertThat(splits.regionOf(TrailsKeys.eventRow("用户", day, Behaviour.LOGIN))).isEqualTo(9);
  }
}
