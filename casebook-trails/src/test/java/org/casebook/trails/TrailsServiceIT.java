package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.trails.gen.LogGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class TrailsServiceIT {
  private static final LocalDate DAY1 = LocalDate.parse("2026-09-01");
  private Platform platform;
  private TrailsService trails;
  private String run;
  private Path dir;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    trails = new TrailsService(platform.contextFor(new TrailsSystem().descriptor()));
    run = TestIds.unique("t");
    dir = EmbeddedHBase.scratchDir("trails-" + run);
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  private static void assertInvalid(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo(field);
  }

  private List<Event> latest(String uid, int limit, HistoryLayout layout) {
    return trails.latest(uid, PageRequest.first(limit), layout).items();
  }

  private String u(String id) {
    return id + "@" + run;
  }

  private static String line(String uid, String type, String ts, String fields) {
    return "{\"uid\":\""
        + uid.replace("\\", "\\\\").replace("\"", "\\\"")
        + "\",\"type\":\""
        + type
        + "\",\"ts\":\""
        + ts
        + "\""
        + (fields.isEmpty() ? "" : "," + fields)
        + "}";
  }

  private IngestReport ingest(Path file) {
    return trails.ingest(
        file,
        new IngestOptions(dir.resolve("rejects.tsv"), HistoryTables.BOTH, 2),
        Progress.logging("test ingest", Files.exists(file) ? file.toFile().length() : 0, "bytes"));
  }

  @Test
  void badLinesAreCountedAndSetAsideAndReingestingDoesNotDuplicate() throws Exception {
    String a = u("42");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> good =
        List.of(
            line(a, "login", "2026-09-01T08:00:00Z", "\"device\":\"stb\",\"ip\":\"10.0.0.1\""),
            line(
                a,
                "play",
                "2026-09-01T20:15:03.120Z",
                "\"contentId\":\"c9\",\"channel\":\"movies\",\"start\":0,\"duration\":1800"),
            line(
                a,
                "visit",
                "2026-09-02T09:00:00Z",
                "\"page\":\"home\",\"column\":\"hot\",\"extra\":\"ignored\""),
            line(a, "order", "2026-09-03T21:00:00Z", "\"product\":\"p1\",\"price\":\"12.5\""));
    for (String g : good) {
      out.write((g + "\n").getBytes(StandardCharsets.UTF_8));
    }
    String[] bad = {
      "{\"uid\":\"x\",\"type\":\"play\"", // truncated
      "ERROR upload failed", // not JSON
      line(a, "order", "2026-09-03T21:00:00Z", "\"product\":\"p1\""), // missing field
      line(
          a,
          "play",
          "2026-09-03T21:00:00Z",
          "\"contentId\":\"c\",\"channel\":\"n\",\"start\":0,\"duration\":\"long\""),
      line(a, "share", "2026-09-03T21:00:00Z", ""), // unknown type
      line(a, "login", "2013/09/01 25:61", "\"device\":\"d\",\"ip\":\"i\""), // bad ts
      line(a, "order", "2026-09-03T21:00:00Z", "\"product\":\"p1\",\"price\":-1"), // negative price
      "", // empty
    };
    for (String b : bad) {
      out.write((b + "\n").getBytes(StandardCharsets.UTF_8));
    }
    byte[] badUtf8 =
        line(a, "login", "2026-09-01T09:00:00Z", "\"device\":\"X\",\"ip\":\"1\"")
            .getBytes(StandardCharsets.UTF_8);
    badUtf8[badUtf8.length - 4] = (byte) 0xC3;
    badUtf8[badUtf8.length - 3] = (byte) 0x28;
    out.write(badUtf8);
    out.write('\n');
    Path file = dir.resolve("log.jsonl");
    Files.write(file, out.toByteArray());

    IngestReport first = ingest(file);
    assertThat(first.lines()).isEqualTo(good.size() + bad.length + 1);
    assertThat(first.accepted()).isEqualTo(4);
    assertThat(first.rejected()).isEqualTo(bad.length + 1);
    assertThat(first.cells())
        .isEqualTo(2 + 4 + 2 + 2 + 1 + 4 * 2); // fields, one extra, a tall and a wide cell each
    List<String> rejects = Files.readAllLines(first.rejectsFile());
    assertThat(rejects).hasSize(bad.length + 2); // header + one per reject
    assertThat(rejects.get(1)).startsWith("5\tnot JSON");
    assertThat(String.join("\n", rejects))
        .contains("missing field 'price' for order")
        .contains("unknown type 'share'")
        .contains("bad ts")
        .contains("invalid UTF-8")
        .contains("field 'duration' must be a non-negative integer")
        .contains("empty line");

    TrailQuery all = new TrailQuery(List.of(a), DAY1, DAY1.plusDays(2), Set.of(), Set.of());
    List<Event> once = trails.trails(all).get(a).events();
    assertThat(once)
        .extracting(e -> e.type().label())
        .containsExactly("login", "play", "visit", "order");
    assertThat(once.get(1).fields())
        .containsEntry("duration", "1800")
        .containsEntry("channel", "movies");
    assertThat(once.get(1).ts())
        .isEqualTo(Instant.parse("2026-09-01T20:15:03.120Z").toEpochMilli());
    assertThat(once.get(3).fields()).containsEntry("price", "12.50");
    assertThat(once.get(2).fields()).doesNotContainKey("extra");
    // A field visit does not declare is kept as an extra, as text.
    assertThat(once.get(2).extras()).isEqualTo(Map.of("extra", "ignored"));

    IngestReport second = ingest(file);
    assertThat(second.accepted()).isEqualTo(4);
    assertThat(trails.trails(all).get(a).events()).isEqualTo(once);
    assertThat(trails.all(a, 100, HistoryLayout.TALL)).hasSize(4);
    assertThat(trails.all(a, 100, HistoryLayout.WIDE)).hasSize(4);
  }

  /** Ids that contain the seeds' separators, or are prefixes of each other (also when reversed). */
  @Test
  void separatorAndPrefixIdsKeepTheirOwnTrails() throws Exception {
    List<String> ids =
        List.of(
            u("1"),
            u("10001"),
            "1," + u("2"),
            u("a_b"),
            u("1/2"),
            "x" + u("1"),
            u("用户"),
            u("1") + "\\\"q");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      lines.add(
          line(
              ids.get(i),
              "visit",
              "2026-09-01T10:00:0" + i + "Z",
              "\"page\":\"p" + i + "\",\"column\":\"c\""));
    }
    Path file = dir.resolve("ids.jsonl");
    Files.write(file, lines, StandardCharsets.UTF_8);
    assertThat(ingest(file).accepted()).isEqualTo(ids.size());
    Map<String, Trail> result = trails.trails(new TrailQuery(ids, DAY1, DAY1, Set.of(), Set.of()));
    for (int i = 0; i < ids.size(); i++) {
      List<Event> events = result.get(ids.get(i)).events();
      assertThat(events).as(ids.get(i)).hasSize(1);
      assertThat(events.get(0).fields()).containsEntry("page", "p" + i);
      assertThat(latest(ids.get(i), 10, HistoryLayout.TALL)).as("tall " + ids.get(i)).hasSize(1);
      assertThat(latest(ids.get(i), 10, HistoryLayout.WIDE)).as("wide " + ids.get(i)).hasSize(1);
    }
  }

  @Test
  void fieldsTypesRangesAndHistoryQueries() throws Exception {
    String a = u("7");
    List<String> lines = new ArrayList<>();
    for (int d = 0; d < 5; d++) {
      String day = DAY1.plusDays(d).toString();
      lines.add(
          line(
              a,
              "play",
              day + "T20:00:00Z",
              "\"contentId\":\"c"
                  + d
                  + "\",\"channel\":\"news\",\"start\":"
                  + d
                  + ",\"duration\":60"));
      lines.add(
          line(a, "order", day + "T21:00:00Z", "\"product\":\"p" + d + "\",\"price\":" + (d + 1)));
      lines.add(line(a, "visit", day + "T22:00:00Z", "\"page\":\"home\",\"column\":\"hot\""));
    }
    Files.write(dir.resolve("h.jsonl"), lines, StandardCharsets.UTF_8);
    ingest(dir.resolve("h.jsonl"));

    TrailQuery q =
        new TrailQuery(
            List.of(a),
            DAY1.plusDays(1),
            DAY1.plusDays(3),
            Set.of(Behaviour.PLAY, Behaviour.ORDER),
            Set.of("contentId", "price"));
    List<Event> events = trails.trails(q).get(a).events();
    assertThat(events).hasSize(6);
    assertThat(events.get(0).fields())
        .containsOnlyKeys("contentId")
        .containsEntry("contentId", "c1");
    assertThat(events.get(1).fields()).containsOnlyKeys("price").containsEntry("price", "2.00");
    assertThat(events).isSortedAccordingTo(java.util.Comparator.comparingLong(Event::ts));

    for (PlanMode plan : PlanMode.values()) {
      assertThat(trails.trails(q, plan).get(a).events()).as(plan.name()).isEqualTo(events);
      TrailQuery allTypes =
          new TrailQuery(
              List.of(a, u("none")), DAY1, DAY1.plusDays(4), Set.of(), Set.of("price", "page"));
      assertThat(trails.trails(allTypes, plan))
          .as(plan.name())
          .isEqualTo(trails.trails(allTypes, PlanMode.GETS));
    }
    assertThat(
            trails
                .trails(
                    new TrailQuery(List.of(a), DAY1, DAY1.plusDays(4), Set.of(), Set.of()),
                    PlanMode.SCAN)
                .get(a)
                .events())
        .hasSize(15);

    long from = Instant.parse("2026-09-02T20:30:00Z").toEpochMilli();
    long to = Instant.parse("2026-09-04T20:30:00Z").toEpochMilli();
    assertThat(trails.range(a, Behaviour.PLAY, from, to))
        .extracting(e -> e.fields().get("contentId"))
        .containsExactly("c2", "c3");

    for (HistoryLayout layout : HistoryLayout.values()) {
      List<Event> latest = latest(a, 4, layout);
      assertThat(latest)
          .as(layout.name())
          .extracting(e -> e.type().label())
          .containsExactly("visit", "order", "play", "visit");
      assertThat(latest.get(1).fields()).containsEntry("price", "5.00");
      long ts = Instant.parse("2026-09-03T21:00:00Z").toEpochMilli();
      assertThat(trails.at(a, ts, layout))
          .as(layout.name())
          .singleElement()
          .satisfies(e -> assertThat(e.fields()).containsEntry("product", "p2"));
      assertThat(trails.all(a, 1000, layout)).hasSize(15);
      assertThat(trails.all(a, 5, layout)).hasSize(5);
    }
    assertThat(latest(a, 15, HistoryLayout.TALL)).isEqualTo(latest(a, 15, HistoryLayout.WIDE));
    assertThat(latest(a, 1000, HistoryLayout.TALL)).hasSize(15);

    // Pages of 4 walk the 15 records newest first, on either design; the last page has no next.
    for (HistoryLayout layout : HistoryLayout.values()) {
      List<Event> walked = new ArrayList<>();
      Page<Event> page = trails.latest(a, PageRequest.first(4), layout);
      int pages = 1;
      walked.addAll(page.items());
      while (page.next().isPresent()) {
        page = trails.latest(a, new PageRequest(4, page.next()), layout);
        walked.addAll(page.items());
        pages++;
      }
      assertThat(pages).as(layout.name()).isEqualTo(4);
      assertThat(walked).as(layout.name()).isEqualTo(latest(a, 15, layout));
    }
    String tallCursor =
        trails.latest(a, PageRequest.first(4), HistoryLayout.TALL).next().orElseThrow();
    assertInvalid(
        () ->
            trails.latest(
                a, new PageRequest(4, java.util.Optional.of(tallCursor)), HistoryLayout.WIDE),
        "cursor");
  }

  /** The seed's plan (one Get per user, day and behaviour) and the range scan answer the same. */
  @Test
  void getsAndScanPlansAgreeOnGeneratedLogs() throws Exception {
    Path file = dir.resolve("plans.jsonl");
    LogGenerator.write(
        new LogGenerator.Spec(300, 4, 8000, 0.0, DAY1, 13),
        file,
        Progress.logging("gen", 8000, "lines"));
    ingest(file);
    List<String> users = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      users.add(LogGenerator.userId(i * 5));
    }
    List<TrailQuery> queries =
        List.of(
            new TrailQuery(users, DAY1, DAY1.plusDays(3), Set.of(), Set.of()),
            new TrailQuery(
                users,
                DAY1.plusDays(1),
                DAY1.plusDays(2),
                Set.of(Behaviour.PLAY, Behaviour.ORDER),
                Set.of()),
            new TrailQuery(
                users, DAY1, DAY1.plusDays(3), Set.of(), Set.of("price", "page", "duration")),
            new TrailQuery(
                users.subList(0, 1),
                DAY1,
                DAY1.plusDays(3),
                Set.of(Behaviour.VISIT),
                Set.of("column")),
            // A user named twice is answered once, by both plans.
            new TrailQuery(
                List.of(users.get(0), users.get(1), users.get(0)),
                DAY1,
                DAY1.plusDays(3),
                Set.of(),
                Set.of()));
    for (TrailQuery q : queries) {
      Map<String, Trail> gets = trails.trails(q, PlanMode.GETS);
      Map<String, Trail> scan = trails.trails(q, PlanMode.SCAN);
      assertThat(scan).as(q.toString()).isEqualTo(gets);
      assertThat(gets.values().stream().mapToInt(t -> t.events().size()).sum())
          .as(q.toString())
          .isPositive();
    }
  }

  @Test
  void activeUsersDirectlyAndAsAMapReduceJob() throws Exception {
    List<String> lines = new ArrayList<>();
    List<String> users = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String uid = u("m" + i);
      users.add(uid);
      // Users divisible by 3 do all four behaviours; the others skip "order".
      lines.add(line(uid, "login", "2026-09-01T08:00:00Z", "\"device\":\"d\",\"ip\":\"1.2.3.4\""));
      lines.add(
          line(
              uid,
              "play",
              "2026-09-02T20:00:00Z",
              "\"contentId\":\"c\",\"channel\":\"n\",\"start\":0,\"duration\":5"));
      lines.add(line(uid, "visit", "2026-09-03T20:00:00Z", "\"page\":\"p\",\"column\":\"c\""));
      if (i % 3 == 0) {
        lines.add(line(uid, "order", "2026-09-04T20:00:00Z", "\"product\":\"p\",\"price\":1"));
      }
    }
    // An order outside the range does not count.
    lines.add(line(u("m1"), "order", "2026-09-20T20:00:00Z", "\"product\":\"p\",\"price\":1"));
    Files.write(dir.resolve("a.jsonl"), lines, StandardCharsets.UTF_8);
    ingest(dir.resolve("a.jsonl"));
    users.add(u("nobody"));

    Map<String, Trail> direct = trails.active(users, DAY1, DAY1.plusDays(9));
    assertThat(direct.keySet())
        .containsExactlyInAnyOrder(
            u("m0"), u("m3"), u("m6"), u("m9"), u("m12"), u("m15"), u("m18"), u("m21"), u("m24"),
            u("m27"));
    List<String> announced = new java.util.ArrayList<>();
    Map<String, Trail> viaJob =
        trails.activeMapReduce(users, DAY1, DAY1.plusDays(9), dir.resolve("mr"), announced::add);
    assertThat(announced)
        .singleElement()
        .asString()
        .contains("LocalJobRunner")
        .contains("job_local");
    assertThat(viaJob.keySet()).containsExactlyInAnyOrderElementsOf(direct.keySet());
    for (String uid : direct.keySet()) {
      assertThat(viaJob.get(uid).events()).as(uid).isEqualTo(direct.get(uid).events());
    }
  }

  @Test
  void generatedLogsIngestWithEveryPlantedBadLineRejected() throws Exception {
    Path file = dir.resolve("gen.jsonl");
    LogGenerator.Written w =
        LogGenerator.write(
            new LogGenerator.Spec(500, 3, 6000, 0.03, DAY1, 7),
            file,
            Progress.logging("gen", 6000, "lines"));
    assertThat(w.lines()).isEqualTo(6000);
    IngestReport r = ingest(file);
    assertThat(r.lines()).isEqualTo(6000);
    assertThat(r.rejected()).isEqualTo(w.malformed()).isPositive();
    assertThat(r.accepted()).isEqualTo(6000 - w.malformed());
  }

  @Test
  void badQueriesAreRejectedWithTheFieldNamed() {
    assertInvalid(() -> new TrailQuery(List.of(), DAY1, DAY1, Set.of(), Set.of()), "users");
    assertInvalid(
        () -> new TrailQuery(List.of("a"), DAY1, DAY1.minusDays(1), Set.of(), Set.of()), "to");
    assertInvalid(
        () -> new TrailQuery(List.of("a"), DAY1, DAY1, Set.of(Behaviour.PLAY), Set.of("price")),
        "fields");
    assertInvalid(() -> trails.latest("a", PageRequest.first(0), HistoryLayout.TALL), "limit");
    assertInvalid(() -> trails.latest("a", PageRequest.first(1001), HistoryLayout.TALL), "limit");
    assertThat(trails.latest("a", PageRequest.first(1000), HistoryLayout.TALL).items()).isEmpty();
    assertInvalid(() -> trails.latest("", PageRequest.first(10), HistoryLayout.TALL), "uid");
    assertInvalid(
        () -> new TrailQuery(List.of("a"), LocalDate.of(1969, 12, 31), DAY1, Set.of(), Set.of()),
        "from");
    assertInvalid(
        () -> new TrailQuery(List.of("a"), DAY1, LocalDate.of(10_000, 1, 1), Set.of(), Set.of()),
        "to");
    assertInvalid(() -> new TrailQuery(List.of("a", " "), DAY1, DAY1, Set.of(), Set.of()), "users");
    assertInvalid(
        () -> trails.range("a", Behaviour.PLAY, Long.MAX_VALUE - 1, Long.MAX_VALUE), "from");
  }
}
