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
    assertThat(table).contains("300k").contains("10M").contains("3.00×");

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
  void fourSizesUpToTheSeedsWithBytesPerRecordAndABulkOnlyRun() throws Exception {
    Path a = result("a.json", 297_000, 0.3, 1.0, 2.8);
    Path b = result("b.json", 2_970_000, 0.6, 4.2, 30);
    Path c = result("c.json", 9_900_000, 1.0, 8.1, 94);
    // The seed's size loaded by the bulk load only: no ingest section, its records in bulkLoad;
    // the bytes each side stores per record in the storage sections.
    Path d =
        Files.writeString(
            dir.resolve("d.json"),
            "{\"bulkLoad\":{\"accepted\":99000000},"
                + "\"hbaseStorage\":{\"bytesPerRecord\":393.8},"
                + "\"postgresStorage\":{\"bytesPerRecord\":196.8},"
                + "\"results\":[{\"step\":\"HBase: scan\",\"seconds\":0.0,"
                + "\"latency\":{\"p50Ms\":2.0,\"p99Ms\":12.0}},"
                + "{\"step\":\"HBase: bytes stored (events + tall + wide)\",\"count\":1,"
                + "\"seconds\":0.0}]}");
    List<TrailsGrowth.Run> runs = TrailsGrowth.read(List.of(d, c, b, a));
    assertThat(runs)
        .extracting(TrailsGrowth.Run::records)
        .containsExactly(297_000L, 2_970_000L, 9_900_000L, 99_000_000L);
    List<TrailsGrowth.Row> rows = TrailsGrowth.rows(runs);
    assertThat(rows)
        .extracting(r -> r.step() + " " + r.measure())
        .containsExactly(
            "HBase ingest s",
            "HBase: scan p50 ms",
            "HBase: scan p99 ms",
            TrailsGrowth.HBASE_BYTES + " B/rec",
            TrailsGrowth.POSTGRES_BYTES + " B/rec");
    assertThat(rows.get(3).values()).containsExactly(Double.NaN, Double.NaN, Double.NaN, 393.8);
    String table = TrailsGrowth.table(runs, rows);
    assertThat(table).contains("297k").contains("2.97M").contains("9.9M").contains("99M");
    assertThat(table).contains("393.800").contains("6.67×"); // scan p50: 2.0 / 0.3
    assertThat(TrailsGrowth.charts(runs, rows, dir.resolve("growth4.json"))).hasSize(2);
  }

  @Test
  void recordCountsAreShortLabels() {
    assertThat(TrailsGrowth.records(100_000_000)).isEqualTo("100M");
    assertThat(TrailsGrowth.records(99_000_000)).isEqualTo("99M");
    assertThat(TrailsGrowth.records(9_900_000)).isEqualTo("9.9M");
    assertThat(TrailsGrowth.records(2_970_000)).isEqualTo("2.97M");
    assertThat(TrailsGrowth.records(297_000)).isEqualTo("297k");
    assertThat(TrailsGrowth.records(999_600)).isEqualTo("1M");
    assertThat(TrailsGrowth.records(1_000_000_000)).isEqualTo("1G");
    assertThat(TrailsGrowth.records(500)).isEqualTo("500");
  }

  @Test
  void aFileOfAnotherBenchmarkIsRefusedNamingIt() throws Exception {
    Path other = Files.writeString(dir.resolve("raw.json"), "{\"results\":[]}");
    assertThatThrownBy(() -> TrailsGrowth.read(List.of(other)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("raw.json");
  }
}
