package org.casebook.weibo.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.casebook.weibo.WeiboSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class WeiboRoutesIT {
  private static final String TOKEN = "s3cret";
  private final HttpClient client = HttpClient.newHttpClient();
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new WeiboSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/weibo/users/");
    run = TestIds.unique("h");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  @Test
  void publishFollowAndReadTheTimelineOverHttp() throws Exception {
    String alice = run + "/alice"; // a slash inside an id travels as %2F
    String bob = run + " bob,_1";
    assertThat(send("PUT", user(bob) + "/following/" + enc(alice), null).statusCode())
        .isEqualTo(204);
    HttpResponse<String> created =
        send("POST", user(alice) + "/posts", "{\"content\":\"你好, HBase\"}");
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
    assertThat(json(send("GET", user(alice) + "/followers", null)).get("users").get(0).asText())
        .isEqualTo(bob);
    assertThat(json(send("GET", user(bob) + "/following", null)).get("users").get(0).asText())
        .isEqualTo(alice);
    assertThat(json(send("GET", user(alice) + "/posts", null)).get("posts")).hasSize(1);
    assertThat(json(send("GET", user(alice), null)).get("followers").asLong()).isEqualTo(1);

    assertThat(send("DELETE", user(bob) + "/following/" + enc(alice), null).statusCode())
        .isEqualTo(204);
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

  /**
   * Every listing: the platform's page rule (1..1000) and opaque cursors that page and cannot be
   * edited.
   */
  @Test
  void listingsPageUpToAThousandAndRefuseMoreOrTamperedCursors() throws Exception {
    String alice = run + "-alice";
    String bob = run + "-bob";
    String carol = run + "-carol";
    send("PUT", user(bob) + "/following/" + enc(alice), null);
    send("PUT", user(bob) + "/following/" + enc(carol), null);
    send("PUT", user(carol) + "/following/" + enc(alice), null);
    send("POST", user(alice) + "/posts", "{\"content\":\"one\"}");
    send("POST", user(alice) + "/posts", "{\"content\":\"two\"}");
    record Listing(String path, String field) {}
    List<Listing> listings =
        List.of(
            new Listing(user(bob) + "/timeline", "posts"),
            new Listing(user(alice) + "/posts", "posts"),
            new Listing(user(alice) + "/followers", "users"),
            new Listing(user(bob) + "/following", "users"));
    for (Listing l : listings) {
      assertThat(json(send("GET", l.path() + "?limit=1000", null)).get(l.field()))
          .as(l.path())
          .hasSize(2);
      assertError(send("GET", l.path() + "?limit=1001", null), 400, "limit");
      JsonNode first = json(send("GET", l.path() + "?limit=1", null));
      assertThat(first.get(l.field())).as(l.path()).hasSize(1);
      String next = first.get("next").asText();
      JsonNode second = json(send("GET", l.path() + "?limit=1&cursor=" + enc(next), null));
      assertThat(second.get(l.field())).as(l.path()).hasSize(1);
      assertThat(second.get(l.field()).get(0))
          .as(l.path())
          .isNotEqualTo(first.get(l.field()).get(0));
      assertThat(second.get("next").isNull()).as(l.path()).isTrue();
      int i = next.length() / 2;
      String tampered =
          next.substring(0, i) + (next.charAt(i) == 'A' ? 'B' : 'A') + next.substring(i + 1);
      assertError(send("GET", l.path() + "?limit=1&cursor=" + enc(tampered), null), 400, "cursor");
    }
    // A cursor of one listing is refused by another.
    String postsCursor =
        json(send("GET", user(alice) + "/posts?limit=1", null)).get("next").asText();
    assertError(
        send("GET", user(bob) + "/timeline?cursor=" + enc(postsCursor), null), 400, "cursor");
  }

  /**
   * The system's settings tune the served feed: a back-fill of one post, and a threshold of two
   * followers, past which the account is read-merged.
   */
  @Test
  void settingsTuneTheServedFeed(HBaseRuntime runtime) throws Exception {
    try (ServedSystem tuned =
        ServedSystem.start(
            runtime,
            new WeiboSystem(),
            AccessRule.token(TOKEN),
            Map.of("weibo.fanout-threshold", "2", "weibo.backfill-posts", "1"))) {
      String users = tuned.url("/api/weibo/users/");
      String star = run + "-star";
      send("POST", users + enc(star) + "/posts", "{\"content\":\"older\"}");
      send("POST", users + enc(star) + "/posts", "{\"content\":\"newer\"}");
      String fan = run + "-fan";
      assertThat(send("PUT", users + enc(fan) + "/following/" + enc(star), null).statusCode())
          .isEqualTo(204);
      JsonNode backfilled = json(send("GET", users + enc(fan) + "/timeline", null)).get("posts");
      assertThat(backfilled).hasSize(1);
      assertThat(backfilled.get(0).get("content").asText()).isEqualTo("newer");
      send("PUT", users + enc(run + "-fan2") + "/following/" + enc(star), null);
      boolean readMerged = false;
      for (int i = 0; i < 200 && !readMerged; i++) {
        readMerged = json(send("GET", users + enc(star), null)).get("fanOutOnRead").asBoolean();
        if (!readMerged) {
          Thread.sleep(50);
        }
      }
      assertThat(readMerged).as("promoted at 2 followers").isTrue();
    }
    assertThat(json(send("GET", user(run + "-star"), null)).get("fanOutOnRead").asBoolean())
        .as("the mode is stored with the account")
        .isTrue();
  }

  @Test
  void writesNeedTheTokenWhenOneIsSet() throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(user(run) + "/posts"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"hi\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(send("GET", user(run) + "/posts", null).statusCode()).isEqualTo(200);
    assertThat(json(send("GET", user(run) + "/posts", null)).get("posts"))
        .as("nothing stored")
        .isEmpty();
  }

  private String user(String uid) {
    return base + enc(uid);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private HttpResponse<String> send(String method, String url, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", "Bearer " + TOKEN)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  private static void assertError(HttpResponse<String> r, int status, String field)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode body = Json.mapper().readTree(r.body());
    assertThat(body.get("error").asText()).isNotBlank();
    assertThat(body.get("field").asText()).isEqualTo(field);
  }
}
