package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.cli.Progress;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Salvage of files with bad records, in both import modes: the good records load, each bad one is
 * set aside in the quarantine's rejects file with its reason, a file whose framing is lost is still
 * quarantined whole, and a rerun changes nothing.
 */
@ExtendWith(EmbeddedHBase.class)
class ArchiveSalvageIT {
  private static final String SALVAGED = "a-salvage.json";
  private static final String GOOD = "b-good.json";
  private static final String TRUNCATED = "c-truncated.json";

  /** The planted bad records of {@link #SALVAGED}: their place in the file and their reason. */
  private static final Map<Integer, String> PLANTED =
      Map.of(
          0, "wrong-value",
          4, "missing-field",
          5, "invalid-json",
          9, "invalid-utf8");

  private static final int RECORDS = 10;

  private final List<Platform> platforms = new ArrayList<>();

  @AfterEach
  void closePlatforms() {
    platforms.forEach(Platform::close);
  }

  /** The uid of record {@code i} of file {@code f}. */
  private static String uid(int f, int i) {
    return Long.toString(3_000_000_000L + f * 100L + i);
  }

  private static String goodRecord(String uid) {
    long base = Long.parseLong(uid) * 10;
    return "{\"user\":{\"id\":"
        + uid
        + ",\"screen_name\":\"u"
        + uid
        + "\",\"followers_count\":3},\"followers\":[1,2],\"friends\":[3],\"statuses\":["
        + status(base + 1)
        + ","
        + status(base + 2)
        + "]}";
  }

  private static String status(long id) {
    return "{\"id\":"
        + id
        + ",\"created_at\":\"Sat Jan 05 12:00:01 +0800 2013\",\"text\":\"salvage {me} \\\"[\\\"\"}";
  }

  /** Record {@code i} of {@link #SALVAGED}, as bytes: good, or bad for its planted reason. */
  private static byte[] salvageRecord(int i) {
    String uid = uid(0, i);
    String reason = PLANTED.get(i);
    if (reason == null) {
      return goodRecord(uid).getBytes(StandardCharsets.UTF_8);
    }
    return switch (reason) {
      case "wrong-value" ->
          goodRecord(uid)
              .replace("\"followers_count\":3", "\"followers_count\":\"three\"")
              .getBytes(StandardCharsets.UTF_8);
      case "missing-field" ->
          goodRecord(uid)
              .replace(",\"created_at\":\"Sat Jan 05 12:00:01 +0800 2013\"", "")
              .getBytes(StandardCharsets.UTF_8);
      case "invalid-json" ->
          goodRecord(uid)
              .replace("\"friends\":[3]", "\"friends\" [3]")
              .getBytes(StandardCharsets.UTF_8);
      default -> {
        byte[] b = goodRecord(uid).getBytes(StandardCharsets.UTF_8);
        int at = new String(b, StandardCharsets.UTF_8).indexOf("salvage") + 1;
        b[at] = (byte) 0xC3;
        b[at + 1] = (byte) 0x28;
        yield b;
      }
    };
  }

  /** Writes the three input files into {@code in}. */
  private static void writeInput(Path in) throws Exception {
    Files.createDirectories(in);
    ByteArrayOutputStream salvage = new ByteArrayOutputStream();
    for (int i = 0; i < RECORDS; i++) {
      salvage.write(salvageRecord(i));
      salvage.write('\n');
    }
    Files.write(in.resolve(SALVAGED), salvage.toByteArray());
    StringBuilder good = new StringBuilder();
    StringBuilder truncated = new StringBuilder();
    for (int i = 0; i < RECORDS; i++) {
      good.append(goodRecord(uid(1, i))).append('\n');
      truncated.append(goodRecord(uid(2, i))).append('\n');
    }
    Files.writeString(in.resolve(GOOD), good);
    Files.writeString(in.resolve(TRUNCATED), truncated.substring(0, truncated.length() - 40));
  }

