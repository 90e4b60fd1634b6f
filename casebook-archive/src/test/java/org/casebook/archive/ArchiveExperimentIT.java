package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class ArchiveExperimentIT {
  @Test
  @SuppressWarnings("unchecked")
  void theThreeCasesShowTheSeedsHFileSplitsAndBadFilesCostOnlyTheirAttempts(HBaseRuntime runtime) throws Exception {
    Path dir = EmbeddedHBase.scratchDir("experiment");
    ArchiveExperiment.Settings settings = new ArchiveExperiment.Settings(List.of(100, 200), 50, 5, 100, 3, 0, 2, 9);
    Map<String, Object> doc = new ArchiveExperiment(runtime.connection(), runtime.configuration(), dir.resolve("scratch"),
        settings).run(dir.resolve("out"));

    List<Map<String, Object>> runs = (List<Map<String, Object>>) doc.get("runs");
    assertThat(runs).hasSize(6);
    assertThat((Double) doc.get("warmUpSeconds")).as("an untimed round ran first").isPositive();
    for (Map<String, Object> r : runs) {
      int kase = (Integer) r.get("case");
      int users = (Integer) r.get("users");
      assertThat((Integer) r.get("rounds")).isEqualTo(users / 100);
      // Every case stores every record: users plus their statuses.
      assertThat((Long) r.get("records")).isGreaterThan(users);
      if (kase == 3) {
        assertThat((Long) r.get("hfileSplits")).as("case 3 at %d users", users).isZero();
        assertThat((Integer) r.get("regionsBefore")).isEqualTo(9);
      } else if (kase == 2) {
        assertThat((Long) r.get("hfileSplits")).as("case 2 at %d users", users).isPositive();
      } else {
        assertThat((Integer) r.get("regionsBefore")).isEqualTo(3);
      }
    }
    // Same input, same records in every case.
    assertThat(runs.stream().filter(r -> (Integer) r.get("users") == 200).map(r -> r.get("records")).distinct()).hasSize(1);

    Map<String, Object> bad = (Map<String, Object>) doc.get("plantedBadFiles");
    assertThat(bad.get("quarantined")).isEqualTo(4L);
    assertThat(bad.get("badFileReads")).isEqualTo(8L);
    assertThat(bad.get("usersLoaded")).isEqualTo(bad.get("usersExpected"));

    Map<String, Object> cmp = (Map<String, Object>) doc.get("bulkloadVsPut");
    assertThat((Double) cmp.get("bulkloadRecordsPerSecond")).isPositive();
    assertThat((Double) cmp.get("putRecordsPerSecond")).isPositive();
    assertThat(cmp.get("putRecords")).as("both paths stored the same records").isEqualTo(cmp.get("records"));
    assertThat((List<Double>) cmp.get("putRunSeconds")).hasSize(ArchiveExperiment.COMPARISON_RUNS);

    assertThat(Path.of((String) doc.get("json"))).exists();
    Path png = Path.of((String) doc.get("chart"));
    byte[] head = Files.readAllBytes(png);
    assertThat(head).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
  }
}
