package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Condition queries on generated logs with planted users, in a namespace of their own (so that the
 * MapReduce run's "every user" is this test's users): the direct run over a list of users and the
 * MapReduce run over all users give the same users as {@link BruteForceConditions} on the generated
 * events.
 */
@ExtendWith(EmbeddedHBase.class)
class TrailConditionsIT {
  private static final LocalDate FROM = LocalDate.parse("2026-09-01");
  private static final LocalDate TO = LocalDate.parse("2026-09-03");
  private static final long HOUR = 3_600_000L;
  private static final String NEVER_STORED = "never-stored";

  private HBaseRuntime runtime;
  private Platform platform;
  private TrailsService trails;
  private String namespace;
  private Path dir;

  /** Every generated event by user (stored users in the order made), the range's and others. */
  private final Map<String, List<Event>> generated = new LinkedHashMap<>();

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    this.runtime = runtime;
    namespace = TestIds.unique("cond").replace('-', '_');
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas(namespace));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    trails = new TrailsService(platform.contextFor(new TrailsSystem().descriptor()), namespace);
    dir = EmbeddedHBase.scratchDir("trails-" + namespace);
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  private static long at(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private void add(Event e) {
    generated.computeIfAbsent(e.uid(), u -> new ArrayList<>()).add(e);
  }

  private static Event login(String uid, long ts) {
    return new Event(uid, Behaviour.LOGIN, ts, Map.of("device", "stb-1", "ip", "10.0.0.1"));
  }

  private static Event play(String uid, long ts, String channel, long duration) {
    return new Event(
        uid,
        Behaviour.PLAY,
        ts,
        Map.of("contentId", "c1", "channel", channel, "start", "0", "duration", "" + duration));
  }

  private static Event visit(String uid, long ts, String page) {
    return new Event(uid, Behaviour.VISIT, ts, Map.of("page", page, "column", "hot"));
  }

  private static Event order(String uid, long ts, String price) {
    return new Event(uid, Behaviour.ORDER, ts, Map.of("product", "p1", "price", price));
  }

  /** Users whose events each case is about, beside the random ones. */
  private void plant() {
    add(login("edge-in", at("2026-09-01T10:00:00Z")));
    add(play("edge-in", at("2026-09-01T12:00:00Z"), "news", 600));
    add(login("edge-out", at("2026-09-01T10:00:00Z")));
    add(play("edge-out", at("2026-09-01T12:00:00.001Z"), "news", 599));
    add(login("same-ms", at("2026-09-02T10:00:00Z")));
    add(play("same-ms", at("2026-09-02T10:00:00Z"), "movies", 600));
    add(play("reversed", at("2026-09-02T10:00:00Z"), "news", 1200));
    add(login("reversed", at("2026-09-02T11:00:00Z")));
    add(play("ten-even", at("2026-09-03T10:00:00Z"), "sports", 60));
    add(order("ten-even", at("2026-09-03T11:00:00Z"), "10.00"));
    add(play("ten-and-a-cent", at("2026-09-03T10:00:00Z"), "sports", 60));
    add(order("ten-and-a-cent", at("2026-09-03T11:00:00Z"), "10.01"));
    add(login("out-of-range", at("2026-08-31T23:59:59.999Z")));
    add(order("out-of-range", at("2026-09-04T00:00:00Z"), "99.00"));
    for (String day : List.of("01", "02", "03")) {
      String ts = "2026-09-" + day + "T20:00:00Z";
      add(login("all-four", at(ts)));
      add(play("all-four", at(ts) + 1, "news", 30));
      add(visit("all-four", at(ts) + 2, "home"));
      add(order("all-four", at(ts) + 3, "5.50"));
    }
  }

  /** Random users: events on the range's days and the days around it, crowded into a few hours. */
  private void generate(Random r, int users) {
    String[] channels = {"news", "movies", "sports"};
    String[] pages = {"home", "detail", "hot-list"};
    long first = at("2026-08-31T00:00:00Z");
    for (int i = 0; i < users; i++) {
      String uid = "g" + i;
      int n = r.nextInt(11);
      for (int k = 0; k < n; k++) {
        long ts =
            first
                + r.nextInt(5) * 24L * HOUR
                + (19 + r.nextInt(4)) * HOUR
                + r.nextInt(240) * 60_000L;
        add(
            switch (r.nextInt(4)) {
              case 0 -> login(uid, ts);
              case 1 -> play(uid, ts, channels[r.nextInt(3)], 100L * r.nextInt(13));
              case 2 -> visit(uid, ts, pages[r.nextInt(3)]);
              default ->
                  order(
                      uid,
                      ts,
                      r.nextInt(30) + "." + (r.nextBoolean() ? "00" : "5" + r.nextInt(10)));
            });
      }
      generated.putIfAbsent(uid, new ArrayList<>());
    }
  }

  private void store() {
    StringBuilder lines = new StringBuilder();
    generated.values().forEach(list -> list.forEach(e -> lines.append(line(e)).append('\n')));
    LinesReport report = trails.ingestLines(lines.toString().getBytes(StandardCharsets.UTF_8));
    assertThat(report.rejected()).isZero();
    // Users without events were made to be tested, not stored.
    generated.values().removeIf(List::isEmpty);
  }

  private static String line(Event e) {
    StringBuilder s =
        new StringBuilder("{\"uid\":\"" + e.uid() + "\",\"type\":\"" + e.type().label() + "\"");
    s.append(",\"ts\":\"").append(e.instant()).append('"');
    for (Behaviour.Field f : e.type().fields()) {
      String v = e.fields().get(f.name());
      s.append(",\"").append(f.name()).append("\":");
      s.append(f.kind() == Behaviour.Kind.TEXT ? "\"" + v + "\"" : v);
    }
    return s.append('}').toString();
  }

  /** The users whose events in the range satisfy {@code q}, by the brute force, in list order. */
  private List<String> expected(String q, List<String> users) {
    Condition.Query query = TrailCondition.parse(q).query();
    long from = at(FROM + "T00:00:00Z");
    long to = at(TO.plusDays(1) + "T00:00:00Z");
    List<String> out = new ArrayList<>();
    for (String u : users) {
      List<Event> inRange =
          generated.getOrDefault(u, List.of()).stream()
              .filter(e -> e.ts() >= from && e.ts() < to)
              .toList();
      if (BruteForceConditions.matches(query, inRange)) {
        out.add(u);
      }
    }
    return out;
  }

  private List<String> viaJob(String q) {
    return trails.matchMapReduce(q, FROM, TO, dir.resolve("mr"), where -> {});
  }

  @Test
  void directAndMapReduceAnswerAsTheBruteForceDoes() {
    plant();
    generate(new Random(0), 80);
    store();
    List<String> stored = List.copyOf(generated.keySet());
    List<String> asked = new ArrayList<>(stored);
    asked.add(NEVER_STORED);
    Map<String, List<String>> planted = new LinkedHashMap<>();
    planted.put("login THEN play WITHIN 2h", List.of("edge-in", "all-four"));
    planted.put("login THEN play", List.of("edge-in", "edge-out", "all-four"));
    planted.put("play AND order WITHIN 1d WHERE order.price > 10", List.of("ten-and-a-cent"));
    planted.put("visit AND NOT order", List.of());
    planted.put(
        "play WHERE play.channel = 'news' AND play.duration >= 600",
        List.of("edge-in", "reversed"));
    planted.put("NOT login", List.of("ten-even", "ten-and-a-cent", "out-of-range", NEVER_STORED));
    planted.put("(login OR visit) THEN order WITHIN 3h", List.of("all-four"));
    planted.put("visit OR order WHERE order.price >= 10.5", List.of("all-four"));
    planted.put("login THEN play THEN order", List.of("all-four"));
    planted.put("play AND visit WITHIN 30m WHERE visit.page ~ 'ho'", List.of("all-four"));
    planted.put("login AND NOT (play OR visit)", List.of());
    planted.put(
        "login AND play", List.of("edge-in", "edge-out", "same-ms", "reversed", "all-four"));
    planted.put("login AND play AND visit AND order", List.of("all-four"));
    for (Map.Entry<String, List<String>> c : planted.entrySet()) {
      String q = c.getKey();
      List<String> expected = expected(q, asked);
      // Each case holds its planted users and leaves some users out: the data tells answers apart.
      List<String> plantedIn = new ArrayList<>(expected);
      plantedIn.removeIf(u -> u.startsWith("g"));
      assertThat(plantedIn).as(q).containsExactlyElementsOf(c.getValue());
      assertThat(expected).as(q).isNotEmpty().hasSizeLessThan(asked.size());
      assertThat(trails.match(q, asked, FROM, TO)).as(q).containsExactlyElementsOf(expected);
      List<String> everyone = new ArrayList<>(expected);
      everyone.remove(NEVER_STORED);
      everyone.sort(null);
      assertThat(viaJob(q)).as(q).containsExactlyElementsOf(everyone);
    }
    // The seed-000 task is the four-behaviour condition.
    assertThat(trails.active(asked, FROM, TO).keySet())
        .containsExactlyInAnyOrderElementsOf(
            trails.match("login AND play AND visit AND order", asked, FROM, TO));
  }

  @Test
  void aRegionBoundaryInsideAUsersRowsLeavesTheUserWhole() throws Exception {
    String uid = "split-user";
    add(login(uid, at("2026-09-01T08:00:00Z")));
    add(visit(uid, at("2026-09-02T08:00:00Z"), "home"));
    add(order(uid, at("2026-09-03T08:00:00Z"), "12.00"));
    add(order("neighbour", at("2026-09-03T08:00:00Z"), "1.00"));
    store();
    TableName events = TrailsRowCodec.in(namespace).events();
    byte[] inside =
        TrailsKeys.eventRow(uid, TrailsKeys.epochDay(FROM.plusDays(1)), Behaviour.VISIT);
    int before;
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.flush(events);
      before = admin.getRegions(events).size();
      admin.split(events, inside);
    }
    awaitRegions(events, before + 1);
    for (String q :
        List.of("login AND order", "login THEN visit THEN order WITHIN 2d", "NOT play")) {
      List<String> expected = new ArrayList<>(expected(q, List.of(uid, "neighbour")));
      expected.sort(null);
      assertThat(viaJob(q)).as(q).containsExactlyElementsOf(expected);
    }
    assertThat(viaJob("login AND order")).containsExactly(uid);
  }

  private void awaitRegions(TableName table, int regions) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      try (RegionLocator locator = runtime.connection().getRegionLocator(table)) {
        List<org.apache.hadoop.hbase.HRegionLocation> all = locator.getAllRegionLocations();
        if (all.size() == regions && all.stream().allMatch(l -> l.getServerName() != null)) {
          return;
        }
      }
      assertThat(System.nanoTime()).as("regions of " + table).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  @Test
  void badQueriesAreRefusedBeforeAnythingRuns() {
    assertThatThrownBy(() -> trails.match("login THEN", List.of("a"), FROM, TO))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("query"));
    assertThatThrownBy(() -> trails.match("login", List.of(), FROM, TO))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("users"));
    assertThatThrownBy(() -> trails.match("login", List.of("a"), TO, FROM))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("to"));
    assertThatThrownBy(() -> trails.matchMapReduce("shop", FROM, TO, dir.resolve("x"), w -> {}))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("query"));
    assertThatThrownBy(
            () ->
                trails.matchMapReduce("login", FROM, FROM.plusDays(366), dir.resolve("x"), w -> {}))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("to"));
  }
}