  @Test
  void bothModesLoadTheGoodRecordsSetAsideTheBadOnesAndRerunIdempotently(HBaseRuntime runtime)
      throws Exception {
    String id = TestIds.unique("s").replace('-', '_');
    Path putDir = EmbeddedHBase.scratchDir("archive_p" + id);
    Path bulkDir = EmbeddedHBase.scratchDir("archive_b" + id);
    ArchiveService put = archive(runtime, "archive_p" + id, putDir);
    ArchiveService bulk = archive(runtime, "archive_b" + id, bulkDir);
    writeInput(putDir.resolve("in"));
    writeInput(bulkDir.resolve("in"));

    ImportReport putReport = put.importFiles(salvage(putDir, ImportMode.PUT), log());
    ImportReport bulkReport = bulk.importFiles(salvage(bulkDir, ImportMode.BULKLOAD), log());
    for (ImportReport r : List.of(putReport, bulkReport)) {
      assertFirstRun(r);
    }
    for (Path dir : List.of(putDir, bulkDir)) {
      assertFiles(dir);
    }
    for (ArchiveService archive : List.of(put, bulk)) {
      assertRecords(archive);
    }
    List<ArchiveData.Counted> cells =
        ArchiveData.assertSameData(runtime.connection(), put, bulk, goodUids(), 1);
    byte[] putRejects = Files.readAllBytes(rejects(putDir));
    assertThat(putRejects).isEqualTo(Files.readAllBytes(rejects(bulkDir)));

    // The rerun: the quarantined file has gone, the rest is read again and changes nothing.
    ImportReport putAgain = put.importFiles(salvage(putDir, ImportMode.PUT), log());
    ImportReport bulkAgain = bulk.importFiles(salvage(bulkDir, ImportMode.BULKLOAD), log());
    for (ImportReport r : List.of(putAgain, bulkAgain)) {
      assertThat(r.filesLoaded()).isEqualTo(2);
      assertThat(r.filesSkipped()).isZero();
      assertThat(r.filesSalvaged()).isEqualTo(1);
      assertThat(r.recordsSetAside()).isEqualTo(PLANTED.size());
      assertThat(r.recordsLoaded()).isEqualTo(2L * RECORDS - PLANTED.size());
    }
    assertThat(Files.readAllBytes(rejects(putDir))).isEqualTo(putRejects);
    assertThat(Files.readAllBytes(rejects(bulkDir))).isEqualTo(putRejects);
    for (ArchiveService archive : List.of(put, bulk)) {
      assertRecords(archive);
    }
    assertThat(ArchiveData.assertSameData(runtime.connection(), put, bulk, goodUids(), 1))
        .isEqualTo(cells);
  }

  @Test
  void byDefaultAFileWithBadRecordsIsQuarantinedWholeAndItsOldRejectsGo(HBaseRuntime runtime)
      throws Exception {
    String ns = "archive_q" + TestIds.unique("s").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveService archive = archive(runtime, ns, dir);
    writeInput(dir.resolve("in"));
    archive.importFiles(salvage(dir, ImportMode.PUT), log());
    assertThat(rejects(dir)).exists();

    ImportRequest whole =
        ImportRequest.local(dir.resolve("in"), ImportMode.PUT)
            .withRegions(2)
            .withQuarantine(dir.resolve("quarantine"));
    assertThat(whole.badRecords()).isEqualTo(BadRecords.QUARANTINE_FILE);
    ImportReport r = archive.importFiles(whole, log());
    assertThat(r.badRecords()).isEqualTo("quarantine-file");
    assertThat(r.filesLoaded()).isEqualTo(1);
    assertThat(r.skipped())
        .singleElement()
        .satisfies(s -> assertThat(s.file()).endsWith(SALVAGED))
        .satisfies(s -> assertThat(s.reason()).contains("followers_count"));
    assertThat(r.filesSalvaged()).isZero();
    assertThat(r.recordsSetAside()).isZero();
    assertThat(dir.resolve("in").resolve(SALVAGED)).doesNotExist();
    assertThat(dir.resolve("quarantine").resolve(SALVAGED)).exists();
    assertThat(rejects(dir)).doesNotExist();
  }

