package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The retention setting on real HBase: cells older than the window are gone from the trail, the
 * history and the latest 20 alike, before and after a major compaction; the rest stays; the TTL is
 * retuned in place on existing tables. A deleted user's records are gone from every table.
 */
@ExtendWith(EmbeddedHBase.class)
class TrailsRetentionIT {
  @Test
  void cellsOlderThanTheWindowAreGoneFromEveryTable(HBaseRuntime runtime) throws Exception {
    String namespace = "trailsret";
    SchemaManager schemas = new SchemaManager(runtime.connection());
    // Created keeping everything, then retuned to 30 days as a changed setting does.
    schemas.ensureAll(TrailsService.schemas(namespace));
    List<SchemaManager.Result> retuned = schemas.ensureAll(TrailsService.schemas(namespace, 30));
    // The registry keeps its rows forever: stored events name their behaviour by its id.
    String registry = namespace + ":behaviours";
    assertThat(retuned)
        .filteredOn(r -> !r.spec().name().getNameAsString().equals(registry))
        .hasSize(3)
        .allSatisfy(r -> assertThat(r.outcome()).isEqualTo(SchemaManager.Outcome.RETUNED))
        .allSatisfy(
            r -> assertThat(r.changes()).anyMatch(c -> c.contains("30 days (was forever)")));
    assertThat(retuned)
        .filteredOn(r -> r.spec().name().getNameAsString().equals(registry))
        .singleElement()
        .satisfies(r -> assertThat(r.outcome()).isNotEqualTo(SchemaManager.Outcome.RETUNED));

    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      TrailsService trails =
          new TrailsService(platform.contextFor(new TrailsSystem().descriptor()), namespace);
      String uid = TestIds.unique("ret");
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      List<Instant> times =
          List.of(
              now.minus(45, ChronoUnit.DAYS),
              now.minus(31, ChronoUnit.DAYS),
              now.minus(29, ChronoUnit.DAYS),
              now.minus(1, ChronoUnit.DAYS));
      // Cells written long ago: the rows ingest writes, each cell at its record's time (HBase
      // honours a cell's timestamp; ingest itself writes at the time it runs).
      TrailsRowCodec codec = TrailsRowCodec.in(namespace);
      for (Instant t : times) {
        Event e =
            new Event(
                uid,
                Behaviour.LOGIN,
                t.toEpochMilli(),
                java.util.Map.of("device", "stb", "ip", "10.0.0.1"));
        codec.rowsOf(
            e,
            HistoryTables.BOTH,
            (table, put) -> {
              org.apache.hadoop.hbase.client.Put old =
                  new org.apache.hadoop.hbase.client.Put(put.getRow());
              for (var cells : put.getFamilyCellMap().values()) {
                for (org.apache.hadoop.hbase.Cell c : cells) {
                  old.addColumn(
                      org.apache.hadoop.hbase.CellUtil.cloneFamily(c),
                      org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
                      t.toEpochMilli(),
                      org.apache.hadoop.hbase.CellUtil.cloneValue(c));
                }
              }
              try (org.apache.hadoop.hbase.client.Table tbl =
                  runtime.connection().getTable(table)) {
                tbl.put(old);
              }
            });
      }

      List<Instant> kept = times.subList(2, 4);
      List<Instant> newestFirst = List.of(kept.get(1), kept.get(0));
      assertThat(trailTimes(trails, uid, now)).containsExactlyElementsOf(kept);
      assertThat(latestTimes(trails, uid, HistoryLayout.WIDE))
          .containsExactlyElementsOf(newestFirst);
      assertThat(latestTimes(trails, uid, HistoryLayout.TALL))
          .containsExactlyElementsOf(newestFirst);

      for (var spec : TrailsService.schemas(namespace, 30)) {
        runtime.connection().getAdmin().flush(spec.name());
        runtime.connection().getAdmin().majorCompact(spec.name());
      }
      assertThat(trailTimes(trails, uid, now)).containsExactlyElementsOf(kept);
      assertThat(latestTimes(trails, uid, HistoryLayout.WIDE))
          .containsExactlyElementsOf(newestFirst);
    }
  }

  @Test
  void deletingAUserTakesItsRecordsFromEveryTableAndNoOneElses(HBaseRuntime runtime)
      throws Exception {
    String namespace = "trailsdel";
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas(namespace));
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      TrailsService trails =
          new TrailsService(platform.contextFor(new TrailsSystem().descriptor()), namespace);
      String run = TestIds.unique("del");
      // A prefix of another id, and one that ends as the other begins reversed.
      String gone = run + "-7";
      String prefixed = run + "-77";
      String suffixed = "7-" + run + "-7";
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      StringBuilder log = new StringBuilder();
      for (String uid : List.of(gone, prefixed, suffixed)) {
        for (int i = 1; i <= 3; i++) {
          log.append("{\"uid\":\"")
              .append(uid)
              .append("\",\"type\":\"login\",\"ts\":\"")
              .append(now.minus(i, ChronoUnit.HOURS))
              .append("\",\"device\":\"stb\",\"ip\":\"10.0.0.1\"}\n");
        }
      }
      Path dir = EmbeddedHBase.scratchDir("trails-delete-user");
      Path file = Files.writeString(dir.resolve("log.jsonl"), log, StandardCharsets.UTF_8);
      trails.ingest(
          file,
          new IngestOptions(dir.resolve("rejects.tsv"), HistoryTables.BOTH, 1),
          Progress.logging("delete-user ingest", Files.size(file), "bytes"));

      java.util.Map<String, Long> deleted = trails.deleteUser(gone);

      // One events row per day and behaviour: two if the three hours straddle midnight UTC.
      assertThat(deleted.get("events")).isBetween(1L, 2L);
      assertThat(deleted).containsEntry("history_tall", 3L).containsEntry("history_wide", 1L);
      assertThat(trailTimes(trails, gone, now)).isEmpty();
      assertThat(latestTimes(trails, gone, HistoryLayout.WIDE)).isEmpty();
      assertThat(latestTimes(trails, gone, HistoryLayout.TALL)).isEmpty();
      for (String other : List.of(prefixed, suffixed)) {
        assertThat(trailTimes(trails, other, now)).as(other).hasSize(3);
        assertThat(latestTimes(trails, other, HistoryLayout.WIDE)).as(other).hasSize(3);
        assertThat(latestTimes(trails, other, HistoryLayout.TALL)).as(other).hasSize(3);
      }
      assertThatThrownBy(() -> trails.deleteUser(gone))
          .isInstanceOf(org.casebook.core.NotFoundException.class);
      // Ingested again after the delete: visible again.
      trails.ingest(
          file,
          new IngestOptions(dir.resolve("rejects.tsv"), HistoryTables.BOTH, 1),
          Progress.logging("delete-user ingest", Files.size(file), "bytes"));
      assertThat(trailTimes(trails, gone, now)).hasSize(3);
      assertThat(latestTimes(trails, gone, HistoryLayout.WIDE)).hasSize(3);
    }
  }

  private static List<Instant> trailTimes(TrailsService trails, String uid, Instant now) {
    LocalDate to = LocalDate.ofInstant(now, ZoneOffset.UTC);
    TrailQuery q =
        new TrailQuery(List.of(uid), to.minusDays(60), to, java.util.Set.of(), java.util.Set.of());
    List<Instant> out = new ArrayList<>();
    trails.trails(q).get(uid).events().forEach(e -> out.add(Instant.ofEpochMilli(e.ts())));
    return out;
  }

  private static List<Instant> latestTimes(TrailsService trails, String uid, HistoryLayout layout) {
    List<Instant> out = new ArrayList<>();
    trails
        .latest(uid, PageRequest.first(20), layout)
        .items()
        .forEach(e -> out.add(Instant.ofEpochMilli(e.ts())));
    return out;
  }
}
