package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class ArchiveServiceIT {
  private final List<Platform> platforms = new ArrayList<>();

  @AfterEach
  void closePlatforms() {
    platforms.forEach(Platform::close);
  }

  @Test
  void putImportLoadsGoodFilesQuarantinesBadOnesAndIsIdempotent(HBaseRuntime runtime)
      throws Exception {
    String ns = "archive_" + TestIds.unique("t").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveGenerator.Written w =
        ArchiveGenerator.write(new ArchiveGenerator.Spec(10, 20, 5, true, 5, 3), dir.resolve("in"));
    assertThat(w.badFiles()).hasSize(4);
    ArchiveService archive = service(runtime, ns, dir);
    Layout layout = archive.prepare(new Layout(4, true), true);
    assertThat(layout).isEqualTo(new Layout(4, true));
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getRegions(org.apache.hadoop.hbase.TableName.valueOf(ns, "status")))
          .hasSize(4);
    }

    ImportRequest puts =
        ImportRequest.local(dir.resolve("in"), ImportMode.PUT)
            .withRegions(4)
            .withQuarantine(dir.resolve("quarantine"))
            .withAttempts(2);
    ImportReport first = archive.importFiles(puts, Progress.logging("import", w.bytes(), "bytes"));
    assertThat(first.filesLoaded()).isEqualTo(6);
    assertThat(first.skipped()).hasSize(4);
    assertThat(first.skipped()).extracting(ImportReport.Skipped::attempts).containsOnly(2);
    assertThat(first.skipped())
        .extracting(ImportReport.Skipped::reason)
        .anySatisfy(r -> assertThat(r).startsWith("truncated"))
        .anySatisfy(r -> assertThat(r).startsWith("invalid JSON"))
        .anySatisfy(r -> assertThat(r).contains("followers_count").contains("non-negative integer"))
        .anySatisfy(r -> assertThat(r).startsWith("invalid UTF-8"));
    for (Path bad : w.badFiles()) {
      assertThat(bad).doesNotExist();
      assertThat(dir.resolve("quarantine").resolve(bad.getFileName())).exists();
      assertThat(Files.readString(dir.resolve("quarantine").resolve(bad.getFileName() + ".reason")))
          .contains("reason: ");
    }
    assertThat(first.users()).isEqualTo(w.users());
    assertThat(first.statuses()).isEqualTo(w.statuses());
    // The report is serialised as it is, with the report's field names; no HFile counts for puts.
    JsonNode json = Json.mapper().valueToTree(first);
    assertThat(json.get("mode").asText()).isEqualTo("put");
    assertThat(json.get("regions").asInt()).isEqualTo(4);
    assertThat(json.get("keyRule").asBoolean()).isTrue();
    assertThat(json.get("filesSkipped").asInt()).isEqualTo(4);
    assertThat(json.get("skipped").get(0).has("quarantinedTo")).isTrue();
    assertThat(json.has("hfiles")).isFalse();
    assertThat(json.get("phaseSeconds").has("memstoreFlush")).isTrue();
    assertThat(json.has("recordsPerSecond")).isTrue();

    // Every good user and status is there; the big file (5x the users) was streamed.
    int goodFile = 2;
    String uid = ArchiveGenerator.userId(goodFile, 3, 20);
    UserRecord user = archive.user(uid).orElseThrow();
    assertThat(user.profile()).containsKey("screen_name").containsKey("followers_count");
    List<StatusRecord> statuses = archive.statuses(uid, 0, 1000);
    assertThat(statuses).isNotEmpty().isSortedAccordingTo((a, b) -> Long.compare(b.id(), a.id()));
    StatusRecord newest = statuses.get(0);
    assertThat(archive.status(newest.id())).contains(newest);
    String bigUser = ArchiveGenerator.userId(9, 99, 20);
    assertThat(archive.user(bigUser)).isPresent();
    long total = 0;
    for (int f = 0; f < 10; f++) {
      Path file = dir.resolve("in").resolve(String.format("weibo-%05d.json", f));
      if (Files.exists(file)) {
        int users = f == 9 ? 100 : 20;
        for (int u = 0; u < users; u++) {
          total += archive.statuses(ArchiveGenerator.userId(f, u, 20), 0, 1000).size();
        }
      }
    }
    assertThat(total).isEqualTo(w.statuses());

    // Paging and the rerun: same counts, nothing doubled.
    List<StatusRecord> page2 = archive.statuses(uid, statuses.get(0).id(), 1000);
    assertThat(page2).hasSize(statuses.size() - 1);
    ImportReport second = archive.importFiles(puts, Progress.logging("import", w.bytes(), "bytes"));
    assertThat(second.skipped()).isEmpty();
    assertThat(second.filesLoaded()).isEqualTo(6);
    assertThat(archive.statuses(uid, 0, 1000)).isEqualTo(statuses);
  }

  @Test
  void bulkLoadWritesHFilesForThePreSplitTablesAndQuarantinesBadFiles(HBaseRuntime runtime)
      throws Exception {
    String ns = "archive_" + TestIds.unique("b").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveGenerator.Written w =
        ArchiveGenerator.write(new ArchiveGenerator.Spec(10, 20, 5, true, 5, 4), dir.resolve("in"));
    ArchiveService archive = service(runtime, ns, dir);
    archive.prepare(new Layout(4, true), true);
    ImportRequest bulk =
        ImportRequest.local(dir.resolve("in"), ImportMode.BULKLOAD)
            .withRegions(4)
            .withQuarantine(dir.resolve("quarantine"))
            .withAttempts(2);
    ImportReport r = archive.importFiles(bulk, Progress.logging("bulk load", 0, "bytes"));
    assertThat(r.mode()).isEqualTo("bulkload");
    assertThat(r.filesLoaded()).isEqualTo(6);
    assertThat(r.skipped()).hasSize(4);
    assertThat(r.skipped())
        .extracting(ImportReport.Skipped::reason)
        .anySatisfy(x -> assertThat(x).startsWith("truncated"))
        .anySatisfy(x -> assertThat(x).startsWith("invalid UTF-8"));
    assertThat(r.users()).isEqualTo(w.users());
    assertThat(r.statuses()).isEqualTo(w.statuses());
    // One reducer per region of each table: every HFile fits its region, the loader splits none.
    assertThat(r.hfiles()).isPositive();
    assertThat(r.hfileSplits()).isZero();
    long total = 0;
    for (int f = 0; f < 10; f++) {
      if (Files.exists(dir.resolve("in").resolve(String.format("weibo-%05d.json", f)))) {
        for (int u = 0; u < (f == 9 ? 100 : 20); u++) {
          String uid = ArchiveGenerator.userId(f, u, 20);
          assertThat(archive.user(uid)).as(uid).isPresent();
          List<StatusRecord> statuses = archive.statuses(uid, 0, 1000);
          total += statuses.size();
          for (StatusRecord s : statuses.subList(0, Math.min(1, statuses.size()))) {
            assertThat(archive.status(s.id())).contains(s);
          }
        }
      }
    }
    assertThat(total).isEqualTo(w.statuses());
    // A rerun loads the same cells again: still one status per id.
    String uid = ArchiveGenerator.userId(2, 0, 20);
    List<StatusRecord> before = archive.statuses(uid, 0, 1000);
    archive.importFiles(bulk, Progress.logging("bulk load", 0, "bytes"));
    List<StatusRecord> again = archive.statuses(uid, 0, 1000);
    assertThat(again).isNotEmpty().isEqualTo(before);
    assertThat(again).extracting(StatusRecord::id).doesNotHaveDuplicates();
  }

  @Test
  void anExistingArchiveKeepsItsLayout(HBaseRuntime runtime) {
    String ns = "archive_" + TestIds.unique("l").replace('-', '_');
    ArchiveService archive = service(runtime, ns, EmbeddedHBase.scratchDir(ns));
    assertThat(archive.layout()).isEmpty();
    assertThat(archive.prepare(new Layout(3, true), true)).isEqualTo(new Layout(3, true));
    assertThat(archive.prepare(new Layout(8, true), true)).isEqualTo(new Layout(3, true));
    assertThat(archive.user("123")).isEmpty();
    assertThatThrownBy(() -> archive.user("abc")).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> archive.status(0)).isInstanceOf(InvalidInputException.class);
  }

  @Test
  void anImportOfAMissingOrEmptyInputIsRefusedBeforeAnythingIsCreated(HBaseRuntime runtime)
      throws Exception {
    String ns = "archive_" + TestIds.unique("e").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveService archive = service(runtime, ns, dir);
    assertThatThrownBy(
            () ->
                archive.importFiles(
                    ImportRequest.local(dir.resolve("missing"), ImportMode.PUT), Progress.silent()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no such file");
    Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(
            () ->
                archive.importFiles(
                    ImportRequest.local(dir.resolve("empty"), ImportMode.PUT), Progress.silent()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no input files");
    assertThat(archive.layout()).isEmpty();
    assertThatThrownBy(() -> ImportRequest.local(dir, ImportMode.PUT).withAttempts(11))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("attempts");
  }

  @Test
  void anArchiveMadeWithItsOwnSplitPointsAndSettingsTakesAHashPartitionedBulkLoad(
      HBaseRuntime runtime) throws Exception {
    String ns = "archive_" + TestIds.unique("s").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveGenerator.Written w =
        ArchiveGenerator.write(new ArchiveGenerator.Spec(4, 20, 5, false, 0, 5), dir.resolve("in"));
    ArchiveService archive = service(runtime, ns, dir);
    // Without the key rule the keys start with the uid: split between the generated users.
    Layout plain = new Layout(3, false);
    SplitPoints byUid =
        SplitPoints.of(
            List.of(Bytes.toBytes("1000000020"), Bytes.toBytes("1000000050")), "two uids");
    ArchiveTables tables =
        ArchiveTables.unsplit(plain)
            .splitAt(byUid, byUid, SplitPoints.none())
            .withTableSettings(Map.of(TableDescriptorBuilder.MAX_FILESIZE, "1073741824"));
    assertThat(archive.prepare(tables)).isEqualTo(plain);
    assertThat(archive.layout()).contains(plain);
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getRegions(TableName.valueOf(ns, "user"))).hasSize(3);
      assertThat(admin.getRegions(TableName.valueOf(ns, "status"))).hasSize(3);
      assertThat(admin.getRegions(TableName.valueOf(ns, "status_index"))).hasSize(1);
      assertThat(admin.getDescriptor(TableName.valueOf(ns, "status")).getMaxFileSize())
          .isEqualTo(1L << 30);
    }

    // Rows hashed over the reducers: every HFile of user and status spans their regions.
    ImportReport r =
        archive.importFiles(
            ImportRequest.local(dir.resolve("in"), ImportMode.BULKLOAD)
                .withQuarantine(dir.resolve("quarantine"))
                .withPartitioning(Partitioning.HASH),
            Progress.silent());
    assertThat(r.keyRule()).as("the archive keeps its layout").isFalse();
    assertThat(r.hfileSplits()).isPositive();
    assertThat(r.skipped()).isEmpty();
    assertThat(r.badFileReads()).isZero();
    assertThat(r.users()).isEqualTo(w.users());
    long total = 0;
    for (int f = 0; f < 4; f++) {
      for (int u = 0; u < 20; u++) {
        String uid = ArchiveGenerator.userId(f, u, 20);
        assertThat(archive.user(uid)).as(uid).isPresent();
        total += archive.statuses(uid, 0, 1000).size();
      }
    }
    assertThat(total).isEqualTo(w.statuses());
  }

  @Test
  void experimentResultsAreRecordedAsJsonObjectsNewestFirst(HBaseRuntime runtime) {
    String ns = "archive_" + TestIds.unique("x").replace('-', '_');
    ArchiveService archive = service(runtime, ns, EmbeddedHBase.scratchDir(ns));
    assertThat(archive.experiments(5)).as("no meta table yet").isEmpty();
    assertThatThrownBy(() -> archive.recordExperiment(Instant.now(), "[1, 2]"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("object");
    assertThatThrownBy(() -> archive.recordExperiment(Instant.now(), "{\"runs\": ["))
        .isInstanceOf(InvalidInputException.class);
    archive.recordExperiment(Instant.ofEpochMilli(1_000), "{\"runs\":[1]}");
    archive.recordExperiment(Instant.ofEpochMilli(2_000), "{\"runs\":[2]}");
    assertThat(archive.experiments(5))
        .containsExactly(
            new RecordedExperiment(Instant.ofEpochMilli(2_000), "{\"runs\":[2]}"),
            new RecordedExperiment(Instant.ofEpochMilli(1_000), "{\"runs\":[1]}"));
    assertThat(archive.experiments(1)).hasSize(1);
  }

  /**
   * The archive in namespace {@code ns}, on a context of a platform with data under {@code dir}.
   */
  private ArchiveService service(HBaseRuntime runtime, String ns, Path dir) {
    Platform platform = Platform.create(runtime, dir);
    platforms.add(platform);
    return ArchiveService.inNamespace(platform.contextFor("archive-test"), ns);
  }

  @Test
  void splitPlanFollowsTheSeedsRule() {
    SplitPlan p = SplitPlan.compute(8_900L << 30, 1.5, 200L << 30, 20);
    assertThat(p.regions()).isEqualTo(80); // ceil(13.35 TB / 200 GB) = 67 → next multiple of 20
    assertThat(SplitPlan.compute(1000, 1.5, 64L << 20, 1).regions()).isEqualTo(1);
    assertThat(p.explain()).contains("= 80");
  }
}
