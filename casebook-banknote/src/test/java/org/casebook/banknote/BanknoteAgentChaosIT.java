package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The device agent's delivery under region chaos: three {@link SpoolAgent}s, each watching a device
 * directory of its own with its own progress, deliver generated FSN and JSON-lines files over HTTP
 * to the system served as {@code serve} serves it, while HBase splits, merges, moves, flushes and
 * compacts the banknote tables. Each agent reaches the collector through an {@link AgentGateway}, a
 * front that answers some uploads 503 itself, loses the answer of some it forwarded (the collector
 * stored them) and, for some of those, crashes the agent, which is then started again on its
 * directory. So the agent's back-off on 503, its re-sending of an unanswered upload and its
 * resuming from its progress file all run while the regions move. A step is one device writing one
 * more file into its directory (now and then a file it wrote before, as an operator copying it
 * again) and the agent delivering what is there.
 *
 * <p>Afterwards, once every agent reported every file written delivered, the REST API lists every
 * note of every written file exactly once, as sent, in the device listings, serial histories, batch
 * listings and suspect listings, and nothing else; and each branch's daily settlement counts them
 * once, by operation and suspects.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteAgentChaosIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  private static final LocalDate DAY = LocalDate.of(2034, 3, 8);
  private static final int DAYS = 2;
  private static final int AGENTS = 3;
  private static final String TOKEN = "agent-chaos";

  /** Notes per upload (the agent's default is larger; smaller makes more uploads to disturb). */
  private static final int BATCH = 20;

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  void everyNoteOfEveryFileTheAgentsDeliverIsStoredOnceThroughChaosLostAnswersAndCrashes(
      HBaseRuntime runtime) throws Exception {
    String namespace = TestIds.unique("banknote_agent").replace('-', '_');
    Path scratch = EmbeddedHBase.scratchDir(TestIds.unique("banknote-agent-chaos"));
    BanknoteGenerator generator =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(12, DAYS, 200, 0, 0, true, 47, DAY, SHANGHAI));
    List<BanknoteGenerator.GeneratedFile> generated = new ArrayList<>();
    generator.write(scratch.resolve("generated"), generated::add);
    assertThat(generated.stream().map(BanknoteGenerator.GeneratedFile::format).distinct())
        .as("the seed's devices write JSON lines and FSN files")
        .contains("jsonl", "fsn2014", "fsn2018");

    BanknoteSchema schema = BanknoteSchema.in(namespace);
    List<Station> stations = new ArrayList<>();
    try (ServedSystem served =
        ChaosLoad.afterRecovery(
            () ->
                ServedSystem.start(
                    runtime,
                    new BanknoteSystem(),
                    AccessRule.token(TOKEN),
                    Map.of("banknote.namespace", namespace)))) {
      for (int a = 0; a < AGENTS; a++) {
        int agent = a;
        List<BanknoteGenerator.GeneratedFile> own = new ArrayList<>();
        for (BanknoteGenerator.GeneratedFile f : generated) {
          if (generator.devices().indexOf(f.device()) % AGENTS == agent) {
            own.add(f);
          }
        }
        stations.add(
            new Station(
                agent,
                Files.createDirectories(scratch.resolve("agent-" + agent)),
                new AgentGateway(served.url(""), 47L + agent),
                own));
      }
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              List.of(schema.notes(), schema.devices(), schema.suspects(), schema.batches()),
              47L,
              Duration.ofSeconds(6),
              Duration.ofMillis(300),
              AGENTS,
              (worker, iteration) -> stations.get(worker).step(iteration));
      // The chaos is over; files not written by now stay unwritten. Each agent delivers what its
      // directory may still hold (after a step that failed), through the same gateway.
      for (Station s : stations) {
        s.deliverAll();
      }

      Map<String, Note> expected = new LinkedHashMap<>();
      for (Station s : stations) {
        for (BanknoteGenerator.GeneratedFile f : s.written) {
          f.notes().forEach(n -> expected.put(identity(n), n.withoutImage()));
        }
      }
      String what = summary(report, stations, expected.size(), generated.size());
      System.out.println("banknote agents under chaos: " + what);

      assertThat(report.done(ChaosAction.SPLIT)).as(what).isPositive();
      assertThat(report.errors()).as("the agents never gave up a delivery\n" + what).isEmpty();
      Map<String, Long> collector = new TreeMap<>();
      Map<String, Long> seen = new TreeMap<>();
      for (Station s : stations) {
        s.gateway.collectorAnswers.forEach((k, v) -> collector.merge(k, v, Long::sum));
        s.gateway.agentSaw.forEach((k, v) -> seen.merge(k, v, Long::sum));
      }
      assertThat(collector.keySet())
          .as("the collector's answers to good uploads: 200, or 503 while storage is away\n" + what)
          .isSubsetOf(Set.of("200", "503"));
      assertThat(seen)
          .as("the agents met 503s and unanswered uploads\n" + what)
          .containsKeys(AgentGateway.BUSY, AgentGateway.NO_ANSWER);
      assertThat(stations.stream().mapToLong(s -> s.restarts.get()).sum())
          .as("agents crashed while an upload went unanswered, and resumed\n" + what)
          .isPositive();
      assertThat(stations.stream().mapToLong(s -> s.resumedMidFile.get()).sum())
          .as("agents that resumed a file from its progress\n" + what)
          .isPositive();
      assertThat(stations.stream().mapToLong(Station::retries).sum())
          .as("uploads the agents sent again\n" + what)
          .isPositive();
      assertThat(stations.stream().mapToLong(s -> s.resent.get()).sum())
          .as("files written again after their delivery\n" + what)
          .isPositive();
      for (Station s : stations) {
        s.checkEveryFileDelivered(what);
      }

      String base = served.url("/api/banknotes/");
      Instant from = start(DAY);
      Instant to = start(DAY.plusDays(DAYS));
      List<Note> byDevice = new ArrayList<>();
      for (BanknoteGenerator.Device d : generator.devices()) {
        byDevice.addAll(
            listing(base + "devices/" + encode(d.id()) + "?from=" + from + "&to=" + to + "&"));
      }
      checkListing("device listings", byDevice, n -> true, expected, what);
      List<Note> bySerial = new ArrayList<>();
      for (String serial : distinct(expected, Note::serial)) {
        bySerial.addAll(listing(base + encode(serial) + "?"));
      }
      checkListing("serial histories", bySerial, n -> true, expected, what);
      List<Note> byBatch = new ArrayList<>();
      for (String batch : distinct(expected, Note::batch)) {
        byBatch.addAll(listing(base + "batches/" + encode(batch) + "?"));
      }
      checkListing("batch listings", byBatch, n -> true, expected, what);
      List<Note> suspects = new ArrayList<>();
      for (String branch : distinct(expected, Note::branch)) {
        for (int d = 0; d < DAYS; d++) {
          suspects.addAll(
              listing(
                  base + "suspects?branch=" + encode(branch) + "&day=" + DAY.plusDays(d) + "&"));
        }
      }
      checkListing(
          "suspect listings", suspects, n -> n.verdict() == Verdict.SUSPECT, expected, what);
      // Each branch's day settles to the notes delivered, by operation and suspects: the summary
      // rows written with the pieces count every note once through lost answers, retries,
      // crashes and files delivered again.
      for (String branch : distinct(expected, Note::branch)) {
        for (int d = 0; d < DAYS; d++) {
          LocalDate day = DAY.plusDays(d);
          long[] want = new long[5];
          for (Note n : expected.values()) {
            if (n.branch().equals(branch) && n.time().atZone(SHANGHAI).toLocalDate().equals(day)) {
              want[n.operation().ordinal()]++;
              want[4] += n.verdict() == Verdict.SUSPECT ? 1 : 0;
            }
          }
          JsonNode t =
              settlement(base + "settlement?branch=" + encode(branch) + "&day=" + day)
                  .get("totals");
          long[] got = {
            t.get("deposit").asLong(),
            t.get("withdrawal").asLong(),
            t.get("sorting").asLong(),
            t.get("counting").asLong(),
            t.get("suspects").asLong()
          };
          assertThat(got).as("settlement of %s on %s\n%s", branch, day, what).isEqualTo(want);
        }
      }
    } finally {
      for (Station s : stations) {
        s.gateway.close();
      }
      ChaosLoad.dropAfterwards(runtime.connection(), namespace);
    }
  }

  /**
   * One agent and its device directory: the files its devices have still to write, the files
   * written, the agent now running (a new one after each crash) and what it reported.
   */
  private static final class Station {
    final int index;
    final Path spool;
    final AgentGateway gateway;
    final SpoolAgent.Settings settings;
    final HttpClient http = SpoolAgent.httpClient();
    final Deque<BanknoteGenerator.GeneratedFile> unwritten;
    final List<BanknoteGenerator.GeneratedFile> written = new CopyOnWriteArrayList<>();
    final List<SpoolAgent.FileResult> results = new CopyOnWriteArrayList<>();
    final AtomicLong restarts = new AtomicLong();
    final AtomicLong resumedMidFile = new AtomicLong();
    final AtomicLong resent = new AtomicLong();
    final SplittableRandom random;
    private SpoolAgent agent;

    Station(
        int index, Path spool, AgentGateway gateway, List<BanknoteGenerator.GeneratedFile> files) {
      this.index = index;
      this.spool = spool;
      this.gateway = gateway;
      this.unwritten = new ArrayDeque<>(files);
      this.random = new SplittableRandom(index);
      this.settings =
          SpoolAgent.Settings.of(spool, gateway.uri(), FileContext.none())
              .withToken(TOKEN)
              .withBatchSize(BATCH)
              .withTimings(
                  Duration.ofMillis(50),
                  Duration.ZERO,
                  Duration.ofMillis(50),
                  Duration.ofMillis(400));
      start();
    }

    /** A new agent process on the same directory: it resumes from the progress files there. */
    private void start() {
      agent = new SpoolAgent(settings, http);
      gateway.agent = agent;
    }

    /** One device writes one more file (every fourth step one written before); the agent sends. */
    void step(long iteration) throws Exception {
      BanknoteGenerator.GeneratedFile file =
          iteration % 4 == 3 && !written.isEmpty() ? null : unwritten.poll();
      if (file == null && !written.isEmpty()) {
        file = written.get(random.nextInt(written.size()));
        resent.incrementAndGet();
      } else if (file != null) {
        written.add(file);
      }
      if (file != null) {
        // As a device does: under a hidden name, then renamed into the spool at once.
        String name = file.path().getFileName().toString();
        Path tmp = spool.resolve("." + name + ".tmp");
        Files.copy(file.path(), tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, spool.resolve(name), StandardCopyOption.ATOMIC_MOVE);
      }
      deliverAll();
    }

    /** Drains the directory, starting the agent again each time the gateway crashed it. */
    void deliverAll() throws InterruptedException, IOException {
      while (!agent.drain(results::add)) {
        restarts.incrementAndGet();
        try (Stream<Path> progress = Files.list(spool.resolve(".casebook/progress"))) {
          // A progress file is written after a file's first acknowledged upload only.
          if (progress.anyMatch(p -> !p.getFileName().toString().endsWith(".tmp"))) {
            resumedMidFile.incrementAndGet();
          }
        }
        start();
      }
    }

    long retries() {
      return results.stream().mapToLong(SpoolAgent.FileResult::retries).sum();
    }

    /**
     * Every file written was reported delivered whole and is marked completed, and the directory
     * holds nothing pending, no progress and nothing quarantined.
     */
    void checkEveryFileDelivered(String what) throws IOException {
      String as = "agent " + index + "\n" + what;
      assertThat(results)
          .as("files quarantined or partly rejected, " + as)
          .allSatisfy(
              r -> {
                assertThat(r.quarantined()).as(r.file()).isNull();
                assertThat(r.rejected()).as(r.file()).isZero();
              });
      Map<String, Long> delivered = new TreeMap<>();
      results.forEach(r -> delivered.merge(r.file(), r.delivered(), Math::max));
      Map<String, Long> sent = new TreeMap<>();
      written.forEach(f -> sent.put(f.path().getFileName().toString(), (long) f.notes().size()));
      assertThat(delivered).as("notes each file delivered, " + as).isEqualTo(sent);
      try (Stream<Path> left = Files.list(spool)) {
        assertThat(
                left.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && !n.endsWith(SpoolAgent.COMPLETED)))
            .as("files still pending, " + as)
            .isEmpty();
      }
      try (Stream<Path> progress = Files.list(spool.resolve(".casebook/progress"))) {
        assertThat(progress).as("progress left behind, " + as).isEmpty();
      }
      assertThat(spool.resolve(".casebook/quarantine")).as(as).doesNotExist();
    }
  }

  /** One line: the chaos, the files and notes, and per agent its answers, retries and restarts. */
  private static String summary(
      ChaosLoad.Report report, List<Station> stations, int notes, int generated) {
    StringBuilder b = new StringBuilder(report.toString());
    long written = stations.stream().mapToLong(s -> s.written.size()).sum();
    long resent = stations.stream().mapToLong(s -> s.resent.get()).sum();
    b.append(written)
        .append(" of ")
        .append(generated)
        .append(" files written (")
        .append(resent)
        .append(" written again), ")
        .append(notes)
        .append(" notes");
    for (Station s : stations) {
      b.append("; agent ")
          .append(s.index)
          .append(": saw ")
          .append(new TreeMap<>(s.gateway.agentSaw))
          .append(", collector answered ")
          .append(new TreeMap<>(s.gateway.collectorAnswers))
          .append(", retries ")
          .append(s.retries())
          .append(", restarts ")
          .append(s.restarts.get())
          .append(" (")
          .append(s.resumedMidFile.get())
          .append(" mid-file) after the uploads ")
          .append(s.gateway.crashes)
          .append(", deliveries ")
          .append(s.results.size());
    }
    return b.toString();
  }

  /**
   * A listing against the notes of the files written: no note twice, none that differs from what
   * was sent, and exactly the expected notes it should hold.
   */
  private static void checkListing(
      String listing,
      List<Note> found,
      Predicate<Note> belongs,
      Map<String, Note> expected,
      String what) {
    Map<String, Integer> times = new TreeMap<>();
    List<Note> strangers = new ArrayList<>();
    for (Note n : found) {
      String id = identity(n);
      times.merge(id, 1, Integer::sum);
      if (!n.equals(expected.get(id))) {
        strangers.add(n);
      }
    }
    Map<String, Integer> twice = new TreeMap<>(times);
    twice.values().removeIf(t -> t == 1);
    assertThat(twice).as("notes listed more than once in the %s\n%s", listing, what).isEmpty();
    assertThat(strangers)
        .as("notes in the %s never sent, or not as sent\n%s", listing, what)
        .isEmpty();
    Set<String> should = new TreeSet<>();
    expected.forEach(
        (id, n) -> {
          if (belongs.test(n)) {
            should.add(id);
          }
        });
    Set<String> missing = new TreeSet<>(should);
    missing.removeAll(times.keySet());
    assertThat(missing)
        .as("notes of delivered files missing from the %s\n%s", listing, what)
        .isEmpty();
    Set<String> extra = new TreeSet<>(times.keySet());
    extra.removeAll(should);
    assertThat(extra).as("notes in the %s that do not belong there\n%s", listing, what).isEmpty();
  }

  /** Every page of a listing through the REST API, {@code url} ending in '?' or '&'. */
  private static List<Note> listing(String url) throws Exception {
    return ChaosLoad.afterRecovery(
        () -> {
          List<Note> out = new ArrayList<>();
          String cursor = null;
          do {
            String page = url + "limit=1000" + (cursor == null ? "" : "&cursor=" + cursor);
            HttpResponse<String> r =
                CLIENT.send(
                    HttpRequest.newBuilder(URI.create(page))
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 503) {
              // Storage out of reach for now (a RegionServer killed on a cluster): read again.
              throw new IOException("listing answered 503: " + r.body());
            }
            assertThat(r.statusCode()).as(page + " " + r.body()).isEqualTo(200);
            JsonNode body = Json.mapper().readTree(r.body());
            for (JsonNode n : body.get("notes")) {
              out.add(Json.mapper().treeToValue(n, NoteJson.class).toNote(""));
            }
            cursor = body.path("next").isTextual() ? encode(body.get("next").asText()) : null;
          } while (cursor != null);
          return out;
        });
  }

  private static JsonNode settlement(String url) throws Exception {
    return ChaosLoad.afterRecovery(
        () -> {
          HttpResponse<String> r =
              CLIENT.send(
                  HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                  HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() == 503) {
            throw new IOException("settlement answered 503: " + r.body());
          }
          assertThat(r.statusCode()).as(url + " " + r.body()).isEqualTo(200);
          return Json.mapper().readTree(r.body());
        });
  }

  /** A record's identity: device, file and record number, which make its rows. */
  private static String identity(Note n) {
    return n.device() + '|' + n.source() + '|' + n.record();
  }

  private static Set<String> distinct(Map<String, Note> notes, Function<Note, String> key) {
    Set<String> out = new LinkedHashSet<>();
    notes.values().forEach(n -> out.add(key.apply(n)));
    return out;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The first instant of {@code day} in the bank's zone, as the listings take it. */
  private static Instant start(LocalDate day) {
    return day.atStartOfDay(SHANGHAI).toInstant();
  }
}