  @Test
  void aDryRunReportsWhatWouldLoadAndWouldBeSetAsideAndWritesNothing(HBaseRuntime runtime)
      throws Exception {
    String ns = "archive_d" + TestIds.unique("s").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveService archive = archive(runtime, ns, dir);
    writeInput(dir.resolve("in"));
    ImportRequest bulk = salvage(dir, ImportMode.BULKLOAD);

    ImportReport dry = archive.importFiles(bulk.withDryRun(true), log());
    assertFirstRun(dry);
    assertThat(dry.dryRun()).isNotNull();
    assertThat(dry.dryRun().hfileBytes()).isPositive();
    assertThat(dry.dryRun().regionsByTable())
        .hasSize(3)
        .allSatisfy((table, regions) -> assertThat(regions).isBetween(1, 2));
    assertThat(dry.hfiles()).isNull();
    // Nothing written: no cells, no file moved, no rejects or reason file.
    for (String uid : goodUids()) {
      assertThat(archive.user(uid)).as(uid).isEmpty();
    }
    assertThat(dir.resolve("in").resolve(TRUNCATED)).exists();
    assertThat(dir.resolve("quarantine")).doesNotExist();

    // The load itself then does what the dry run said.
    ImportReport real = archive.importFiles(bulk, log());
    assertFirstRun(real);
    assertThat(real.cells()).isEqualTo(dry.cells());
    assertThat(real.hfiles()).isEqualTo(dry.dryRun().hfiles());
    assertThat(real.salvaged()).isEqualTo(dry.salvaged());
    assertThat(real.skipped()).isEqualTo(dry.skipped());
  }

  private ArchiveService archive(HBaseRuntime runtime, String ns, Path dir) {
    Platform platform = Platform.create(runtime, dir);
    platforms.add(platform);
    ArchiveService archive = ArchiveService.inNamespace(platform.contextFor("archive-test"), ns);
    archive.prepare(new Layout(2, true), true);
    return archive;
  }

  private static ImportRequest salvage(Path dir, ImportMode mode) {
    return ImportRequest.local(dir.resolve("in"), mode)
        .withRegions(2)
        .withQuarantine(dir.resolve("quarantine"))
        .withAttempts(2)
        .withBadRecords(BadRecords.SALVAGE);
  }

  private static Progress log() {
    return Progress.logging("salvage", 0, "bytes");
  }

  private static Path rejects(Path dir) {
    return dir.resolve("quarantine").resolve(SALVAGED + ".rejects");
  }

