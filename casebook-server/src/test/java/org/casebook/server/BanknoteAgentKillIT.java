package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.concurrent.TimeUnit;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;

/**
 * The banknote collector's promise, against the packaged server: an agent uploads generated device
 * files, the server is SIGKILLed in the middle of the upload (no shutdown hook, no flush) and
 * started again on the same data; the agent retries through the outage, and afterwards every record
 * is stored exactly once — none lost (acknowledged only once durable), none doubled (row keys from
 * the record's identity).
 */
class BanknoteAgentKillIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void everyRecordIsStoredExactlyOnceAcrossAKill9() throws Exception {
    Path jar = Path.of("target", "casebook", "casebook.jar");
    assertThat(jar).exists();
    Path data = EmbeddedHBase.scratchDir("banknote-kill");
    Path spool = Files.createDirectories(EmbeddedHBase.scratchDir("banknote-kill-spool"));
    LocalDate day = LocalDate.of(2033, 3, 3);
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(12, 1, 600, 0, 0, false, 17, day, SHANGHAI));
    List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>();
    Path generated = EmbeddedHBase.scratchDir("banknote-kill-gen");
    gen.write(generated, files::add);
    for (BanknoteGenerator.GeneratedFile f : files) {
      Files.move(f.path(), spool.resolve(f.path().getFileName()));
    }
    long total = files.stream().mapToLong(f -> f.notes().size()).sum();
    int port = freePort();

    Process first = PackagedServer.start(jar, data, port, "banknote-serve.log");
    SpoolAgent agent =
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
    List<SpoolAgent.FileResult> results = new CopyOnWriteArrayList<>();
    Thread agentThread =
        new Thread(
            () -> {
              try {
                agent.run(results::add);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "banknote-agent");
    Process second = null;
    try {
      PackagedServer.awaitHealth(first, port, "banknote-serve.log");
      agentThread.start();
      // Kill the server once the upload is well under way, but far from done.
      long deadline = System.currentTimeMillis() + 120_000;
      while (results.size() < files.size() / 4 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(results.size()).as("files delivered before the kill").isLessThan(files.size());
      first.destroyForcibly(); // SIGKILL
      first.waitFor(60, TimeUnit.SECONDS);
      int beforeRestart = results.size();
      Thread.sleep(1500); // the agent meets a dead collector and backs off
      second = PackagedServer.start(jar, data, port, "banknote-serve.log");
      PackagedServer.awaitHealth(second, port, "banknote-serve.log");
      deadline = System.currentTimeMillis() + 180_000;
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

      Map<String, List<String>> expected = new HashMap<>();
      for (BanknoteGenerator.GeneratedFile f : files) {
        for (Note n : f.notes()) {
          expected.computeIfAbsent(n.device(), k -> new ArrayList<>()).add(identity(n));
        }
      }
      long found = 0;
      for (Map.Entry<String, List<String>> e : expected.entrySet()) {
        List<String> stored = deviceListing(port, e.getKey(), day);
        assertThat(stored).as(e.getKey()).containsExactlyInAnyOrderElementsOf(e.getValue());
        found += stored.size();
      }
      assertThat(found).isEqualTo(total);
      Note probe = files.get(files.size() / 2).notes().get(0);
      JsonNode history = get(port, "/api/banknotes/" + probe.serial() + "?limit=1000");
      List<String> ids = new ArrayList<>();
      history.get("notes").forEach(n -> ids.add(identity(n)));
      assertThat(ids).containsOnlyOnce(identity(probe));
    } finally {
      agent.stop();
      if (first.isAlive()) {
        first.destroyForcibly();
      }
      if (second != null) {
        PackagedServer.stop(second);
      }
    }
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

  private List<String> deviceListing(int port, String device, LocalDate day) throws Exception {
    List<String> out = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page =
          get(
              port,
              "/api/banknotes/devices/"
                  + URLEncoder.encode(device, StandardCharsets.UTF_8)
                  + "?from="
                  + day
                  + "&to="
                  + day.plusDays(1)
                  + "&limit=1000"
                  + (cursor == null ? "" : "&cursor=" + cursor));
      page.get("notes").forEach(n -> out.add(identity(n)));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return out;
  }

  private JsonNode get(int port, String path) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
