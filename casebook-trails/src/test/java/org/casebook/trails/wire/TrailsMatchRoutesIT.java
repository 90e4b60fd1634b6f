package org.casebook.trails.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
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

/** {@code POST /api/trails/match}: the direct condition query over HTTP, and its 400s. */
@ExtendWith(EmbeddedHBase.class)
class TrailsMatchRoutesIT {
  private static final String TOKEN = "trails-match-it";
  private final HttpClient client = HttpClient.newHttpClient();
  private Platform platform;
  private HttpApiServer server;
  private String base;
  private String quick;
  private String slow;

  @BeforeEach
  void start(HBaseRuntime runtime) throws Exception {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    TrailsSystem system = new TrailsSystem();
    SystemContext context = platform.contextFor(system.descriptor());
    String run = TestIds.unique("m");
    quick = "quick/" + run;
    slow = "slow," + run;
    server = new HttpApiServer("127.0.0.1", 0, AccessRule.token(TOKEN), 2, context.metrics());
    system.start(context).routes().forEach(server::add);
    server.start();
    base = "http://127.0.0.1:" + server.port() + "/api/trails/";
    String lines =
        String.join(
            "\n",
            login(quick, "2026-09-01T10:00:00Z"),
            play(quick, "2026-09-01T12:00:00Z"),
            login(slow, "2026-09-01T10:00:00Z"),
            play(slow, "2026-09-01T12:00:00.001Z"),
            "{\"uid\":\""
                + slow
                + "\",\"type\":\"order\",\"ts\":\"2026-09-02T10:00:00Z\",\"product\":\"p\",\"price\":10.01}");
    HttpResponse<String> stored =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "events"))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(lines + "\n"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ok(stored).get("accepted").asInt()).isEqualTo(5);
  }

  @AfterEach
  void stop() {
    server.close();
    platform.close();
  }

  private static String login(String uid, String ts) {
    return "{\"uid\":\""
        + uid
        + "\",\"type\":\"login\",\"ts\":\""
        + ts
        + "\",\"device\":\"d\",\"ip\":\"i\"}";
  }

  private static String play(String uid, String ts) {
    return "{\"uid\":\""
        + uid
        + "\",\"type\":\"play\",\"ts\":\""
        + ts
        + "\",\"contentId\":\"c\",\"channel\":\"news\",\"start\":0,\"duration\":60}";
  }

  private String body(String query, String from, String to, List<String> users) {
    StringBuilder b = new StringBuilder("{");
    if (query != null) {
      b.append("\"query\":").append(Json.write(query)).append(',');
    }
    if (to != null) {
      b.append("\"to\":\"").append(to).append("\",");
    }
    if (users != null) {
      b.append("\"users\":").append(Json.write(users)).append(',');
    }
    return b.append("\"from\":\"").append(from).append("\"}").toString();
  }

  @Test
  void theMatchingUsersOfTheListComeBackInItsOrder() throws Exception {
    List<String> users = List.of(slow, "nobody", quick, slow);
    JsonNode within = ok(post(body("login THEN play WITHIN 2h", "2026-09-01", null, users)));
    assertThat(within.get("matched")).extracting(JsonNode::asText).containsExactly(quick);
    assertThat(within.get("count").asInt()).isEqualTo(1);
    assertThat(within.get("users").asInt()).isEqualTo(3);
    assertThat(within.get("to").asText()).isEqualTo("2026-09-01");
    JsonNode then = ok(post(body("login then PLAY", "2026-09-01", "2026-09-01", users)));
    assertThat(then.get("matched")).extracting(JsonNode::asText).containsExactly(slow, quick);
    // The order on the second day is outside a one-day range and inside a two-day one.
    JsonNode dear =
        ok(post(body("play AND order WHERE order.price > 10", "2026-09-01", "2026-09-02", users)));
    assertThat(dear.get("matched")).extracting(JsonNode::asText).containsExactly(slow);
    assertThat(ok(post(body("play AND order", "2026-09-01", null, users))).get("matched"))
        .isEmpty();
    JsonNode none = ok(post(body("NOT order", "2026-09-01", "2026-09-02", users)));
    assertThat(none.get("matched")).extracting(JsonNode::asText).containsExactly("nobody", quick);
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    List<String> users = List.of(quick);
    assertField(post(body(null, "2026-09-01", null, users)), "query");
    HttpResponse<String> syntax = post(body("login THEN", "2026-09-01", null, users));
    assertField(syntax, "query");
    assertThat(syntax.body()).contains("at 11 (end of query)");
    assertField(post(body("order WHERE order.price > 'x'", "2026-09-01", null, users)), "query");
    assertField(post(body("login", "2026-09-01", null, null)), "users");
    assertField(post(body("login", "2026-09-01", null, List.of())), "users");
    assertField(post(body("login", "2026-09-01", null, Collections.nCopies(10_001, "u"))), "users");
    assertField(post(body("login", "2026-09-01", null, List.of("a\u0001b"))), "users");
    assertField(post("{\"query\":\"login\",\"users\":[\"u\"]}"), "from");
    assertField(post(body("login", "2026-09-01", "2026-08-31", users)), "to");
    assertField(post(body("login", "2026-09-01", "2027-09-02", users)), "to");
    assertField(
        post("{\"query\":\"login\",\"from\":\"2026-09-01\",\"users\":[\"u\"],\"all\":true}"),
        "all");
  }

  private HttpResponse<String> post(String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + "match"))
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
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
