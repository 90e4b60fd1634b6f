package org.casebook.archive.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ArchiveSystem;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.Layout;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.cli.Progress;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class ArchiveRoutesIT {
  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void usersStatusesAndStatusByIdOverHttp(HBaseRuntime runtime) throws Exception {
    String ns = "archive_" + TestIds.unique("h").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveGenerator.write(new ArchiveGenerator.Spec(2, 5, 6, false, 0, 9), dir.resolve("in"));
    try (ServedSystem served = serve(runtime, ns)) {
      ArchiveService archive = ArchiveService.create(served.context(), false);
      archive.prepare(new Layout(2, true), true);
      archive.importFiles(
          ImportRequest.local(dir.resolve("in"), ImportMode.PUT)
              .withAttempts(1)
              .withQuarantine(dir.resolve("q")),
          Progress.logging("t", 0, "bytes"));
      String base = served.url("/api/archive/");
      String uid = ArchiveGenerator.userId(1, 2, 5);
      JsonNode user = ok(get(base + "users/" + uid));
      assertThat(user.get("uid").asText()).isEqualTo(uid);
      JsonNode all = ok(get(base + "users/" + uid + "/statuses?limit=1000"));
      assertThat(all.get("statuses").size()).isGreaterThan(2);
      assertThat(all.get("next").isNull()).isTrue();
      JsonNode page = ok(get(base + "users/" + uid + "/statuses?limit=2"));
      assertThat(page.get("statuses")).hasSize(2);
      long newest = page.get("statuses").get(0).get("id").asLong();
      assertThat(page.get("statuses").get(1).get("id").asLong()).isLessThan(newest);
      // Following the cursors walks every status once, newest first.
      int seen = 2;
      String next = page.get("next").asText();
      long last = page.get("statuses").get(1).get("id").asLong();
      while (next != null) {
        JsonNode p = ok(get(base + "users/" + uid + "/statuses?limit=2&cursor=" + next));
        for (JsonNode s : p.get("statuses")) {
          assertThat(s.get("id").asLong()).isLessThan(last);
          last = s.get("id").asLong();
          seen++;
        }
        next = p.get("next").isNull() ? null : p.get("next").asText();
      }
      assertThat(seen).isEqualTo(all.get("statuses").size());
      assertThat(field(get(base + "users/" + uid + "/statuses?limit=1001"))).isEqualTo("limit");
      assertThat(field(get(base + "users/" + uid + "/statuses?limit=0"))).isEqualTo("limit");
      String cursor = page.get("next").asText();
      String tampered =
          cursor.substring(0, cursor.length() - 2) + (cursor.endsWith("A") ? "BB" : "AA");
      assertThat(field(get(base + "users/" + uid + "/statuses?cursor=" + tampered)))
          .isEqualTo("cursor");
      assertThat(field(get(base + "users/" + uid + "/statuses?cursor=12345"))).isEqualTo("cursor");

      assertThat(ok(get(base + "statuses/" + newest)).get("uid").asText()).isEqualTo(uid);
      assertThat(get(base + "statuses/999").statusCode()).isEqualTo(404);
      assertThat(get(base + "users/1").statusCode()).isEqualTo(404);
      assertThat(field(get(base + "statuses/abc"))).isEqualTo("id");
      assertThat(field(get(base + "users/x/statuses"))).isEqualTo("uid");
    }
  }

  @Test
  void recordedExperimentResultsAreListedNewestFirst(HBaseRuntime runtime) throws Exception {
    String ns = "archive_" + TestIds.unique("e").replace('-', '_');
    try (ServedSystem served = serve(runtime, ns)) {
      ArchiveService archive = ArchiveService.create(served.context(), false);
      archive.recordExperiment(
          Instant.ofEpochMilli(1_700_000_000_000L), "{\"runs\":[{\"case\":1,\"users\":100}]}");
      archive.recordExperiment(
          Instant.ofEpochMilli(1_700_000_100_000L), "{\"runs\":[{\"case\":2,\"users\":200}]}");
      String base = served.url("/api/archive/");
      JsonNode all = ok(get(base + "experiments")).get("experiments");
      assertThat(all).hasSize(2);
      assertThat(all.get(0).get("recordedAt").asText()).isEqualTo("2023-11-14T22:15:00Z");
      assertThat(all.get(0).at("/results/runs/0/case").asInt()).isEqualTo(2);
      assertThat(all.get(1).at("/results/runs/0/users").asInt()).isEqualTo(100);
      assertThat(ok(get(base + "experiments?limit=1")).get("experiments")).hasSize(1);
      assertThat(field(get(base + "experiments?limit=0"))).isEqualTo("limit");
      assertThat(field(get(base + "experiments?limit=21"))).isEqualTo("limit");
    }
  }

  @Test
  void anImportJobRunsInTheBackgroundOneAtATimeAndIsListedNewestFirst(HBaseRuntime runtime)
      throws Exception {
    String ns = "archive_" + TestIds.unique("j").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveGenerator.Written w =
        ArchiveGenerator.write(new ArchiveGenerator.Spec(10, 5, 3, true, 0, 12), dir.resolve("in"));
    ArchiveGenerator.write(new ArchiveGenerator.Spec(4, 5, 3, false, 0, 13), dir.resolve("more"));
    // The system's own import jobs, on its background executor.
    try (ServedSystem served = serve(runtime, ns)) {
      String base = served.url("/api/archive/");
      HttpResponse<String> started =
          post(
              base + "imports",
              "{\"input\": "
                  + Json.write(dir.resolve("in").toString())
                  + ", \"mode\": \"put\", \"regions\": 2, \"attempts\": 2}");
      assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
      JsonNode job = Json.mapper().readTree(started.body());
      String id = job.get("id").asText();
      assertThat(job.get("state").asText()).isEqualTo("running");
      JsonNode done = awaitDone(base + "imports/" + id);
      assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("succeeded");
      JsonNode report = done.get("report");
      assertThat(report.get("mode").asText()).isEqualTo("put");
      assertThat(report.get("regions").asInt()).isEqualTo(2);
      assertThat(report.get("filesLoaded").asInt()).isEqualTo(6);
      assertThat(report.get("filesSkipped").asInt()).isEqualTo(4);
      assertThat(report.get("users").asLong()).isEqualTo(w.users());
      assertThat(report.get("statuses").asLong()).isEqualTo(w.statuses());
      assertThat(done.get("finishedAt").isNull()).isFalse();
      // The data is there.
      int good = 0;
      while (w.badFiles().contains(w.files().get(good))) {
        good++;
      }
      String uid = ArchiveGenerator.userId(good, 0, 5);
      assertThat(ok(get(base + "users/" + uid)).get("uid").asText()).isEqualTo(uid);

      // A bulk load, and a second import while it runs: refused.
      HttpResponse<String> second =
          post(
              base + "imports",
              "{\"input\": "
                  + Json.write(dir.resolve("more").toString())
                  + ", \"mode\": \"bulkload\"}");
      assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
      String secondId = Json.mapper().readTree(second.body()).get("id").asText();
      HttpResponse<String> third =
          post(base + "imports", "{\"input\": " + Json.write(dir.resolve("more").toString()) + "}");
      assertThat(third.statusCode()).as(third.body()).isEqualTo(409);
      JsonNode bulk = awaitDone(base + "imports/" + secondId);
      assertThat(bulk.get("state").asText()).as(bulk.toString()).isEqualTo("succeeded");
      assertThat(bulk.get("report").get("mode").asText()).isEqualTo("bulkload");
      assertThat(bulk.get("report").get("regions").asInt())
          .as("the archive keeps its regions")
          .isEqualTo(2);
      assertThat(bulk.get("report").get("hfileSplits").asLong()).isZero();

      // Listing: newest first, paged with an opaque cursor.
      JsonNode list = ok(get(base + "imports"));
      assertThat(list.get("imports")).hasSize(2);
      assertThat(list.get("imports").get(0).get("id").asText()).isEqualTo(secondId);
      assertThat(list.get("imports").get(1).get("id").asText()).isEqualTo(id);
      JsonNode first = ok(get(base + "imports?limit=1"));
      assertThat(first.get("imports")).hasSize(1);
      JsonNode rest = ok(get(base + "imports?limit=1&cursor=" + first.get("next").asText()));
      assertThat(rest.get("imports").get(0).get("id").asText()).isEqualTo(id);
      assertThat(rest.get("next").isNull()).isTrue();
      assertThat(field(get(base + "imports?cursor=" + first.get("next").asText() + "x")))
          .isEqualTo("cursor");
      assertThat(field(get(base + "imports?limit=1001"))).isEqualTo("limit");

      // Bad requests are refused before anything starts.
      assertThat(get(base + "imports/nope").statusCode()).isEqualTo(404);
      assertThat(field(post(base + "imports", "{\"input\": \"" + dir.resolve("missing") + "\"}")))
          .isEqualTo("input");
      assertThat(
              field(
                  post(
                      base + "imports",
                      "{\"input\": \"" + dir.resolve("in") + "\", \"mode\": \"zip\"}")))
          .isEqualTo("mode");
      assertThat(
              field(
                  post(
                      base + "imports",
                      "{\"input\": \"" + dir.resolve("in") + "\", \"badRecords\": \"skip\"}")))
          .isEqualTo("badRecords");
      assertThat(
              field(
                  post(
                      base + "imports",
                      "{\"input\": \"" + dir.resolve("in") + "\", \"speed\": 3}")))
          .isEqualTo("speed");
      assertThat(
              field(
                  post(
                      base + "imports",
                      "{\"input\": \"" + dir.resolve("in") + "\", \"attempts\": 0}")))
          .isEqualTo("attempts");
      assertThat(field(post(base + "imports", "{\"mode\": \"put\"}"))).isEqualTo("input");
    }
  }

  private JsonNode awaitDone(String url) throws Exception {
    long deadline = System.nanoTime() + 180_000_000_000L;
    while (true) {
      JsonNode job = ok(get(url));
      if (!job.get("state").asText().equals("running") || System.nanoTime() > deadline) {
        return job;
      }
      Thread.sleep(100);
    }
  }

  /** The archive as the server starts it, its tables in namespace {@code ns}. */
  private static ServedSystem serve(HBaseRuntime runtime, String ns) {
    return ServedSystem.start(
        runtime, new ArchiveSystem(), AccessRule.open(), Map.of("archive.namespace", ns));
  }

  private HttpResponse<String> get(String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String url, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String field(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    return Json.mapper().readTree(r.body()).get("field").asText();
  }

  private static JsonNode ok(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }
}