  private static List<String> goodUids() {
    List<String> uids = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      if (!PLANTED.containsKey(i)) {
        uids.add(uid(0, i));
      }
      uids.add(uid(1, i));
    }
    return uids;
  }

  private static void assertFirstRun(ImportReport r) {
    int good = 2 * RECORDS - PLANTED.size();
    assertThat(r.badRecords()).isEqualTo("salvage");
    assertThat(r.filesLoaded()).as(r.mode()).isEqualTo(2);
    assertThat(r.filesSkipped()).isEqualTo(1);
    assertThat(r.skipped())
        .singleElement()
        .satisfies(s -> assertThat(s.file()).endsWith(TRUNCATED))
        .satisfies(s -> assertThat(s.reason()).startsWith("truncated"))
        .satisfies(s -> assertThat(s.attempts()).isEqualTo(2));
    assertThat(r.filesSalvaged()).isEqualTo(1);
    assertThat(r.salvaged())
        .singleElement()
        .satisfies(s -> assertThat(s.file()).endsWith(SALVAGED))
        .satisfies(s -> assertThat(s.recordsSetAside()).isEqualTo(PLANTED.size()))
        .satisfies(s -> assertThat(s.rejectsFile()).endsWith(SALVAGED + ".rejects"));
    assertThat(r.recordsLoaded()).isEqualTo(good);
    assertThat(r.users()).isEqualTo(good);
    assertThat(r.statuses()).isEqualTo(2L * good);
    assertThat(r.recordsSetAside()).isEqualTo(PLANTED.size());
    assertThat(r.setAsideByReason())
        .containsOnly(
            entry("wrong-value", 1L),
            entry("missing-field", 1L),
            entry("invalid-json", 1L),
            entry("invalid-utf8", 1L));
    JsonNode json = Json.mapper().valueToTree(r);
    assertThat(json.get("recordsSetAside").asLong()).isEqualTo(PLANTED.size());
    assertThat(json.get("setAsideByReason").get("invalid-json").asLong()).isEqualTo(1);
    assertThat(json.get("filesSalvaged").asInt()).isEqualTo(1);
  }

  /** The files: the salvaged one in place with its rejects, the unreadable one quarantined. */
  private static void assertFiles(Path dir) throws Exception {
    Path quarantine = dir.resolve("quarantine");
    assertThat(dir.resolve("in").resolve(SALVAGED)).exists();
    assertThat(dir.resolve("in").resolve(GOOD)).exists();
    assertThat(dir.resolve("in").resolve(TRUNCATED)).doesNotExist();
    assertThat(quarantine.resolve(TRUNCATED)).exists();
    assertThat(quarantine.resolve(TRUNCATED + ".reason")).exists();
    assertThat(quarantine.resolve(TRUNCATED + ".rejects")).doesNotExist();
    assertThat(quarantine.resolve(GOOD + ".rejects")).doesNotExist();
    byte[] file = Files.readAllBytes(dir.resolve("in").resolve(SALVAGED));
    List<String> lines = Files.readAllLines(rejects(dir));
    assertThat(lines).hasSize(PLANTED.size());
    List<Integer> indexes = new ArrayList<>();
    for (String line : lines) {
      JsonNode r = Json.mapper().readTree(line);
      int index = r.get("index").asInt();
      indexes.add(index);
      assertThat(r.get("reason").asText()).as(line).isEqualTo(PLANTED.get(index));
      assertThat(r.get("detail").asText()).isNotBlank();
      byte[] planted = salvageRecord(index);
      int start = r.get("start").asInt();
      int end = r.get("end").asInt();
      assertThat(java.util.Arrays.copyOfRange(file, start, end)).isEqualTo(planted);
      assertThat(r.get("text").asText()).isEqualTo(new String(planted, StandardCharsets.UTF_8));
      assertThat(r.get("textCut").asBoolean()).isFalse();
    }
    assertThat(indexes).containsExactly(0, 4, 5, 9);
  }

  /** Every good record is there with its statuses; no bad one and nothing of the lost file. */
  private static void assertRecords(ArchiveService archive) {
    for (String uid : goodUids()) {
      assertThat(archive.user(uid)).as(uid).isPresent();
      assertThat(archive.statuses(uid, 0, 1000))
          .as(uid)
          .extracting(StatusRecord::id)
          .containsExactly(Long.parseLong(uid) * 10 + 2, Long.parseLong(uid) * 10 + 1);
    }
    for (int i : PLANTED.keySet()) {
      String uid = uid(0, i);
      assertThat(archive.user(uid)).as(uid).isEmpty();
      assertThat(archive.statuses(uid, 0, 1000)).as(uid).isEmpty();
      assertThat(archive.status(Long.parseLong(uid) * 10 + 1)).as(uid).isEmpty();
    }
    for (int i = 0; i < RECORDS; i++) {
      assertThat(archive.user(uid(2, i))).isEmpty();
    }
  }
}
