package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar, as a user runs it: {@code java -jar casebook.jar serve}, health, writes over
 * REST and URLFrontier gRPC (gRPC and protobuf 3 live in its one lib/ beside Hadoop and HBase),
 * SIGTERM, a second start on the same data directory, and the writes are still there; the banknote
 * agent delivers through a SIGKILL of the server ({@link BanknoteAgentRun}).
 */
class ServeIT {

  /**
   * One data directory, three starts: writes over REST and gRPC, then SIGKILL in the middle of work
   * (every acknowledged write is there after the restart, which does not wait out the dead
   * process's ZooKeeper session), then a clean stop (its runtime file removed) and a start after
   * it.
   */
  @Test
  void servesRestAndUrlFrontierAndKeepsEveryAcknowledgedWriteAcrossSigkillAndRestart()
      throws Exception {
    Path jar = Path.of("target", "casebook", "casebook.jar");
    assertThat(jar).exists();
    Path data = EmbeddedHBase.scratchDir("serve");
    int port = PackagedServer.freePort();
    int grpc = PackagedServer.freePort();

    Process first =
        PackagedServer.start(
            jar, data, port, "serve.log", "--frontier-port", Integer.toString(grpc));
    java.util.Set<String> acknowledged = new java.util.HashSet<>();
    try (BanknoteAgentRun banknotes = new BanknoteAgentRun(port)) {
      runAcrossAKill(jar, data, port, grpc, first, acknowledged, banknotes);
    }
  }

  private void runAcrossAKill(
      Path jar,
      Path data,
      int port,
      int grpc,
      Process first,
      java.util.Set<String> acknowledged,
      BanknoteAgentRun banknotes)
      throws Exception {
    try {
      JsonNode health = PackagedServer.awaitHealth(first, port, "serve.log");
      assertThat(health.get("status").asText()).isEqualTo("up");
      assertThat(health.get("hbase").get("mode").asText()).isEqualTo("embedded");
      assertThat(health.get("hbase").get("regionServers").asInt()).isEqualTo(1);
      assertThat(health.get("systems").findValuesAsText("name")).contains("weibo");
      assertThat(
              PackagedServer.send("PUT", port, "/api/weibo/users/reader/following/writer", null)
                  .statusCode())
          .isEqualTo(204);
      assertThat(
              PackagedServer.send(
                      "POST",
                      port,
                      "/api/weibo/users/writer/posts",
                      "{\"content\":\"survives restarts\"}")
                  .statusCode())
          .isEqualTo(201);
      String metrics = PackagedServer.send("GET", port, "/metrics", null).body();
      assertThat(metrics)
          .contains(
              "casebook_http_requests_seconds_count{method=\"POST\",route=\"/api/weibo/users/{uid}/posts\",status=\"201\"} 1")
          .contains("casebook_hbase_region_servers 1")
          .contains("casebook_hbase_client_rpc_seconds_count{method=\"MasterService_")
          .contains("casebook_hbase_client_meta_cache_misses_total");
      PackagedFrontier.putTwoUrlsAndTakeOne(first, grpc);
      for (int i = 0; i < 200; i++) {
        HttpResponse<String> r =
            PackagedServer.send(
                "POST", port, "/api/weibo/users/killed/posts", "{\"content\":\"post " + i + "\"}");
        assertThat(r.statusCode()).isEqualTo(201);
        acknowledged.add(Json.mapper().readTree(r.body()).get("id").asText());
      }
      // Time series points acknowledged with ?sync (OpenTSDB's durable put).
      for (int batch = 0; batch < 50; batch++) {
        StringBuilder points = new StringBuilder("[");
        for (int i = 0; i < 10; i++) {
          points
              .append(i == 0 ? "" : ",")
              .append("{\"metric\":\"killed.points\",\"timestamp\":")
              .append(POINTS_START + batch * 10 + i)
              .append(",\"value\":")
              .append(batch * 10 + i)
              .append(",\"tags\":{\"host\":\"a\"}}");
        }
        HttpResponse<String> r =
            PackagedServer.send("POST", port, "/api/put?sync", points.append("]").toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
      }
      // The banknote agent delivers device files meanwhile; the kill finds it half-way.
      banknotes.startAndAwaitAQuarter();
    } finally {
      first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
      first.waitFor(60, TimeUnit.SECONDS);
    }
    banknotes.serverKilled();

    long t0 = System.nanoTime();
    Process second =
        PackagedServer.start(
            jar, data, port, "serve.log", "--frontier-port", Integer.toString(grpc));
    try {
      PackagedServer.awaitHealth(second, port, "serve.log");
      long millis = (System.nanoTime() - t0) / 1_000_000;
      System.out.println("restart after SIGKILL: healthy in " + millis + " ms");
      assertThat(postsOf("killed", port)).containsExactlyInAnyOrderElementsOf(acknowledged);
      JsonNode series =
          Json.mapper()
              .readTree(
                  PackagedServer.send(
                          "GET",
                          port,
                          "/api/query?start="
                              + POINTS_START
                              + "&end="
                              + (POINTS_START + 600)
                              + "&m=sum:killed.points",
                          null)
                      .body());
      assertThat(series.get(0).get("dps")).hasSize(500);
      assertThat(series.get(0).get("dps").get(Long.toString(POINTS_START + 499)).asLong())
          .isEqualTo(499);
      PackagedFrontier.assertTwoUrlsOneInProcess(second, grpc);
      banknotes.finishAndVerify();
    } finally {
      PackagedServer.stop(second);
    }
    assertThat(data.resolve("casebook-runtime.properties"))
        .as("removed on clean shutdown")
        .doesNotExist();

    Process third =
        PackagedServer.start(
            jar, data, port, "serve.log", "--frontier-port", Integer.toString(grpc));
    try {
      PackagedServer.awaitHealth(third, port, "serve.log");
      PackagedFrontier.assertTwoUrlsOneInProcess(third, grpc);
      JsonNode timeline =
          Json.mapper()
              .readTree(
                  PackagedServer.send("GET", port, "/api/weibo/users/reader/timeline", null)
                      .body());
      assertThat(timeline.get("posts").findValuesAsText("content"))
          .containsExactly("survives restarts");
      assertThat(postsOf("killed", port)).hasSameSizeAs(acknowledged);
    } finally {
      PackagedServer.stop(third);
    }
  }

  private java.util.Set<String> postsOf(String uid, int port) throws Exception {
    java.util.Set<String> found = new java.util.HashSet<>();
    String cursor = null;
    do {
      String path =
          "/api/weibo/users/"
              + uid
              + "/posts?limit=1000"
              + (cursor == null ? "" : "&cursor=" + cursor);
      JsonNode page = Json.mapper().readTree(PackagedServer.send("GET", port, path, null).body());
      page.get("posts").forEach(p -> found.add(p.get("id").asText()));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return found;
  }

  /** Two hours ago, on the hour. */
  private static final long POINTS_START = (System.currentTimeMillis() / 3_600_000L - 2) * 3600L;
}
