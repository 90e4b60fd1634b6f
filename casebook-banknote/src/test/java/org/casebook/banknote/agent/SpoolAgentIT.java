package org.casebook.banknote.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent against a collector in this JVM: started before the collector exists (it retries), a
 * resumed file after a crash, quarantined and partly rejected files. The kill -9 test of the
 * packaged server is {@code ServeIT} (with {@code BanknoteAgentRun}) in casebook-server.
 */
@ExtendWith(EmbeddedHBase.class)
class SpoolAgentIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  private Platform platform;
  private SystemContext context;
  private BanknoteService service;
  private HttpApiServer server;
  private Path scratch;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    BanknoteSystem system = new BanknoteSystem();
    new SchemaManager(runtime.connection()).ensureAll(system.descriptor().tables());
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    context = platform.contextFor(system.descriptor());
    service = new BanknoteService(context);
    scratch = EmbeddedHBase.scratchDir(TestIds.unique("agent"));
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.close();
    }
    platform.close();
  }

  private int startServer(int port) {
    RunningSystem running = context.own(new BanknoteSystem().start(context));
    server = new HttpApiServer("127.0.0.1", port, AccessRule.open(), 4, platform.metrics());
    running.routes().forEach(server::add);
    server.start();
    return server.port();
  }

  private static SpoolAgent.Settings settings(Path spool, int port) {
    return SpoolAgent.Settings.of(spool, URI.create("http://127.0.0.1:" + port), FileContext.none())
        .withBatchSize(50)
        .withTimings(
            Duration.ofMillis(50), Duration.ZERO, Duration.ofMillis(50), Duration.ofMillis(400));
  }

  private List<Note> stored(String device, LocalDate day) {
    Instant from = day.atStartOfDay(SHANGHAI).toInstant();
    List<Note> out = new ArrayList<>();
    PageRequest page = PageRequest.first(1000);
    while (true) {
      Page<Note> p = service.device(device, from, from.plusSeconds(86_400), page);
      out.addAll(p.items());
      if (p.next().isEmpty()) {
        return out;
      }
      page = new PageRequest(1000, p.next());
    }
  }

  @Test
  void theAgentWaitsForTheCollectorThenDeliversEveryFileOnce() throws Exception {
    LocalDate day = LocalDate.of(2032, 1, 5);
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(3, 1, 300, 0.3, 0.02, true, 9, day, SHANGHAI));
    Path out = scratch.resolve("gen");
    List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>();
    gen.write(out, files::add);
    // One spool for all three devices: the file names and contents carry everything.
    Path spool = Files.createDirectories(scratch.resolve("spool"));
    for (BanknoteGenerator.GeneratedFile f : files) {
      Files.move(f.path(), spool.resolve(f.path().getFileName()));
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    SpoolAgent agent = new SpoolAgent(settings(spool, port), SpoolAgent.httpClient());
    List<SpoolAgent.FileResult> results = new CopyOnWriteArrayList<>();
    Thread t = new Thread(() -> runQuietly(agent, results), "test-agent");
    t.start();
    Thread.sleep(1500); // the agent is retrying against nothing
    assertThat(results).isEmpty();
    startServer(port);
    long deadline = System.currentTimeMillis() + 60_000;
    while (results.size() < files.size() && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    agent.stop();
    t.join(10_000);
    assertThat(results).hasSize(files.size());
    assertThat(results.stream().mapToLong(SpoolAgent.FileResult::retries).sum()).isPositive();

    Map<String, List<Note>> expected = new HashMap<>();
    long damaged = 0;
    for (BanknoteGenerator.GeneratedFile f : files) {
      String name = f.path().getFileName().toString();
      if (f.damaged()) {
        damaged++;
        assertThat(spool.resolve(".casebook/quarantine/" + name)).exists();
        assertThat(spool.resolve(".casebook/quarantine/" + name + ".reasons")).exists();
      } else {
        assertThat(spool.resolve(name + SpoolAgent.COMPLETED)).exists();
        if (f.brokenRecords() > 0) {
          assertThat(Files.readAllLines(spool.resolve(".casebook/rejects/" + name + ".rejects")))
              .hasSize(f.brokenRecords());
        }
      }
      for (Note n : f.notes()) {
        expected.computeIfAbsent(n.device(), k -> new ArrayList<>()).add(n.withoutImage());
      }
    }
    assertThat(damaged).as("the generator damaged some files").isPositive();
    for (BanknoteGenerator.Device d : gen.devices()) {
      assertThat(stored(d.id(), day))
          .as(d.id())
          .containsExactlyInAnyOrderElementsOf(expected.getOrDefault(d.id(), List.of()));
    }
    assertThat(Files.list(spool.resolve(".casebook/progress"))).isEmpty();
  }

  @Test
  void aRestartedAgentResumesWhereItsProgressSays() throws Exception {
    LocalDate day = LocalDate.of(2032, 2, 9);
    BanknoteGenerator gen =
        new BanknoteGenerator(new BanknoteGenerator.Spec(1, 1, 400, 0, 0, false, 3, day, SHANGHAI));
    Path spool = Files.createDirectories(scratch.resolve("spool"));
    List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>();
    BanknoteGenerator.Device d =
        new BanknoteGenerator.Device(
            "BOC11/JLGF/JL305PV99999", DeviceKind.SORTER, "0110-009", "sorter-99999");
    files.addAll(gen.day(d, spool, day));
    int port = startServer(0);
    // As if an agent died after 3 acknowledged batches of the first file.
    Path first = files.get(0).path();
    Files.createDirectories(spool.resolve(".casebook/progress"));
    Files.writeString(spool.resolve(".casebook/progress/" + first.getFileName()), "150");
    double before = platform.metrics().counter("casebook.banknote.notes.stored").count();
    // The notes acknowledged before the "crash" are in HBase already.
    service.store(files.get(0).notes().subList(0, 150));
    SpoolAgent agent = new SpoolAgent(settings(spool, port), SpoolAgent.httpClient());
    List<SpoolAgent.FileResult> results = new ArrayList<>();
    assertThat(agent.drain(results::add)).isTrue();
    double sent = platform.metrics().counter("casebook.banknote.notes.stored").count() - before;
    long total = files.stream().mapToLong(f -> f.notes().size()).sum();
    assertThat(sent).as("150 stored before the crash, the rest by the agent").isEqualTo(total);
    List<Note> expected = new ArrayList<>();
    files.forEach(f -> expected.addAll(f.notes()));
    assertThat(stored(d.id(), day)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aResumedFsnFileWithRejectedRecordsSendsEachValidNoteOnce() throws Exception {
    LocalDate day = LocalDate.of(2032, 2, 10);
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(1, 1, 400, 0, 0.05, false, 5, day, SHANGHAI));
    Path spool = Files.createDirectories(scratch.resolve("spool-rejects"));
    BanknoteGenerator.Device d =
        new BanknoteGenerator.Device(
            "BOC11/JLGF/JL305PV88888", DeviceKind.SORTER, "0110-008", "sorter-88888");
    List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>(gen.day(d, spool, day));
    BanknoteGenerator.GeneratedFile first = files.get(0);
    assertThat(first.path().getFileName().toString()).endsWith(".fsn");
    assertThat(files.stream().mapToLong(BanknoteGenerator.GeneratedFile::brokenRecords).sum())
        .as("broken records among the pieces")
        .isPositive();
    int port = startServer(0);
    // As if an agent died after acknowledging 70 valid notes of the first file: its next piece
    // starts at the record of the 71st valid note, past any rejected record before it.
    Files.createDirectories(spool.resolve(".casebook/progress"));
    Files.writeString(spool.resolve(".casebook/progress/" + first.path().getFileName()), "70");
    service.store(first.notes().subList(0, 70));
    double before = platform.metrics().counter("casebook.banknote.notes.stored").count();
    SpoolAgent agent = new SpoolAgent(settings(spool, port), SpoolAgent.httpClient());
    List<SpoolAgent.FileResult> results = new ArrayList<>();
    assertThat(agent.drain(results::add)).isTrue();
    assertThat(results).allSatisfy(r -> assertThat(r.quarantined()).isNull());
    double sent = platform.metrics().counter("casebook.banknote.notes.stored").count() - before;
    long total = files.stream().mapToLong(f -> f.notes().size()).sum();
    assertThat(sent).as("every valid note after the progress mark, once").isEqualTo(total - 70);
    List<Note> expected = new ArrayList<>();
    files.forEach(f -> expected.addAll(f.notes()));
    assertThat(stored(d.id(), day)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(results.stream().mapToLong(SpoolAgent.FileResult::rejected).sum())
        .isEqualTo(files.stream().mapToLong(BanknoteGenerator.GeneratedFile::brokenRecords).sum());
  }

  private static void runQuietly(SpoolAgent agent, List<SpoolAgent.FileResult> results) {
    try {
      agent.run(results::add);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
