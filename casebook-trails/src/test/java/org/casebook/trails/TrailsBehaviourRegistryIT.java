package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.casebook.core.ConflictException;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Behaviour types declared without code (issue #36), on real HBase in a namespace of their own (so
 * that the MapReduce run's "every user" is this test's users): a declared type used end to end,
 * concurrent declarations, and what the registry refuses.
 */
@ExtendWith(EmbeddedHBase.class)
class TrailsBehaviourRegistryIT {
  private static final LocalDate FROM = LocalDate.parse("2026-09-01");
  private static final LocalDate TO = LocalDate.parse("2026-09-03");
  private static final List<Behaviour.Field> WATCH =
      List.of(
          new Behaviour.Field("contentId", Behaviour.Kind.TEXT),
          new Behaviour.Field("seconds", Behaviour.Kind.COUNT));

  private HBaseRuntime runtime;
  private Platform platform;
  private TrailsService trails;
  private String namespace;
  private Path dir;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    this.runtime = runtime;
    namespace = TestIds.unique("reg").replace('-', '_');
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas(namespace));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    trails = newService();
    dir = EmbeddedHBase.scratchDir("trails-" + namespace);
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  /** Another service on the same tables: what another process sees. */
  private TrailsService newService() {
    return new TrailsService(platform.contextFor(new TrailsSystem().descriptor()), namespace);
  }

  private static String play(String uid, String ts, String extras) {
    return "{\"uid\":\""
        + uid
        + "\",\"type\":\"play\",\"ts\":\""
        + ts
        + "\",\"contentId\":\"c1\",\"channel\":\"news\",\"start\":0,\"duration\":60"
        + extras
        + "}";
  }

  private static String watch(String uid, String ts, long seconds) {
    return "{\"uid\":\""
        + uid
        + "\",\"type\":\"watch\",\"ts\":\""
        + ts
        + "\",\"contentId\":\"w1\",\"seconds\":"
        + seconds
        + "}";
  }

  private static byte[] lines(String... lines) {
    return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aDeclaredBehaviourIsUsedEndToEnd() throws Exception {
    // A service that has read the registry before the declaration: it must see it all the same.
    TrailsService other = newService();
    assertThat(other.behaviours()).extracting(Behaviour::label).doesNotContain("watch");
    assertThat(other.ingestLines(lines(watch("early", "2026-09-01T09:00:00Z", 5))).rejectReasons())
        .containsEntry("unknown type", 1L);

    Behaviour watch = trails.declareBehaviour("watch", WATCH);
    assertThat(watch.id()).isEqualTo(5);
    assertThat(watch.builtIn()).isFalse();

    // The file ingest: watch lines, and a built-in's line with extra fields.
    Path log = dir.resolve("log.jsonl");
    Files.write(
        log,
        List.of(
            play("hit", "2026-09-01T10:00:00Z", ",\"campaign\":\"autumn\",\"abTest\":7"),
            watch("hit", "2026-09-01T11:00:00Z", 60),
            play("short", "2026-09-02T10:00:00Z", ""),
            watch("short", "2026-09-02T11:00:00Z", 10),
            watch("before", "2026-09-02T09:00:00Z", 600),
            play("before", "2026-09-02T10:00:00Z", ",\"extra\":{\"campaign\":\"spring\"}")),
        StandardCharsets.UTF_8);
    IngestReport file =
        trails.ingest(
            log,
            new IngestOptions(dir.resolve("log.rejects"), HistoryTables.BOTH, 2),
            Progress.silent());
    assertThat(file.rejected()).isZero();
    assertThat(file.accepted()).isEqualTo(6);

    // The upload (POST /api/trails/events): through the other service, which reloads on the miss.
    LinesReport upload =
        awaitAccepted(
            other,
            lines(
                play("late", "2026-09-03T10:00:00Z", ""),
                watch("late", "2026-09-03T10:30:00Z", 11)));
    assertThat(upload.accepted()).isEqualTo(2);

    // The bulk load's tasks decode watch lines from the snapshot in their configuration.
    Path bulkLog = dir.resolve("bulk.jsonl");
    Files.write(
        bulkLog,
        List.of(
            play("bulk", "2026-09-01T12:00:00Z", ",\"campaign\":\"bulk\""),
            watch("bulk", "2026-09-01T12:30:00Z", 99)),
        StandardCharsets.UTF_8);
    IngestReport bulk =
        trails.ingestBulk(
            bulkLog,
            new IngestOptions(dir.resolve("bulk.rejects"), HistoryTables.BOTH, 1),
            dir.resolve("work"),
            Progress.silent());
    assertThat(bulk.accepted()).isEqualTo(2);
    assertThat(bulk.rejected()).isZero();

    // Trails: the declared fields, and the extras kept as text.
    Map<String, Trail> t =
        trails.trails(
            new TrailQuery(List.of("hit", "before", "bulk"), FROM, TO, Set.of(), Set.of()));
    assertThat(t.get("hit").events())
        .extracting(e -> e.type().label())
        .containsExactly("play", "watch");
    Event hitPlay = t.get("hit").events().get(0);
    assertThat(hitPlay.extras())
        .containsExactlyInAnyOrderEntriesOf(Map.of("campaign", "autumn", "abTest", "7"));
    assertThat(hitPlay.fields()).containsEntry("duration", "60").doesNotContainKey("campaign");
    assertThat(t.get("hit").events().get(1).fields())
        .containsExactlyInAnyOrderEntriesOf(Map.of("contentId", "w1", "seconds", "60"));
    assertThat(t.get("before").events().get(1).extras()).containsEntry("campaign", "spring");
    assertThat(t.get("bulk").events())
        .extracting(Event::fields)
        .last()
        .isEqualTo(Map.of("contentId", "w1", "seconds", "99"));
    assertThat(t.get("bulk").events().get(0).extras()).containsEntry("campaign", "bulk");
    // Only the declared type, by name: the Gets plan reads its rows alone.
    assertThat(
            trails
                .trails(new TrailQuery(List.of("hit"), FROM, TO, Set.of(watch), Set.of("seconds")))
                .get("hit")
                .events())
        .singleElement()
        .satisfies(e -> assertThat(e.fields()).isEqualTo(Map.of("seconds", "60")));
    // The seed-004 history keeps the extras too.
    assertThat(trails.latest("hit", PageRequest.first(10), HistoryLayout.WIDE).items())
        .extracting(Event::extras)
        .contains(Map.of("campaign", "autumn", "abTest", "7"));
    assertThat(trails.all("hit", 10, HistoryLayout.TALL))
        .extracting(e -> e.type().label())
        .containsExactlyInAnyOrder("play", "watch");

    // The condition language on the declared type and on extras: direct and MapReduce agree.
    List<String> everyone = List.of("hit", "short", "before", "late", "bulk", "nobody");
    Map<String, List<String>> cases =
        Map.of(
            "play THEN watch WHERE watch.seconds > 10", List.of("bulk", "hit", "late"),
            "play THEN watch", List.of("bulk", "hit", "late", "short"),
            "watch THEN play WHERE play.extra.campaign = 'spring'", List.of("before"),
            "play WHERE play.extra.campaign ~ 'aut'", List.of("hit"),
            "play WHERE play.extra.campaign != 'autumn'", List.of("before", "bulk"));
    for (Map.Entry<String, List<String>> c : cases.entrySet()) {
      List<String> direct = new ArrayList<>(trails.match(c.getKey(), everyone, FROM, TO));
      direct.sort(null);
      assertThat(direct).as(c.getKey()).containsExactlyElementsOf(c.getValue());
      assertThat(trails.matchMapReduce(c.getKey(), FROM, TO, dir.resolve("mr"), w -> {}))
          .as(c.getKey())
          .containsExactlyElementsOf(direct);
    }
    // The seed-000 task still means the four built-ins; its MapReduce run reads watch rows too.
    assertThat(trails.active(everyone, FROM, TO)).isEmpty();
    assertThat(trails.activeMapReduce(everyone, FROM, TO, dir.resolve("active"), w -> {}))
        .isEmpty();
    // A type nobody declared is still refused, by the condition language and by ingest.
    assertThatThrownBy(() -> trails.match("share", everyone, FROM, TO))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("query"));
    assertThat(
            trails
                .ingestLines(lines("{\"uid\":\"u\",\"type\":\"share\",\"ts\":0}"))
                .rejectReasons())
        .containsEntry("unknown type", 1L);
  }

  /** Uploads {@code body} until its lines are accepted, for at most the registry's miss bound. */
  private static LinesReport awaitAccepted(TrailsService service, byte[] body) throws Exception {
    long deadline = System.nanoTime() + 5 * BehaviourRegistry.MISS_RELOAD_NANOS;
    while (true) {
      LinesReport r = service.ingestLines(body);
      if (r.rejected() == 0 || System.nanoTime() > deadline) {
        return r;
      }
      Thread.sleep(50);
    }
  }

  @Test
  void concurrentDeclarationsNeverShareAnIdAndOneNameGetsOne() throws Exception {
    int threads = 8;
    List<Integer> distinct = race(threads, i -> trails.declareBehaviour("d" + i, WATCH).id());
    assertThat(new HashSet<>(distinct)).hasSize(threads);
    assertThat(distinct).allSatisfy(id -> assertThat(id).isBetween(5, 5 + threads - 1));
    // Each from a service of its own, as separate processes would.
    List<TrailsService> services = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      services.add(newService());
    }
    List<Integer> same = race(threads, i -> services.get(i).declareBehaviour("same", WATCH).id());
    assertThat(new HashSet<>(same)).singleElement().isEqualTo(5 + threads);
    assertThat(trails.behaviours())
        .extracting(Behaviour::id)
        .containsExactlyElementsOf(
            java.util.stream.IntStream.rangeClosed(1, 5 + threads).boxed().toList());
  }

  private interface Indexed {
    int call(int i) throws Exception;
  }

  private static List<Integer> race(int threads, Indexed task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int n = i;
        Callable<Integer> c =
            () -> {
              start.await();
              return task.call(n);
            };
        futures.add(pool.submit(c));
      }
      start.countDown();
      List<Integer> out = new ArrayList<>();
      for (Future<Integer> f : futures) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theRegistryRefusesWhatWouldBreakStoredData() {
    Behaviour watch = trails.declareBehaviour("watch", WATCH);
    // The same declaration again: nothing changes.
    assertThat(trails.declareBehaviour("watch", List.of(WATCH.get(1), WATCH.get(0))).id())
        .isEqualTo(watch.id());
    assertThat(trails.behaviour("watch").fields()).isEqualTo(WATCH);
    // Adding a field keeps the id and the stored fields' order.
    Behaviour.Field rating = new Behaviour.Field("rating", Behaviour.Kind.MONEY);
    Behaviour grownWatch =
        trails.declareBehaviour("watch", List.of(rating, WATCH.get(0), WATCH.get(1)));
    assertThat(grownWatch.id()).isEqualTo(watch.id());
    assertThat(grownWatch.fields()).containsExactly(WATCH.get(0), WATCH.get(1), rating);
    List<Behaviour.Field> withRating = grownWatch.fields();
    assertInvalid(() -> trails.declareBehaviour("Watch", WATCH), "name");
    assertInvalid(() -> trails.declareBehaviour("9lives", WATCH), "name");
    assertInvalid(() -> trails.declareBehaviour("w".repeat(33), WATCH), "name");
    assertInvalid(() -> trails.declareBehaviour("share", List.of()), "fields");
    assertInvalid(
        () ->
            trails.declareBehaviour(
                "share", List.of(new Behaviour.Field("ts", Behaviour.Kind.TEXT))),
        "fields");
    assertInvalid(
        () ->
            trails.declareBehaviour(
                "share", List.of(new Behaviour.Field("a-b", Behaviour.Kind.TEXT))),
        "fields");
    assertInvalid(
        () ->
            trails.declareBehaviour(
                "share",
                List.of(
                    new Behaviour.Field("a", Behaviour.Kind.TEXT),
                    new Behaviour.Field("A", Behaviour.Kind.COUNT))),
        "fields");
    List<Behaviour.Field> many = new ArrayList<>();
    for (int i = 0; i <= Behaviour.MAX_FIELDS; i++) {
      many.add(new Behaviour.Field("f" + i, Behaviour.Kind.TEXT));
    }
    assertInvalid(() -> trails.declareBehaviour("share", many), "fields");
    // Growing past the bound by additions is refused too.
    List<Behaviour.Field> grown = new ArrayList<>(withRating);
    grown.addAll(many.subList(0, Behaviour.MAX_FIELDS - 2));
    assertInvalid(() -> trails.declareBehaviour("watch", grown), "fields");
    assertThatThrownBy(() -> trails.declareBehaviour("play", WATCH))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(
            () ->
                trails.declareBehaviour(
                    "watch",
                    List.of(
                        WATCH.get(0), rating, new Behaviour.Field("seconds", Behaviour.Kind.TEXT))))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("watch.seconds is COUNT");
    assertThatThrownBy(() -> trails.declareBehaviour("watch", List.of(WATCH.get(0), rating)))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("watch.seconds")
        .hasMessageContaining("cannot be removed");
    assertThat(trails.behaviour("watch").fields()).isEqualTo(withRating);
    assertThatThrownBy(() -> trails.behaviour("share"))
        .isInstanceOf(org.casebook.core.NotFoundException.class);

    // Lines: an undeclared type, and extras past their bounds, are rejected by category.
    StringBuilder tooMany = new StringBuilder();
    for (int i = 0; i <= 16; i++) {
      tooMany.append(",\"x").append(i).append("\":").append(i);
    }
    LinesReport r =
        trails.ingestLines(
            lines(
                "{\"uid\":\"u\",\"type\":\"share\",\"ts\":0}",
                play("u", "2026-09-01T10:00:00Z", tooMany.toString()),
                play("u", "2026-09-01T10:00:00Z", ",\"bad-name\":1"),
                play("u", "2026-09-01T10:00:00Z", ",\"long\":\"" + "x".repeat(257) + "\""),
                play("u", "2026-09-01T10:00:00Z", ",\"extra\":{\"x-y\":1}"),
                watch("u", "2026-09-01T10:00:00Z", -1),
                "{\"uid\":\"u\",\"type\":\"watch\",\"ts\":0}",
                "{\"uid\":\"u\",\"type\":\"watch\",\"ts\":0,\"seconds\":3}"));
    assertThat(r.rejectReasons())
        .containsEntry("unknown type", 1L)
        .containsEntry("too many extra fields", 1L)
        .containsEntry("bad extra field", 3L)
        .containsEntry("bad field value", 1L)
        .containsEntry("missing field", 1L);
    // A declared behaviour's fields are optional (fields added later are missing from old lines),
    // but a record has at least one.
    assertThat(r.accepted()).isEqualTo(1);
  }

  private static void assertInvalid(Runnable r, String field) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo(field));
  }
}
