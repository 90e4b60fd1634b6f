package org.casebook.trails.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.trails.TrailsService;
import org.casebook.trails.TrailsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The behaviour registry over HTTP: declaring is an admin's, listing and reading are open; a
 * declared type's lines are uploaded and read back with their extras.
 */
@ExtendWith(EmbeddedHBase.class)
class TrailsBehaviourRoutesIT {
  private static final String TOKEN = "trails-registry-it";
  private final HttpClient client = HttpClient.newHttpClient();
  private Platform platform;
  private HttpApiServer server;
  private String base;

  @BeforeEach
  void start(HBaseRuntime runtime) throws Exception {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    TrailsSystem system = new TrailsSystem();
    SystemContext context = platform.contextFor(system.descriptor());
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

  /** A behaviour name of this test's own: the system's registry is shared by the JVM's tests. */
  private static String name() {
    return TestIds.unique("b").replace('-', '_').toLowerCase(Locale.ROOT);
  }

  @Test
  void declareListReadAndUseABehaviour() throws Exception {
    String name = name();
    String body =
        "{\"fields\":[{\"name\":\"contentId\",\"kind\":\"TEXT\"},{\"name\":\"seconds\",\"kind\":\"count\"}]}";
    assertThat(put(name, body, null).statusCode()).isEqualTo(401);
    JsonNode declared = ok(put(name, body, TOKEN));
    assertThat(declared.get("name").asText()).isEqualTo(name);
    assertThat(declared.get("builtIn").asBoolean()).isFalse();
    int id = declared.get("id").asInt();
    assertThat(id).isBetween(5, 255);
    assertThat(declared.get("fields").findValuesAsText("kind")).containsExactly("TEXT", "COUNT");
    // Again: the same id.
    assertThat(ok(put(name, body, TOKEN)).get("id").asInt()).isEqualTo(id);

    JsonNode all = ok(get(base + "behaviours")).get("behaviours");
    assertThat(names(all)).startsWith("login", "play", "visit", "order");
    assertThat(names(all)).contains(name);
    assertThat(ok(get(base + "behaviours/play")).get("fields").findValuesAsText("name"))
        .containsExactly("contentId", "channel", "start", "duration");
    assertThat(ok(get(base + "behaviours/" + name)).get("id").asInt()).isEqualTo(id);
    assertThat(get(base + "behaviours/nosuch").statusCode()).isEqualTo(404);

    String uid = "u," + name;
    String lines =
        "{\"uid\":\""
            + uid
            + "\",\"type\":\""
            + name
            + "\",\"ts\":\"2026-09-01T10:00:00Z\",\"contentId\":\"c\",\"seconds\":42,\"device\":\"tv\"}\n";
    JsonNode upload = ok(send("POST", base + "events", lines, TOKEN));
    assertThat(upload.get("accepted").asLong()).isEqualTo(1);
    String user = URLEncoder.encode(uid, StandardCharsets.UTF_8);
    JsonNode event = ok(get(base + user + "?from=2026-09-01&types=" + name)).get("events").get(0);
    assertThat(event.get("type").asText()).isEqualTo(name);
    assertThat(event.get("seconds").asLong()).isEqualTo(42);
    assertThat(event.get("extra").get("device").asText()).isEqualTo("tv");
    JsonNode match =
        ok(
            send(
                "POST",
                base + "match",
                "{\"query\":\""
                    + name
                    + " WHERE "
                    + name
                    + ".seconds >= 42 AND "
                    + name
                    + ".extra.device = 'tv'\",\"from\":\"2026-09-01\",\"users\":[\""
                    + uid
                    + "\"]}",
                null));
    assertThat(match.get("count").asInt()).isEqualTo(1);
    assertThat(match.get("matched").get(0).asText()).isEqualTo(uid);
  }

  @Test
  void badDeclarationsAre400sNamingTheFieldAnd409sForStoredData() throws Exception {
    String name = name();
    String body = "{\"fields\":[{\"name\":\"seconds\",\"kind\":\"COUNT\"}]}";
    assertField(put("Bad-Name", body, TOKEN), "name");
    assertField(put(name, "{}", TOKEN), "fields");
    assertField(put(name, "{\"fields\":[{\"name\":\"s\",\"kind\":\"DATE\"}]}", TOKEN), "fields");
    assertField(put(name, "{\"fields\":[{\"name\":\"uid\",\"kind\":\"TEXT\"}]}", TOKEN), "fields");
    assertThat(put("order", body, TOKEN).statusCode()).isEqualTo(409);
    ok(put(name, body, TOKEN));
    HttpResponse<String> kind =
        put(name, "{\"fields\":[{\"name\":\"seconds\",\"kind\":\"TEXT\"}]}", TOKEN);
    assertThat(kind.statusCode()).as(kind.body()).isEqualTo(409);
    assertThat(kind.body()).contains(name + ".seconds");
    assertField(get(base + "x?from=2026-09-01&types=nosuch"), "types");
  }

  private HttpResponse<String> put(String name, String body, String token) throws Exception {
    return send("PUT", base + "behaviours/" + name, body, token);
  }

  private HttpResponse<String> send(String method, String url, String body, String token)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The names of an array of behaviours (not of their fields). */
  private static java.util.List<String> names(JsonNode behaviours) {
    java.util.List<String> out = new java.util.ArrayList<>();
    behaviours.forEach(b -> out.add(b.get("name").asText()));
    return out;
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
