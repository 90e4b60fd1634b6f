package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.trails.gen.LogGenerator;
import org.casebook.trails.wire.LogLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bulk load (a MapReduce job writing HFiles) against the Put path on the same log: the same
 * report, the same rejects file, the same answers to every query; loading again changes nothing.
 */
@ExtendWith(EmbeddedHBase.class)
class TrailsBulkLoadIT {
  private static final LocalDate DAY1 = LocalDate.parse("2026-09-01");
  private static final int USERS = 400;

  private Platform platform;
  private SchemaManager schemas;
  private String putsNs;
  private String bulkNs;
  private TrailsService puts;
  private TrailsService bulk;
  private Path dir;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    String run = TestIds.unique("b").replace('-', '_');
    putsNs = "trails_puts_" + run;
    bulkNs = "trails_bulk_" + run;
    schemas = new SchemaManager(runtime.connection());
    schemas.ensureAll(TrailsService.schemas(putsNs));
    schemas.ensureAll(TrailsService.schemas(bulkNs));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    SystemContext context = platform.contextFor(new TrailsSystem().descriptor());
    puts = new TrailsService(context, putsNs);
    bulk = new TrailsService(context, bulkNs);
    dir = EmbeddedHBase.scratchDir("trails-bulk-" + run);
  }

  @AfterEach
  void tearDown() {
    try {
      schemas.dropNamespace(putsNs);
      schemas.dropNamespace(bulkNs);
    } finally {
      platform.close();
    }
  }

  @Test
  void bulkLoadStoresWhatThePutsStoreAndRejectsTheSameLines() throws Exception {
    Path log = dir.resolve("log.jsonl");
    LogGenerator.Written w =
        LogGenerator.write(
            new LogGenerator.Spec(USERS, 3, 5000, 0.03, DAY1, 11),
            log,
            Progress.logging("gen", 5000, "lines"));
    // Lines the generator does not write: a CRLF ending, bad UTF-8, an empty line, a lone \r
    // inside a line (not a line end for either path), an over-long line, then a good one.
    ByteArrayOutputStream extra = new ByteArrayOutputStream();
    String uid = LogGenerator.userId(3);
    extra.write(
        ("{\"uid\":\""
                + uid
                + "\",\"type\":\"login\",\"ts\":\"2026-09-02T10:00:00Z\",\"device\":\"stb\","
                + "\"ip\":\"10.0.0.9\"}\r\n")
            .getBytes(StandardCharsets.UTF_8));
    byte[] badUtf8 =
        ("{\"uid\":\""
                + uid
                + "\",\"type\":\"login\",\"ts\":\"2026-09-02T11:00:00Z\","
                + "\"device\":\"XY\",\"ip\":\"1\"}\n")
            .getBytes(StandardCharsets.UTF_8);
    badUtf8[badUtf8.length - 14] = (byte) 0xC3;
    badUtf8[badUtf8.length - 13] = (byte) 0x28;
    extra.write(badUtf8);
    extra.write('\n');
    extra.write("ERROR upload\rfailed\n".getBytes(StandardCharsets.UTF_8));
    // Over the 1 MiB limit: both paths keep only its head and reject it as too long.
    extra.write("{\"uid\":\"".getBytes(StandardCharsets.UTF_8));
    extra.write("x".repeat(LogLines.MAX_LINE_BYTES + 100).getBytes(StandardCharsets.UTF_8));
    extra.write("\"}\n".getBytes(StandardCharsets.UTF_8));
    extra.write(
        ("{\"uid\":\""
                + uid
                + "\",\"type\":\"login\",\"ts\":\"2026-09-02T12:00:00Z\",\"device\":\"tv\","
                + "\"ip\":\"10.0.0.7\"}\n")
            .getBytes(StandardCharsets.UTF_8));
    // A byte order mark before the first line: dropped by both paths.
    byte[] generated = Files.readAllBytes(log);
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    whole.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    whole.write(generated);
    whole.write(extra.toByteArray());
    Files.write(log, whole.toByteArray());

    IngestReport byPuts = puts.ingest(log, options(dir.resolve("puts.rejects")), Progress.silent());
    IngestReport byBulk =
        bulk.ingestBulk(
            log, options(dir.resolve("bulk.rejects")), dir.resolve("work"), Progress.silent());

    assertThat(byPuts.lines()).isEqualTo(w.lines() + 6);
    assertThat(byPuts.rejected()).isEqualTo(w.malformed() + 4);
    assertThat(byPuts.rejectReasons()).containsEntry(LogLines.TOO_LONG, 1L);
    assertThat(byBulk.lines()).isEqualTo(byPuts.lines());
    assertThat(byBulk.accepted()).isEqualTo(byPuts.accepted());
    assertThat(byBulk.rejected()).isEqualTo(byPuts.rejected());
    assertThat(byBulk.cells()).isEqualTo(byPuts.cells());
    assertThat(byBulk.rejectReasons()).isEqualTo(byPuts.rejectReasons());
    assertThat(Files.readAllLines(byBulk.rejectsFile()))
        .as("the same rejects file, numbered by line")
        .isEqualTo(Files.readAllLines(byPuts.rejectsFile()));
    assertThat(Files.exists(dir.resolve("work"))).as("scratch directory removed").isFalse();

    assertSameData();
    // Loading the same log again writes the same cells: nothing doubles.
    IngestReport again =
        bulk.ingestBulk(
            log, options(dir.resolve("bulk2.rejects")), dir.resolve("work"), Progress.silent());
    assertThat(again.accepted()).isEqualTo(byPuts.accepted());
    assertSameData();
  }

  private void assertSameData() {
    assertSameData(puts, bulk, USERS, DAY1, DAY1.plusDays(2), 7, true);
  }

  /**
   * {@code actual} answers as {@code expected} does: every trail of the first {@code users}
   * generated users from {@code from} to {@code to}, and every {@code historyStep}-th user's whole
   * history in both layouts; with {@code nonEmpty}, the trails hold events.
   */
  static void assertSameData(
      TrailsService expected,
      TrailsService actual,
      int users,
      LocalDate from,
      LocalDate to,
      int historyStep,
      boolean nonEmpty) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < users; i++) {
      ids.add(LogGenerator.userId(i));
    }
    TrailQuery all = new TrailQuery(ids, from, to, Set.of(), Set.of());
    var trails = expected.trails(all);
    if (nonEmpty) {
      assertThat(trails.values().stream().mapToInt(t -> t.events().size()).sum()).isPositive();
    }
    assertThat(actual.trails(all)).as("every trail").isEqualTo(trails);
    for (int i = 0; i < users; i += historyStep) {
      String u = LogGenerator.userId(i);
      for (HistoryLayout layout : HistoryLayout.values()) {
        assertThat(actual.all(u, 10_000, layout))
            .as(u + " " + layout)
            .isEqualTo(expected.all(u, 10_000, layout));
      }
    }
  }

  private static IngestOptions options(Path rejects) {
    return new IngestOptions(rejects, HistoryTables.BOTH, 2);
  }
}
