package org.casebook.weibo.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.weibo.WeiboConfig;
import org.casebook.weibo.WeiboService;
import org.casebook.weibo.WeiboSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class WeiboRoutesIT {
  private static final String TOKEN = "s3cret";
  private final HttpClient client = HttpClient.newHttpClient();
  private HttpApiServer server;
  private WeiboService service;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(new WeiboSystem().schemas());
    service = new WeiboService(runtime.connection(), WeiboConfig.defaults());
    server = new HttpApiServer("127.0.0.1", 0, Optional.of(TOKEN), 4);
    WeiboRoutes.register(service, server);
    server.start();
    base = "http://127.0.0.1:" + server.port() + "/api/weibo/users/";
    run = TestIds.unique("h");
  }

  @AfterEach
  void stop() {
    server.close();
    service.close();
  }

  @Test
  void publishFollowAndReadTheTimelineOverHttp() throws Exception {
    String alice = run + "/alice";   // a slash inside an id travels as %2F
    String bob = run + " bob,_1";
    assertThat(send("PUT", user(bob) + "/following/" + enc(alice), null).statusCode()).isEqualTo(204);
    HttpResponse<String> created = send("POST", user(alice) + "/posts", "{\"content\":\"你好, HBase\"}");
    assertThat(created.statusCode()).isEqualTo(201);
    JsonNode post = Json.mapper().readTree(created.body());
    assertThat(post.get("uid").asText()).isEqualTo(alice);
    assertThat(post.get("content").asText()).isEqualTo("你好, HBase");
    assertThat(post.has("id")).isTrue();
    assertThat(post.get("ts").asLong()).isPositive();

    JsonNode timeline = json(send("GET", user(bob) + "/timeline?limit=10", null));
    assertThat(timeline.get("posts")).hasSize(1);
    assertThat(timeline.get("posts").get(0).get("id").asText()).isEqualTo(post.get("id").asText());
    assertThat(timeline.get("next").isNull()).isTrue();
    assertThat(json(send("GET", user(alice) + "/followers", null)).get("users").get(0).asText()).isEqualTo(bob);
    assertThat(json(send("GET", user(bob) + "/following", null)).get("users").get(0).asText()).isEqualTo(alice);
    assertThat(json(send("GET", user(alice) + "/posts", null)).get("posts")).hasSize(1);
    assertThat(json(send("GET", user(alice), null)).get("followers").asLong()).isEqualTo(1);

    assertThat(send("DELETE", user(bob) + "/following/" + enc(alice), null).statusCode()).isEqualTo(204);
    assertThat(json(send("GET", user(bob) + "/timeline", null)).get("posts")).isEmpty();
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    assertError(send("POST", user(run) + "/posts", "{\"content\":\"\"}"), 400, "content");
    assertError(send("POST", user(run) + "/posts", "{\"text\":\"hi\"}"), 400, "text");
    assertError(send("POST", user(run) + "/posts", "not json"), 400, "body");
    assertError(send("POST", user(run) + "/posts", "{\"content\":42}"), 400, "content");
    assertError(send("POST", user("x".repeat(65)) + "/posts", "{\"content\":\"hi\"}"), 400, "uid");
    assertError(send("PUT", user(run) + "/following/" + enc(run), null), 400, "target");
    assertError(send("GET", user(run) + "/timeline?limit=0", null), 400, "limit");
    assertError(send("GET", user(run) + "/timeline?limit=abc", null), 400, "limit");
    assertError(send("GET", user(run) + "/timeline?cursor=%25%25", null), 400, "cursor");
    assertError(send("GET", user(run) + "/timeline?cursor=AAAA", null), 400, "cursor");
    assertThat(send("GET", base + "x/nothing-here", null).statusCode()).isEqualTo(404);
    assertThat(send("PATCH", user(run) + "/posts", "{}").statusCode()).isEqualTo(405);
  }

  @Test
  void writesNeedTheTokenWhenOneIsSet() throws Exception {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(user(run) + "/posts"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"hi\"}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(send("GET", user(run) + "/posts", null).statusCode()).isEqualTo(200);
    assertThat(json(send("GET", user(run) + "/posts", null)).get("posts")).as("nothing stored").isEmpty();
  }

  private String user(String uid) {
    return base + enc(uid);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private HttpResponse<String> send(String method, String url, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + TOKEN)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  private static void assertError(HttpResponse<String> r, int status, String field) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode body = Json.mapper().readTree(r.body());
    assertThat(body.get("error").asText()).isNotBlank();
    assertThat(body.get("field").asText()).isEqualTo(field);
  }
}
