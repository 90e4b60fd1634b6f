package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;

/**
 * The banknote agent delivering a spool of generated device files to a packaged server that is
 * killed with SIGKILL half-way and started again on the same data ({@link ServeIT}): the agent
 * retries through the outage, and afterwards every record is stored exactly once — none lost
 * (acknowledged only once durable), none doubled (row keys from the record's identity).
 */
final class BanknoteAgentRun implements AutoCloseable {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  private static final LocalDate DAY = LocalDate.of(2033, 3, 3);
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final int port;
  private final List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>();
  private final List<SpoolAgent.FileResult> results = new CopyOnWriteArrayList<>();
  private final SpoolAgent agent;
  private final Thread agentThread;
  private int beforeRestart = -1;

  /** Generates the spool for an agent of the server on {@code port}. */
  BanknoteAgentRun(int port) throws Exception {
    this.port = port;
    Path spool = Files.createDirectories(EmbeddedHBase.scratchDir("banknote-kill-spool"));
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(8, 1, 600, 0, 0, false, 17, DAY, SHANGHAI));
    Path generated = EmbeddedHBase.scratchDir("banknote-kill-gen");
    gen.write(generated, files::add);
    for (BanknoteGenerator.GeneratedFile f : files) {
      Files.move(f.path(), spool.resolve(f.path().getFileName()));
    }
    agent =
        new SpoolAgent(
            SpoolAgent.Settings.of(
                    spool, URI.create("http://127.0.0.1:" + port), FileContext.none())
                .withBatchSize(20)
                .withTimings(
                    Duration.ofMillis(50),
                    Duration.ZERO,
                    Duration.ofMillis(100),
                    Duration.ofSeconds(1)),
            SpoolAgent.httpClient());
    agentThread =
        new Thread(
            () -> {
              try {
                agent.run(results::add);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "banknote-agent");
  }

  /** Starts the agent and returns once a quarter of the files are delivered, far from all. */
  void startAndAwaitAQuarter() throws InterruptedException {
    agentThread.start();
    long deadline = System.currentTimeMillis() + 120_000;
    while (results.size() < files.size() / 4 && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    assertThat(results.size()).as("files delivered before the kill").isLessThan(files.size());
  }

  /** The server was killed: the agent meets a dead collector and backs off meanwhile. */
  void serverKilled() throws InterruptedException {
    beforeRestart = results.size();
    Thread.sleep(1500);
  }

  /** After the restart: waits for every file and checks every record is stored exactly once. */
  void finishAndVerify() throws Exception {
    long deadline = System.currentTimeMillis() + 180_000;
    while (results.size() < files.size() && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    agent.stop();
    agentThread.join(30_000);
    assertThat(results).hasSize(files.size());
    // Both of the agent's upload paths were taken: FSN files as their own bytes (POST
    // /api/banknotes/fsn), JSON lines as JSON batches.
    assertThat(results)
        .extracting(SpoolAgent.FileResult::format)
        .anyMatch(f -> f.startsWith("fsn"))
        .contains("jsonl");
    assertThat(results.stream().mapToLong(SpoolAgent.FileResult::retries).sum())
        .as("batches retried through the outage (%d files before the restart)", beforeRestart)
        .isPositive();

    long total = files.stream().mapToLong(f -> f.notes().size()).sum();
    Map<String, List<String>> expected = new HashMap<>();
    for (BanknoteGenerator.GeneratedFile f : files) {
      for (Note n : f.notes()) {
        expected.computeIfAbsent(n.device(), k -> new ArrayList<>()).add(identity(n));
      }
    }
    long found = 0;
    for (Map.Entry<String, List<String>> e : expected.entrySet()) {
      List<String> stored = deviceListing(e.getKey());
      assertThat(stored).as(e.getKey()).containsExactlyInAnyOrderElementsOf(e.getValue());
      found += stored.size();
    }
    assertThat(found).isEqualTo(total);
    Note probe = files.get(files.size() / 2).notes().get(0);
    JsonNode history = get("/api/banknotes/" + probe.serial() + "?limit=1000");
    List<String> ids = new ArrayList<>();
    history.get("notes").forEach(n -> ids.add(identity(n)));
    assertThat(ids).containsOnlyOnce(identity(probe));
  }

  @Override
  public void close() {
    agent.stop();
  }

  private static String identity(Note n) {
    return n.device() + "|" + n.source() + "|" + n.record();
  }

  private static String identity(JsonNode n) {
    return n.get("device").asText()
        + "|"
        + n.get("source").asText()
        + "|"
        + n.get("record").asLong();
  }

  private List<String> deviceListing(String device) throws Exception {
    List<String> out = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page =
          get(
              "/api/banknotes/devices/"
                  + URLEncoder.encode(device, StandardCharsets.UTF_8)
                  + "?from="
                  + DAY
                  + "&to="
                  + DAY.plusDays(1)
                  + "&limit=1000"
                  + (cursor == null ? "" : "&cursor=" + cursor));
      page.get("notes").forEach(n -> out.add(identity(n)));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return out;
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }
}
