package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.RecordedExperiment;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class ArchiveExperimentIT {
  @Test
  void theThreeCasesShowTheSeedsHFileSplitsAndBadFilesCostOnlyTheirAttempts(HBaseRuntime runtime)
      throws Exception {
    Path dir = EmbeddedHBase.scratchDir("experiment");
    ArchiveExperiment.Settings settings =
        new ArchiveExperiment.Settings(List.of(100, 200), 50, 5, 100, 3, 0, 2, 9);
    try (Platform platform = Platform.create(runtime, dir.resolve("data"))) {
      SystemContext ctx = platform.contextFor("bench");
      ArchiveExperimentReport.Outcome outcome =
          new ArchiveExperiment(ctx, dir.resolve("scratch"), settings).run(dir.resolve("out"));
      check(outcome, ArchiveService.create(ctx, false).experiments(1));
    }
  }

  private static void check(
      ArchiveExperimentReport.Outcome outcome, List<RecordedExperiment> recorded) throws Exception {
    ArchiveExperimentReport.Results doc = outcome.results();

    List<ArchiveExperimentReport.Run> runs = doc.runs();
    assertThat(runs).hasSize(6);
    assertThat(doc.warmUpSeconds()).as("an untimed round ran first").isPositive();
    for (ArchiveExperimentReport.Run r : runs) {
      int kase = r.caseNumber();
      int users = r.users();
      assertThat(r.rounds()).isEqualTo(users / 100);
      // Every case stores every record: users plus their statuses.
      assertThat(r.records()).isGreaterThan(users);
      if (kase == 3) {
        assertThat(r.hfileSplits()).as("case 3 at %d users", users).isZero();
        assertThat(r.regionsBefore()).isEqualTo(9);
      } else if (kase == 2) {
        assertThat(r.hfileSplits()).as("case 2 at %d users", users).isPositive();
      } else {
        assertThat(r.regionsBefore()).isEqualTo(3);
      }
    }
    // Same input, same records in every case.
    assertThat(
            runs.stream()
                .filter(r -> r.users() == 200)
                .map(ArchiveExperimentReport.Run::records)
                .distinct())
        .hasSize(1);

    ArchiveExperimentReport.BadFiles bad = doc.plantedBadFiles();
    assertThat(bad.quarantined()).isEqualTo(4L);
    assertThat(bad.badFileReads()).isEqualTo(8L);
    assertThat(bad.usersLoaded()).isEqualTo(bad.usersExpected());

    ArchiveExperimentReport.Comparison cmp = doc.bulkloadVsPut();
    assertThat(cmp.bulkloadRecordsPerSecond()).isPositive();
    assertThat(cmp.putRecordsPerSecond()).isPositive();
    assertThat(cmp.putRecords()).as("both paths stored the same records").isEqualTo(cmp.records());
    assertThat(cmp.putRunSeconds()).hasSize(ArchiveExperiment.COMPARISON_RUNS);

    // Recorded in the archive's meta table for GET /api/archive/experiments and the console.
    assertThat(recorded).hasSize(1);
    JsonNode recordedResults = Json.mapper().readTree(recorded.get(0).resultsJson());
    assertThat(recordedResults.get("runs")).hasSize(6);
    assertThat(recordedResults.get("plantedBadFiles").get("quarantined").asLong()).isEqualTo(4L);

    assertThat(outcome.json()).exists();
    // The JSON keeps the field names of the experiment's report.
    JsonNode json = Json.mapper().readTree(Files.readString(outcome.json()));
    assertThat(json.get("runs").get(0).has("case")).isTrue();
    assertThat(json.get("runs").get(0).has("inputBytes")).isTrue();
    assertThat(json.get("plantedBadFiles").get("quarantined").asLong()).isEqualTo(4L);
    Path png = outcome.chart();
    assertThat(png.getParent()).isEqualTo(outcome.json().getParent());
    byte[] head = Files.readAllBytes(png);
    assertThat(head).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
  }
}
