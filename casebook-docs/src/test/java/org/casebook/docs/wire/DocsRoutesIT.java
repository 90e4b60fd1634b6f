package org.casebook.docs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.casebook.docs.DocsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class DocsRoutesIT {
  private static final String TOKEN = "s3cret";
  private final HttpClient client = HttpClient.newHttpClient();
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new DocsSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/docs/");
    run = TestIds.unique("h");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private String url(String path) {
    return "https://" + run + ".example.com/" + path;
  }

  private String doc(String type, String id) {
    return base + type + "/" + enc(id);
  }

  @Test
  void documentsHaveEtagsAndStaleWriteBacksAre412() throws Exception {
    String id = url("a_b/中文,1");
    String body =
        "{\"title\":\"标题\",\"content\":\"正文\",\"url\":\""
            + id
            + "\",\"created\":\"2026-09-01T08:00:00Z\",\"views\":3}";
    HttpResponse<String> created = send("PUT", doc("blog", id), body, null);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String v1 = created.headers().firstValue("ETag").orElseThrow();
    assertThat(v1).matches("\"[1-9][0-9]*\"");
    HttpResponse<String> read = send("GET", doc("blog", id), null, null);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.headers().firstValue("ETag")).contains(v1);
    JsonNode d = Json.mapper().readTree(read.body());
    assertThat(d.get("fields").get("title").asText()).isEqualTo("标题");
    assertThat("\"" + d.get("version").asLong() + "\"").isEqualTo(v1);

    HttpResponse<String> patched =
        send("PATCH", doc("blog", id), "{\"sentiment\":0.5,\"tags\":[\"a\"]}", v1);
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    String v2 = patched.headers().firstValue("ETag").orElseThrow();
    assertThat(v2).isNotEqualTo(v1);
    assertError(send("PATCH", doc("blog", id), "{\"title\":\"x\"}", v1), 412, null);
    assertError(send("PUT", doc("blog", id), body, v1), 412, null);
    assertThat(send("PUT", doc("blog", id), body, v2).statusCode()).isEqualTo(200);
    assertError(send("PATCH", doc("blog", id), "{}", "banana"), 400, "If-Match");

    HttpResponse<String> inc =
        send("POST", doc("blog", id) + "/_increment", "{\"field\":\"views\",\"by\":2}", null);
    assertThat(json(inc).get("value").asLong()).isEqualTo(5);
    assertError(
        send("POST", doc("blog", id) + "/_increment", "{\"field\":\"title\"}", null), 400, "field");

    assertError(send("DELETE", doc("blog", id), null, v2), 412, null);
    assertThat(send("DELETE", doc("blog", id), null, null).statusCode()).isEqualTo(204);
    assertError(send("GET", doc("blog", id), null, null), 404, null);
    assertError(send("DELETE", doc("blog", id), null, null), 404, null);
  }

  @Test
  void typesBulkCommentsAndSourceListingOverHttp() throws Exception {
    assertThat(json(send("GET", base + "_types", null, null)).get("types").size())
        .isGreaterThanOrEqualTo(4);
    assertThat(
            json(send("GET", base + "_types/comment", null, null)).get("parents").get(0).asText())
        .isEqualTo("blog");
    String type = "t_" + run.replace('-', '_');
    String decl = "{\"fields\":[{\"name\":\"title\",\"kind\":\"text\",\"family\":\"bi\"}]}";
    assertThat(send("PUT", base + "_types/" + type, decl, null).statusCode()).isEqualTo(200);
    assertThat(
            json(send("GET", base + "_types/" + type, null, null))
                .get("fields")
                .get(0)
                .get("kind")
                .asText())
        .isEqualTo("TEXT");
    assertError(
        send(
            "PUT",
            base + "_types/" + type,
            "{\"fields\":[{\"name\":\"title\",\"kind\":\"long\",\"family\":\"BI\"}]}",
            null),
        409,
        null);
    assertError(
        send(
            "PUT",
            base + "_types/" + type,
            "{\"fields\":[{\"name\":\"title\",\"kind\":\"blob\",\"family\":\"BI\"}]}",
            null),
        400,
        "fields[0].kind");
    assertError(send("GET", base + "_types/nosuch", null, null), 400, "type");

    String parent = url("thread");
    StringBuilder bulk = new StringBuilder();
    bulk.append("{\"index\":{\"_index\":\"bbs\",\"_id\":\"").append(parent).append("\"}}\n");
    bulk.append("{\"title\":\"t\",\"url\":\"")
        .append(parent)
        .append("\",\"created\":\"2026-09-03T01:00:00Z\"}\n");
    for (int i = 0; i < 3; i++) {
      bulk.append("{\"index\":{\"_index\":\"comment\",\"_id\":\"c")
          .append(i)
          .append("\",\"parent\":{\"type\":\"bbs\",\"id\":\"")
          .append(parent)
          .append("\"}}}\n");
      bulk.append("{\"content\":\"回复")
          .append(i)
          .append("\",\"created\":")
          .append(1_789_000_000_000L + i)
          .append("}\n");
    }
    bulk.append("{\"index\":{\"_index\":\"bbs\"}}\n{\"title\":1}\n");
    JsonNode result = json(send("POST", base + "_bulk", bulk.toString(), null));
    assertThat(result.get("errors").asBoolean()).isTrue();
    assertThat(result.get("items")).hasSize(5);
    assertThat(result.get("items").get(4).get("field").asText()).isEqualTo("title");

    HttpResponse<String> posted =
        send("POST", doc("bbs", parent) + "/comments?cid=last", "{\"content\":\"最新\"}", null);
    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);
    String commentId = Json.mapper().readTree(posted.body()).get("id").asText();
    assertThat(
            json(send("GET", doc("comment", commentId), null, null))
                .get("parent")
                .get("id")
                .asText())
        .isEqualTo(parent);
    JsonNode newest = json(send("GET", doc("bbs", parent) + "/comments?limit=2", null, null));
    assertThat(newest.get("documents").get(0).get("id").asText()).isEqualTo(commentId);
    JsonNode oldest =
        json(send("GET", doc("bbs", parent) + "/comments?order=oldest&limit=2", null, null));
    assertThat(oldest.get("documents").get(0).get("fields").get("content").asText())
        .isEqualTo("回复0");
    assertError(
        send("GET", doc("bbs", parent) + "/comments?order=sideways", null, null), 400, "order");
    assertError(send("GET", doc("bbs", url("none")) + "/comments", null, null), 404, null);
    assertError(
        send("POST", doc("news", url("n")) + "/comments", "{\"content\":\"x\"}", null),
        400,
        "type");

    JsonNode listed =
        json(send("GET", base + "bbs?source=" + run + ".example.com&day=2026-09-03", null, null));
    assertThat(listed.get("documents")).hasSize(1);
    assertError(
        send("GET", base + "bbs?source=" + run + ".example.com&day=yesterday", null, null),
        400,
        "day");
    assertError(send("GET", base + "bbs?day=2026-09-03", null, null), 400, "source");
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    String id = url("bad");
    assertError(
        send("PUT", doc("blog", id), "{\"title\":\"t\",\"colour\":\"red\"}", null), 400, "colour");
    assertError(send("PUT", doc("blog", id), "{\"views\":\"many\"}", null), 400, "views");
    assertError(send("PUT", doc("blog", id), "{\"tags\":[\"a\",7]}", null), 400, "tags[1]");
    assertError(send("PUT", doc("blog", id), "{\"created\":\"yesterday\"}", null), 400, "created");
    assertError(
        send("PUT", doc("blog", id), "{\"content\":\"" + "x".repeat(65_537) + "\"}", null),
        400,
        "content");
    assertError(
        send("PUT", doc("blog", id), "{\"url\":\"not a url\",\"created\":1}", null), 400, "url");
    assertError(send("PUT", doc("nosuch", id), "{\"title\":\"t\"}", null), 400, "type");
    assertError(send("PUT", doc("blog", id), "[1]", null), 400, "body");
    assertError(send("PUT", doc("blog", id), "{\"title\":\"a\"} x", null), 400, "body");
    assertError(send("GET", doc("comment", "no-colons"), null, null), 400, "id");
    assertError(send("GET", doc("blog", "x".repeat(2049)), null, null), 400, "id");
    assertError(send("PATCH", doc("blog", url("missing")), "{\"title\":\"t\"}", null), 404, null);
  }

  @Test
  void listingsPageUpToAThousandAndRefuseMoreOrTamperedCursors() throws Exception {
    String parent = url("p");
    String body =
        "{\"title\":\"t\",\"url\":\"" + parent + "\",\"created\":\"2026-09-04T01:00:00Z\"}";
    send("PUT", doc("blog", parent), body, null);
    send("PUT", doc("blog", url("q")), body.replace("/p\"", "/q\""), null);
    send("POST", doc("blog", parent) + "/comments", "{\"content\":\"1\"}", null);
    send("POST", doc("blog", parent) + "/comments", "{\"content\":\"2\"}", null);
    record Listing(String path) {}
    List<Listing> listings =
        List.of(
            new Listing(doc("blog", parent) + "/comments?order=newest"),
            new Listing(doc("blog", parent) + "/comments?order=oldest"),
            new Listing(base + "blog?source=" + run + ".example.com&day=2026-09-04"));
    for (Listing l : listings) {
      assertThat(json(send("GET", l.path() + "&limit=1000", null, null)).get("documents"))
          .as(l.path())
          .hasSize(2);
      assertError(send("GET", l.path() + "&limit=1001", null, null), 400, "limit");
      JsonNode first = json(send("GET", l.path() + "&limit=1", null, null));
      assertThat(first.get("documents")).hasSize(1);
      String next = first.get("next").asText();
      JsonNode second = json(send("GET", l.path() + "&limit=1&cursor=" + enc(next), null, null));
      assertThat(second.get("documents")).hasSize(1);
      assertThat(second.get("documents").get(0)).isNotEqualTo(first.get("documents").get(0));
      assertThat(second.get("next").isNull()).isTrue();
      int i = next.length() / 2;
      String tampered =
          next.substring(0, i) + (next.charAt(i) == 'A' ? 'B' : 'A') + next.substring(i + 1);
      assertError(
          send("GET", l.path() + "&limit=1&cursor=" + enc(tampered), null, null), 400, "cursor");
    }
    String newestCursor =
        json(send("GET", listings.get(0).path() + "&limit=1", null, null)).get("next").asText();
    assertError(
        send("GET", listings.get(1).path() + "&cursor=" + enc(newestCursor), null, null),
        400,
        "cursor");
  }

  @Test
  void writesNeedTheToken() throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(doc("blog", url("t"))))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"title\":\"t\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    assertError(send("GET", doc("blog", url("t")), null, null), 404, null);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private HttpResponse<String> send(String method, String url, String body, String ifMatch)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", "Bearer " + TOKEN)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (ifMatch != null) {
      b.header("If-Match", ifMatch);
    }
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
    if (field != null) {
      assertThat(body.get("field").asText()).as(r.body()).isEqualTo(field);
    }
  }
}
