package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrailsGrowthTest {
  @TempDir Path dir;

  private Path result(String name, long records, double scanP50, double scanP99, double load)
      throws Exception {
    return Files.writeString(
        dir.resolve(name),
        "{\"ingest\":{\"accepted\":"
            + records
            + "},\"results\":[{\"step\":\"HBase ingest\",\"seconds\":"
            + load
            + "},{\"step\":\"HBase: scan\",\"seconds\":0.0,\"latency\":{\"p50Ms\":"
            + scanP50
            + ",\"p99Ms\":"
            + scanP99
            + "}}]}");
  }

  @Test
  void stepsAreFollowedFromTheSmallestRunToTheLargestAndCharted() throws Exception {
    // Given out of order: the runs sort by records.
    Path big = result("big.json", 10_000_000, 1.5, 6.0, 400);
    Path small = result("small.json", 300_000, 0.5, 3.0, 12);
    List<TrailsGrowth.Run> runs = TrailsGrowth.read(List.of(big, small));
    assertThat(runs).extracting(TrailsGrowth.Run::records).containsExactly(300_000L, 10_000_000L);
    List<TrailsGrowth.Row> rows = TrailsGrowth.rows(runs);
    assertThat(rows)
        .extracting(r -> r.step() + " " + r.measure())
        .containsExactly("HBase ingest s", "HBase: scan p50 ms", "HBase: scan p99 ms");
    assertThat(rows.get(1).growth()).isEqualTo(3.0);
    assertThat(rows.get(0).growth()).isEqualTo(400.0 / 12);
    String table = TrailsGrowth.table(runs, rows);
    assertThat(table).contains("300k").contains("10.0M").contains("3.00×");

    List<Path> charts = TrailsGrowth.charts(runs, rows, dir.resolve("growth.json"));
    assertThat(charts)
        .extracting(p -> p.getFileName().toString())
        .containsExactly("growth-p50.png", "growth-p99.png");
    for (Path png : charts) {
      byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 4);
      assertThat(head).containsExactly(0x89, 'P', 'N', 'G');
    }
  }

  @Test
  void aFileOfAnotherBenchmarkIsRefusedNamingIt() throws Exception {
    Path other = Files.writeString(dir.resolve("raw.json"), "{\"results\":[]}");
    assertThatThrownBy(() -> TrailsGrowth.read(List.of(other)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("raw.json");
  }
}
