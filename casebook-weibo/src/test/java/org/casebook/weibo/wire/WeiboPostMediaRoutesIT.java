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

/** Title and images over REST: published, returned by every read, refused field by field. */
@ExtendWith(EmbeddedHBase.class)
class WeiboPostMediaRoutesIT {
  private static final String IMAGES =
      "[{\"ref\":\"https://img.example/cat.jpg\",\"width\":1080,\"height\":720,"
          + "\"alt\":\"a cat\"},{\"ref\":\"upload-42.png\"}]";

  private final HttpClient client = HttpClient.newHttpClient();
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new WeiboSystem(), AccessRule.open());
    base = served.url("/api/weibo/users/");
    run = TestIds.unique("rm");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private static void assertMedia(JsonNode post) {
    assertThat(post.get("title").asText()).isEqualTo("标题");
    JsonNode images = post.get("images");
    assertThat(images).hasSize(2);
    assertThat(images.get(0).get("ref").asText()).isEqualTo("https://img.example/cat.jpg");
    assertThat(images.get(0).get("width").asInt()).isEqualTo(1080);
    assertThat(images.get(0).get("height").asInt()).isEqualTo(720);
    assertThat(images.get(0).get("alt").asText()).isEqualTo("a cat");
    assertThat(images.get(1).get("ref").asText()).isEqualTo("upload-42.png");
    assertThat(images.get(1).get("width").isNull()).isTrue();
    assertThat(images.get(1).get("alt").isNull()).isTrue();
  }

  @Test
  void titleAndImagesArePublishedAndEveryReadReturnsThem() throws Exception {
    String author = run + "-author";
    String reader = run + "-reader";
    assertThat(send("PUT", user(reader) + "/following/" + enc(author), null).statusCode())
        .isEqualTo(204);
    HttpResponse<String> created =
        send(
            "POST",
            user(author) + "/posts",
            "{\"content\":\"有图\",\"title\":\"标题\",\"images\":" + IMAGES + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode post = Json.mapper().readTree(created.body());
    assertMedia(post);
    String id = post.get("id").asText();

    assertMedia(json(send("GET", user(reader) + "/timeline", null)).get("posts").get(0));
    assertMedia(json(send("GET", user(author) + "/posts", null)).get("posts").get(0));
    assertMedia(json(send("GET", user(author) + "/posts/" + id, null)));
    assertThat(send("GET", user(author) + "/posts/1", null).statusCode()).isEqualTo(404);

    // A post of content only says so: no title, no images.
    JsonNode plain =
        Json.mapper()
            .readTree(send("POST", user(author) + "/posts", "{\"content\":\"plain\"}").body());
    assertThat(plain.get("title").isNull()).isTrue();
    assertThat(plain.get("images")).isEmpty();
    JsonNode nulls =
        Json.mapper()
            .readTree(
                send(
                        "POST",
                        user(author) + "/posts",
                        "{\"content\":\"nulls\",\"title\":null,\"images\":null}")
                    .body());
    assertThat(nulls.get("images")).isEmpty();
  }

  @Test
  void eachBadTitleOrImageIsA400NamingItAndStoresNothing() throws Exception {
    String author = run + "-bad";
    String reader = run + "-reader";
    send("PUT", user(reader) + "/following/" + enc(author), null);
    String ok = "{\"ref\":\"id-1\"}";
    Map<String, String> bodies =
        Map.ofEntries(
            Map.entry("{\"content\":\"c\",\"title\":\"\"}", "title"),
            Map.entry("{\"content\":\"c\",\"title\":\"" + "t".repeat(101) + "\"}", "title"),
            Map.entry("{\"content\":\"c\",\"title\":\"a\\nb\"}", "title"),
            Map.entry("{\"content\":\"c\",\"title\":7}", "title"),
            Map.entry(
                "{\"content\":\"c\",\"images\":["
                    + ok
                    + ","
                    + ok
                    + ",{\"ref\":\"http://img.example/a.jpg\"}]}",
                "images[2].ref"),
            Map.entry("{\"content\":\"c\",\"images\":[" + ok + ",null]}", "images[1]"),
            Map.entry("{\"content\":\"c\",\"images\":[{\"ref\":\"a b\"}]}", "images[0].ref"),
            Map.entry("{\"content\":\"c\",\"images\":[{}]}", "images[0].ref"),
            Map.entry(
                "{\"content\":\"c\",\"images\":[{\"ref\":\"id\",\"width\":\"wide\",\"height\":1}]}",
                "images[0].width"),
            Map.entry(
                "{\"content\":\"c\",\"images\":[{\"ref\":\"id\",\"width\":1.5,\"height\":1}]}",
                "images[0].width"),
            Map.entry(
                "{\"content\":\"c\",\"images\":[{\"ref\":\"id\",\"width\":10}]}",
                "images[0].height"),
            Map.entry(
                "{\"content\":\"c\",\"images\":[{\"ref\":\"id\",\"width\":10,\"height\":70000}]}",
                "images[0].height"),
            Map.entry(
                "{\"content\":\"c\",\"images\":[{\"ref\":\"id\",\"alt\":\" \"}]}", "images[0].alt"),
            Map.entry(
                "{\"content\":\"c\",\"images\":["
                    + String.join(",", List.of(ok, ok, ok, ok, ok, ok, ok, ok, ok, ok))
                    + "]}",
                "images"),
            Map.entry("{\"content\":\"c\",\"images\":\"https://img.example/a.jpg\"}", "images"),
            Map.entry("{\"title\":\"t\",\"images\":[" + ok + "]}", "content"));
    for (Map.Entry<String, String> bad : bodies.entrySet()) {
      HttpResponse<String> r = send("POST", user(author) + "/posts", bad.getKey());
      assertThat(r.statusCode()).as(bad.getKey() + " → " + r.body()).isEqualTo(400);
      assertThat(Json.mapper().readTree(r.body()).get("field").asText())
          .as(bad.getKey() + " → " + r.body())
          .isEqualTo(bad.getValue());
    }
    assertThat(json(send("GET", user(author) + "/posts", null)).get("posts")).isEmpty();
    assertThat(json(send("GET", user(reader) + "/timeline", null)).get("posts")).isEmpty();
    assertThat(json(send("GET", user(author), null)).get("posts").asLong()).isZero();
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
            .header("Content-Type", "application/json")
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
}
