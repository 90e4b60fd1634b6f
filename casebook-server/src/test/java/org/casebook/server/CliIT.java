package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The CLI attached to this JVM's embedded HBase (as it attaches to a running server). */
@ExtendWith(EmbeddedHBase.class)
class CliIT {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;

  @BeforeEach
  void capture(HBaseRuntime runtime) {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  private int cli(String... args) {
    String[] full = new String[args.length + 2];
    full[0] = "--data";
    full[1] = EmbeddedHBase.dataDir().toString();
    System.arraycopy(args, 0, full, 2, args.length);
    return Main.run(full);
  }

  @Test
  void weiboCommandsWorkAndPrintJson() {
    assertThat(cli("weibo", "follow", "cli-reader", "cli-writer")).isZero();
    assertThat(cli("weibo", "publish", "cli-writer", "hello from the CLI")).isZero();
    assertThat(cli("weibo", "timeline", "cli-reader")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("\"content\" : \"hello from the CLI\"")
        .contains("now follows");
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("attached");
  }

  @Test
  void trailsGenerateIngestQueryAndActive() throws Exception {
    java.nio.file.Path dir = EmbeddedHBase.scratchDir("cli-trails");
    java.nio.file.Path log = dir.resolve("logs.jsonl");
    assertThat(
            Main.run(
                "trails",
                "generate",
                "--out",
                log.toString(),
                "--users",
                "50",
                "--days",
                "2",
                "--records",
                "2000",
                "--first-day",
                "2026-09-01"))
        .isZero();
    assertThat(
            cli(
                "trails",
                "ingest",
                log.toString(),
                "--rejects",
                dir.resolve("rejects.tsv").toString()))
        .isZero();
    java.nio.file.Files.write(
        dir.resolve("users.txt"), java.util.List.of("10000000", "10000001", "10000002"));
    assertThat(
            cli(
                "trails",
                "query",
                "--user",
                "10000000",
                "--from",
                "2026-09-01",
                "--to",
                "2026-09-02"))
        .isZero();
    assertThat(cli("trails", "latest", "10000000", "--limit", "3", "--layout", "wide")).isZero();
    assertThat(
            cli(
                "trails",
                "active",
                "--users-file",
                dir.resolve("users.txt").toString(),
                "--from",
                "2026-09-01",
                "--to",
                "2026-09-02"))
        .isZero();
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("\"accepted\" : ")
        .contains("\"rejectReasons\"")
        .contains("\"uid\" : \"10000000\"")
        .contains("\"mode\" : \"direct\"");
    assertThat(java.nio.file.Files.readAllLines(dir.resolve("rejects.tsv")).size())
        .isGreaterThan(1);
    assertThat(cli("trails", "query", "--user", "x", "--from", "2026-09-02", "--to", "2026-09-01"))
        .isEqualTo(2);
    assertThat(cli("trails", "ingest", dir.resolve("missing.jsonl").toString())).isEqualTo(2);
  }

  /** The region actions on a system's tables, seeded, every action reported; bad input refused. */
  @Test
  void chaosActsOnTheChosenSystemsTablesAndReportsEveryAction() throws Exception {
    assertThat(cli("weibo", "publish", "chaos-cli", "a post so the tables hold a row")).isZero();
    java.nio.file.Path results = EmbeddedHBase.scratchDir("chaos-results");
    String before = System.getProperty("casebook.bench.dir");
    System.setProperty("casebook.bench.dir", results.toString());
    try {
      assertThat(
              cli(
                  "chaos",
                  "--systems",
                  "weibo",
                  "--seconds",
                  "2",
                  "--pause-ms",
                  "100",
                  "--seed",
                  "11",
                  "--actions",
                  "flush,move,compact"))
          .as(err.toString(StandardCharsets.UTF_8))
          .isZero();
    } finally {
      if (before == null) {
        System.clearProperty("casebook.bench.dir");
      } else {
        System.setProperty("casebook.bench.dir", before);
      }
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("chaos: seed 11, 4 tables of weibo");
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("action")
        .containsPattern("flush +[1-9]")
        .containsPattern("move +0 +[1-9]");
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(results)) {
      java.nio.file.Path json = files.findFirst().orElseThrow();
      com.fasterxml.jackson.databind.JsonNode report =
          org.casebook.core.Json.mapper().readTree(json.toFile());
      assertThat(report.get("seed").asLong()).isEqualTo(11);
      assertThat(report.get("events")).isNotEmpty();
    }
    assertThat(cli("chaos", "--actions", "flush,explode")).isEqualTo(2);
    assertThat(cli("chaos", "--systems", "nope")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("casebook: invalid actions: no action 'explode'")
        .contains("casebook: invalid system:");
  }

  @Test
  void userMistakesExitNonZeroWithAMessageAndNoStackTrace() {
    assertThat(cli("weibo", "follow", "same", "same")).isEqualTo(2);
    assertThat(cli("weibo", "timeline", "x", "--limit", "0")).isEqualTo(2);
    assertThat(cli("weibo", "no-such-command")).isEqualTo(2);
    assertThat(cli("hotspot", "--regions", "1")).isEqualTo(2);
    String errors = err.toString(StandardCharsets.UTF_8);
    assertThat(errors)
        .contains("casebook: invalid target:")
        .contains("casebook: invalid limit:")
        .doesNotContain("\tat org.");
  }

  @Test
  void schemaShowListsEveryTableWithItsKey() {
    assertThat(Main.run("schema", "show")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("weibo:inbox")
        .contains("m: followee:string");
  }

  @Test
  void schemaShowLiveAddsRegionsBytesAndTheLargestRegionsShare() {
    assertThat(cli("weibo", "publish", "schema-live", "bytes on disk after a flush")).isZero();
    assertThat(cli("schema", "show", "--live")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("weibo:posts")
        .containsPattern("now: \\d+ region\\(s\\), [0-9.]+ (B|KiB|MiB|GiB) on disk, largest region")
        .contains("compression=");
    out.reset();
    assertThat(cli("schema", "show", "--live", "--json")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("\"bytesOnDisk\"")
        .contains("\"largestRegionShare\"");
  }
}
