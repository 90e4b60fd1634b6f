package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.casebook.core.AccessRule;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A backup taken by the serving process while writers keep writing: each put of a new metric is a
 * change across two tables (the metric's id in the uid table, the point in the data table), and the
 * backup holds every such change whole — a metric it names answers its point — and the writers go
 * on after the pause. A {@code backup create} beside the serve asks it to take the backup.
 */
@ExtendWith(EmbeddedHBase.class)
class OnlineBackupIT {
  private static final long T0 = 1_790_000_000L;
  private final HttpClient client = HttpClient.newHttpClient();

  private HttpResponse<String> send(String method, String url, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static int cli(String namespace, ByteArrayOutputStream out, String... args) {
    List<String> full = new ArrayList<>(List.of("--set", "tsdb.namespace=" + namespace));
    full.addAll(List.of(args));
    return CapturedCli.run(out, full);
  }

  @Test
  void aBackupTakenWhileWritersWriteHoldsEveryChangeWhole(HBaseRuntime runtime) throws Exception {
    String namespace = TestIds.unique("obt").replace('-', '_');
    CasebookSystem tsdb =
        Systems.load().stream()
            .filter(s -> s.descriptor().name().equals("tsdb"))
            .findFirst()
            .orElseThrow();
    Map<String, String> settings = Map.of("tsdb.namespace", namespace);
    String backup = TestIds.unique("ob");
    String viaCli = TestIds.unique("obcli");
    List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
    try (Platform platform =
            Platform.builder(runtime, EmbeddedHBase.scratchDir("online-backup")).build();
        Server server = Server.start(List.of(tsdb), platform, 0, 8, settings)) {
      String base = "http://127.0.0.1:" + server.port();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<Integer>> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  int i = 0;
                  while (!stop.get() || i < 20) {
                    String body =
                        "{\"metric\":\"ob.w%d.m%d\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"h\"}}"
                            .formatted(writer, i, T0 + i, i);
                    HttpResponse<String> r = send("POST", base + "/api/put?sync", body);
                    statuses.add(r.statusCode());
                    i++;
                  }
                  return i;
                }));
      }
      Thread.sleep(300);
      HttpResponse<String> taken =
          send(
              "POST",
              base + "/api/backups",
              "{\"name\":\"%s\",\"systems\":[\"tsdb\"]}".formatted(backup));
      assertThat(taken.statusCode()).as(taken.body()).isEqualTo(201);
      JsonNode b = Json.mapper().readTree(taken.body());
      assertThat(b.get("name").asText()).isEqualTo(backup);
      assertThat(b.get("systems").toString()).contains("tsdb");
      assertThat(
              send("POST", base + "/api/backups", "{\"name\":\"%s\"}".formatted(backup))
                  .statusCode())
          .as("a name taken")
          .isEqualTo(409);
      HttpResponse<String> unknown =
          send("POST", base + "/api/backups", "{\"systems\":[\"weibo\"]}");
      assertThat(unknown.statusCode()).isEqualTo(400);
      assertThat(unknown.body()).contains("\"field\":\"systems\"");

      // The CLI beside the serve asks it to take the backup (here the serve is this JVM's).
      ServeAddress.write(EmbeddedHBase.dataDir(), URI.create(base));
      try {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(cli(namespace, out, "backup", "create", "--system", "tsdb", viaCli))
            .as(out.toString(StandardCharsets.UTF_8))
            .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("asking it", viaCli + "  taken");
        out.reset();
        assertThat(cli(namespace, out, "backup", "create", "--system", "tsdb", viaCli))
            .as("the serve's 409 is the CLI's exit 4")
            .isEqualTo(4);
      } finally {
        ServeAddress.remove(EmbeddedHBase.dataDir());
      }
      stop.set(true);
      for (Future<Integer> f : writers) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(20);
      }
      pool.shutdown();
    }
    assertThat(statuses).as("every write went through, the pause only held it").containsOnly(204);

    // Cloned beside the live tables, the backup answers for every metric it knows.
    String cloned = TestIds.unique("obc").replace('-', '_');
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(cli(namespace, out, "backup", "restore", backup, "--as", cloned))
        .as(out.toString(StandardCharsets.UTF_8))
        .isZero();
    try (ServedSystem t =
        ServedSystem.start(runtime, tsdb, AccessRule.open(), Map.of("tsdb.namespace", cloned))) {
      HttpResponse<String> suggest =
          send("GET", t.url("/api/suggest?type=metrics&q=ob.&max=100000"), null);
      assertThat(suggest.statusCode()).isEqualTo(200);
      JsonNode metrics = Json.mapper().readTree(suggest.body());
      assertThat(metrics.size()).as("metrics in the backup").isPositive();
      for (JsonNode m : metrics) {
        HttpResponse<String> q =
            send(
                "GET",
                t.url(
                    "/api/query?start="
                        + T0
                        + "&end="
                        + (T0 + 100_000)
                        + "&m="
                        + URLEncoder.encode("sum:" + m.asText(), StandardCharsets.UTF_8)),
                null);
        assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
        JsonNode answer = Json.mapper().readTree(q.body());
        assertThat(answer.size()).as("the point of " + m.asText()).isEqualTo(1);
        assertThat(answer.get(0).get("dps").size()).as("the point of " + m.asText()).isEqualTo(1);
      }
    }
    for (String name : List.of(backup, viaCli)) {
      assertThat(cli(namespace, out, "backup", "delete", name)).isZero();
    }
  }
}
