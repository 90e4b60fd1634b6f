package org.casebook.trails.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.casebook.trails.IngestReport;
import org.casebook.trails.TrailsService;
import org.casebook.trails.TrailsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class TrailsRoutesIT {
  private static final String TOKEN = "trails-it";
  private final HttpClient client = HttpClient.newHttpClient();
  private Platform platform;
  private HttpApiServer server;
  private String base;
  private String uid;
  private TrailsService service;
  private Path dir;

  @BeforeEach
  void start(HBaseRuntime runtime) throws Exception {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    TrailsSystem system = new TrailsSystem();
    SystemContext context = platform.contextFor(system.descriptor());
    service = new TrailsService(context);
    uid = "a/b," + TestIds.unique("r");
    dir = EmbeddedHBase.scratchDir("trails-http-" + TestIds.unique("d"));
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
    server = new HttpApiServer("127.0.0.1", 0, AccessRule.token(TOKEN), 2, context.metrics());
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

  @Test
  void uploadedLinesAreStoredOnceWithTheFileIngestsRejects() throws Exception {
    String cjk = "机顶盒用户" + TestIds.unique("");
    String odd = "box/7," + TestIds.unique("s");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    line(
        body,
        "{\"uid\":\""
            + cjk
            + "\",\"type\":\"play\",\"ts\":\"2026-09-01T20:00:00Z\",\"contentId\":\"c1\","
            + "\"channel\":\"news\",\"start\":0,\"duration\":60}\n");
    line(body, "{\"uid\":\"" + cjk + "\",\"type\":\"play\"\n");
    line(body, "{\"uid\":\"" + cjk + "\",\"type\":\"share\",\"ts\":\"2026-09-01T20:00:00Z\"}\n");
    line(
        body,
        "{\"type\":\"order\",\"ts\":\"2026-09-01T21:00:00Z\",\"product\":\"p\",\"price\":1}\n");
    line(body, "{\"uid\":\"" + cjk + "\",\"type\":\"visit\",\"ts\":\"2026-09-01T22:00:00Z\",");
    body.writeBytes(new byte[] {'"', 'p', 'a', 'g', 'e', '"', ':', '"', (byte) 0xFF, (byte) 0xFE});
    line(body, "\",\"column\":\"x\"}\n");
    line(
        body,
        "{\"uid\":\""
            + odd
            + "\",\"type\":\"order\",\"ts\":\"2026-09-02T21:00:00Z\",\"product\":\"p\","
            + "\"price\":9.9}\r\n");
    line(
        body,
        "{\"uid\":\""
            + cjk
            + "\",\"type\":\"login\",\"ts\":\"2026-09-03T08:00:00Z\",\"device\":\"stb\","
            + "\"ip\":\"10.0.0.1\"}");
    byte[] bytes = body.toByteArray();

    HttpResponse<String> first = upload(bytes, TOKEN);
    JsonNode r = ok(first);
    assertThat(r.get("lines").asLong()).isEqualTo(7);
    assertThat(r.get("accepted").asLong()).isEqualTo(3);
    assertThat(r.get("rejected").asLong()).isEqualTo(4);
    assertThat(r.get("cells").asLong()).isPositive();
    assertThat(
            Json.mapper().convertValue(r.get("reasons"), new TypeReference<Map<String, Long>>() {}))
        .isEqualTo(Map.of("not JSON", 1L, "unknown type", 1L, "bad uid", 1L, "invalid UTF-8", 1L));
    assertThat(r.get("rejects").findValuesAsText("line")).containsExactly("2", "3", "4", "5");
    assertThat(r.get("rejects").get(0).get("text").asText())
        .isEqualTo("{\"uid\":\"" + cjk + "\",\"type\":\"play\"");
    assertThat(r.get("rejects").get(2).get("reason").asText()).isEqualTo("missing uid");
    assertThat(r.get("rejectsLeftOut").asLong()).isZero();

    String cjkTrail =
        base + URLEncoder.encode(cjk, StandardCharsets.UTF_8) + "?from=2026-09-01&to=2026-09-03";
    String oddTrail =
        base + URLEncoder.encode(odd, StandardCharsets.UTF_8) + "?from=2026-09-01&to=2026-09-03";
    String cjkLatest = base + URLEncoder.encode(cjk, StandardCharsets.UTF_8) + "/latest?limit=100";
    String oddLatest =
        base + URLEncoder.encode(odd, StandardCharsets.UTF_8) + "/latest?layout=tall";
    JsonNode trail = ok(get(cjkTrail));
    assertThat(trail.get("uid").asText()).isEqualTo(cjk);
    assertThat(trail.get("events").findValuesAsText("type")).containsExactly("play", "login");
    JsonNode oddEvents = ok(get(oddTrail)).get("events");
    assertThat(oddEvents).hasSize(1);
    assertThat(oddEvents.get(0).get("price").decimalValue()).isEqualByComparingTo("9.90");
    List<String> before =
        List.of(
            get(cjkTrail).body(),
            get(oddTrail).body(),
            get(cjkLatest).body(),
            get(oddLatest).body());

    // A client retrying the same body writes the same cells: the same answer, no record twice.
    HttpResponse<String> again = upload(bytes, TOKEN);
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.body()).isEqualTo(first.body());
    List<String> after =
        List.of(
            get(cjkTrail).body(),
            get(oddTrail).body(),
            get(cjkLatest).body(),
            get(oddLatest).body());
    assertThat(after).isEqualTo(before);
    assertThat(ok(get(cjkLatest)).get("events")).hasSize(2);
    assertThat(ok(get(oddLatest)).get("events")).hasSize(1);

    // The same lines through the file ingest: the same counts and the same rejects.
    Files.write(dir.resolve("upload.jsonl"), bytes);
    IngestReport file =
        service.ingest(
            dir.resolve("upload.jsonl"),
            new IngestOptions(dir.resolve("upload.rejects"), HistoryTables.BOTH, 1),
            Progress.logging("t", 0, "bytes"));
    assertThat(List.of(file.lines(), file.accepted(), file.rejected(), file.cells()))
        .containsExactly(
            r.get("lines").asLong(),
            r.get("accepted").asLong(),
            r.get("rejected").asLong(),
            r.get("cells").asLong());
    List<String> fileRejects =
        Files.readAllLines(dir.resolve("upload.rejects"), StandardCharsets.UTF_8).stream()
            .skip(1)
            .map(l -> l.substring(0, l.indexOf('\t', l.indexOf('\t') + 1)))
            .toList();
    List<String> uploadRejects = new ArrayList<>();
    r.get("rejects")
        .forEach(
            x ->
                uploadRejects.add(
                    x.get("line").asText() + "\t" + RejectsFile.oneLine(x.get("reason").asText())));
    assertThat(uploadRejects).isEqualTo(fileRejects);
  }

  @Test
  void uploadsListTheFirstRejectsAndRefuseBadBodies() throws Exception {
    int listed = 100; // the rejected lines an answer lists (README)
    StringBuilder bad = new StringBuilder();
    for (int i = 0; i < listed + 50; i++) {
      bad.append("not json ").append(i).append('\n');
    }
    JsonNode r = ok(upload(bad.toString().getBytes(StandardCharsets.UTF_8), TOKEN));
    assertThat(r.get("rejected").asLong()).isEqualTo(listed + 50);
    assertThat(r.get("rejects")).hasSize(listed);
    assertThat(r.get("rejects").get(0).get("line").asLong()).isEqualTo(1);
    assertThat(r.get("rejects").get(listed - 1).get("line").asLong()).isEqualTo(listed);
    assertThat(r.get("rejectsLeftOut").asLong()).isEqualTo(50);

    assertField(upload(new byte[0], TOKEN), "body");
    JsonNode full =
        ok(
            upload(
                "\n".repeat(TrailsService.MAX_UPLOAD_LINES).getBytes(StandardCharsets.UTF_8),
                TOKEN));
    assertThat(full.get("lines").asLong()).isEqualTo(TrailsService.MAX_UPLOAD_LINES);
    assertThat(full.get("reasons").get("empty line").asLong())
        .isEqualTo(TrailsService.MAX_UPLOAD_LINES);
    // One good line, then empty lines past the limit: refused whole, the good line not stored.
    String late = "late-" + TestIds.unique("u");
    String over =
        "{\"uid\":\""
            + late
            + "\",\"type\":\"login\",\"ts\":\"2026-09-01T08:00:00Z\",\"device\":\"d\",\"ip\":\"i\"}\n"
            + "\n".repeat(TrailsService.MAX_UPLOAD_LINES);
    assertField(upload(over.getBytes(StandardCharsets.UTF_8), TOKEN), "body");
    assertThat(ok(get(base + late + "/latest")).get("events")).isEmpty();

    HttpResponse<String> anonymous = upload("{}\n".getBytes(StandardCharsets.UTF_8), null);
    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    HttpResponse<String> wrong = upload("{}\n".getBytes(StandardCharsets.UTF_8), "nope");
    assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);
  }

  private static void line(ByteArrayOutputStream body, String text) {
    body.writeBytes(text.getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> upload(byte[] body, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + "events"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
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
