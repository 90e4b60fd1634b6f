package org.casebook.trails.wire;

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
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.trails.HistoryTables;
import org.casebook.trails.IngestOptions;
import org.casebook.trails.TrailsService;
import org.casebook.trails.TrailsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class TrailsRoutesIT {
  private final HttpClient client = HttpClient.newHttpClient();
  private Platform platform;
  private HttpApiServer server;
  private String base;
  private String uid;

  @BeforeEach
  void start(HBaseRuntime runtime) throws Exception {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    TrailsSystem system = new TrailsSystem();
    SystemContext context = platform.contextFor(system.descriptor());
    TrailsService service = new TrailsService(context);
    uid = "a/b," + TestIds.unique("r");
    Path dir = EmbeddedHBase.scratchDir("trails-http-" + TestIds.unique("d"));
    Files.write(
        dir.resolve("l.jsonl"),
        List.of(
            "{\"uid\":\""
                + uid
                + "\",\"type\":\"play\",\"ts\":\"2026-09-01T20:00:00Z\",\"contentId\":\"c1\",\"channel\":\"news\",\"start\":0,\"duration\":60}",
            "{\"uid\":\""
                + uid
                + "\",\"type\":\"order\",\"ts\":\"2026-09-02T21:00:00Z\",\"product\":\"p\",\"price\":9.9}"),
        StandardCharsets.UTF_8);
    service.ingest(
        dir.resolve("l.jsonl"),
        new IngestOptions(dir.resolve("r"), HistoryTables.BOTH, 1),
        Progress.logging("t", 0, "bytes"));
    // Writes need a token here; the query is a read sent as POST and must still be open.
    server = new HttpApiServer("127.0.0.1", 0, AccessRule.token("trails-it"), 2, context.metrics());
    system.start(context).routes().forEach(server::add);
    server.start();
    base = "http://127.0.0.1:" + server.port() + "/api/trails/";
  }

  @AfterEach
  void stop() {
    server.close();
    platform.close();
  }

  @Test
  void trailLatestAndQueryOverHttp() throws Exception {
    String user = URLEncoder.encode(uid, StandardCharsets.UTF_8);
    JsonNode t =
        ok(
            get(
                base
                    + user
                    + "?from=2026-09-01&to=2026-09-10&types=play,order&fields=contentId,price"));
    assertThat(t.get("uid").asText()).isEqualTo(uid);
    assertThat(t.get("events")).hasSize(2);
    assertThat(t.get("events").get(0).get("contentId").asText()).isEqualTo("c1");
    assertThat(t.get("events").get(1).get("price").decimalValue()).isEqualByComparingTo("9.90");
    JsonNode first = ok(get(base + user + "/latest?limit=1"));
    assertThat(first.get("uid").asText()).isEqualTo(uid);
    assertThat(first.get("events")).hasSize(1);
    assertThat(first.get("events").get(0).get("type").asText()).isEqualTo("order");
    assertThat(first.get("events").get(0).get("ts").asText()).isEqualTo("2026-09-02T21:00:00Z");
    JsonNode second = ok(get(base + user + "/latest?limit=1&cursor=" + first.get("next").asText()));
    assertThat(second.get("events").get(0).get("type").asText()).isEqualTo("play");
    assertThat(second.get("next").isNull()).isTrue();
    JsonNode wide = ok(get(base + user + "/latest?limit=5&layout=WIDE"));
    assertThat(wide.get("events")).hasSize(2);
    assertThat(wide.get("next").isNull()).isTrue();
    assertThat(ok(get(base + user + "/latest?limit=1000")).get("events")).hasSize(2);
    assertThat(ok(get(base + user + "/latest")).get("events")).hasSize(2);
    JsonNode q =
        ok(
            post(
                base + "query",
                "{\"users\":[\""
                    + uid
                    + "\",\"nobody\"],\"from\":\"2026-09-01\",\"to\":\"2026-09-03\"}"));
    assertThat(q.get("trails")).hasSize(2);
    assertThat(q.get("trails").get(1).get("events")).isEmpty();
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    String user = URLEncoder.encode(uid, StandardCharsets.UTF_8);
    assertField(get(base + user), "from");
    assertField(get(base + user + "?from=2026-13-01"), "from");
    assertField(get(base + user + "?from=2026-09-02&to=2026-09-01"), "to");
    assertField(get(base + user + "?from=2026-09-01&types=share"), "types");
    assertField(get(base + user + "?from=2026-09-01&types=play&fields=price"), "fields");
    assertField(get(base + user + "?from=%2B10000-01-01"), "from");
    assertField(get(base + user + "?from=1969-12-31"), "from");
    assertField(get(base + user + "?from=2026-09-01&to=%2B999999999-12-31"), "to");
    assertField(get(base + "a%01b?from=2026-09-01"), "uid");
    assertField(get(base + "a%01b/latest"), "uid");
    assertField(get(base + user + "/latest?limit=0"), "limit");
    assertField(get(base + user + "/latest?limit=1001"), "limit");
    assertField(get(base + user + "/latest?limit=ten"), "limit");
    assertField(get(base + user + "/latest?cursor=AAAA"), "cursor");
    String tallCursor = ok(get(base + user + "/latest?limit=1&layout=tall")).get("next").asText();
    assertField(get(base + user + "/latest?layout=wide&cursor=" + tallCursor), "cursor");
    assertField(get(base + user + "/latest?layout=diagonal"), "layout");
    assertField(post(base + "query", "{\"users\":\"x\",\"from\":\"2026-09-01\"}"), "users");
    assertField(post(base + "query", "{\"users\":[],\"from\":\"2026-09-01\"}"), "users");
    assertField(
        post(base + "query", "{\"users\":[\"x\"],\"from\":\"2026-09-01\",\"limit\":3}"), "limit");
    assertField(post(base + "query", "{\"users\":[\"x\"]}"), "from");
    assertField(post(base + "query", "{\"from\":\"2026-09-01\"}"), "users");
    assertField(post(base + "query", "{\"users\":[\"x\",null],\"from\":\"2026-09-01\"}"), "users");
    assertField(
        post(base + "query", "{\"users\":[\"x\"],\"from\":\"2026-09-01\",\"to\":\"+10000-01-01\"}"),
        "to");
    assertField(
        post(base + "query", "{\"users\":[\"x\"],\"from\":\"2026-09-01\",\"types\":[\"share\"]}"),
        "types");
    assertField(
        post(base + "query", "{\"users\":[\"x\"],\"from\":\"2026-09-01\",\"fields\":3}"), "fields");
  }

  private HttpResponse<String> get(String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String url, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode ok(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  private static void assertField(HttpResponse<String> r, String field) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(Json.mapper().readTree(r.body()).get("field").asText()).isEqualTo(field);
  }
}
