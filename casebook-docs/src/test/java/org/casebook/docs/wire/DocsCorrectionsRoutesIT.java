package org.casebook.docs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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

/**
 * Corrections over HTTP: a PATCH with If-Match and {@code ?editor=} marks the field, a bulk
 * re-crawl keeps it, {@code GET …/history} pages both sides' changes, {@code DELETE
 * …/corrections/{field}} drops it; bad input is a 4xx naming the field.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsCorrectionsRoutesIT {
  private static final String TOKEN = "s3cret";
  private final HttpClient client = HttpClient.newHttpClient();
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new DocsSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/docs/");
    run = TestIds.unique("fixh");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private String doc(String id) {
    return base + "blog/" + enc(id);
  }

  private String page(String id, String title, String content) {
    return "{\"title\":\""
        + title
        + "\",\"content\":\""
        + content
        + "\",\"url\":\""
        + id
        + "\",\"created\":\"2026-09-10T08:00:00Z\",\"views\":3}";
  }

  private JsonNode bulkIndex(String id, String document) throws Exception {
    String lines =
        "{\"index\":{\"_index\":\"blog\",\"_id\":" + Json.write(id) + "}}\n" + document + "\n";
    JsonNode r = json(send("POST", base + "_bulk", lines, null));
    assertThat(r.get("errors").asBoolean()).as(r.toString()).isFalse();
    return r.get("items").get(0);
  }

  @Test
  void historyAndCorrectionsOverHttp() throws Exception {
    String id = "https://" + run + ".example.com/p/1";
    bulkIndex(id, page(id, "Crawled", "one"));
    HttpResponse<String> read = send("GET", doc(id), null, null);
    String etag = read.headers().firstValue("ETag").orElseThrow();
    assertThat(json(read).has("corrected")).as("nothing corrected: no such member").isFalse();

    HttpResponse<String> fixed =
        send("PATCH", doc(id) + "?editor=" + enc("王 编辑"), "{\"title\":\"Fixed\"}", etag);
    JsonNode edited = json(fixed);
    assertThat(edited.get("corrected").get("title").get("by").asText()).isEqualTo("王 编辑");
    assertThat(edited.get("corrected").get("title").get("at").asText()).endsWith("Z");

    long crawled = bulkIndex(id, page(id, "Crawled again", "two")).get("version").asLong();
    JsonNode now = json(send("GET", doc(id), null, null));
    assertThat(now.get("fields").get("title").asText()).isEqualTo("Fixed");
    assertThat(now.get("fields").get("content").asText()).isEqualTo("two");
    assertThat(now.get("version").asLong()).isEqualTo(crawled);

    JsonNode history = json(send("GET", doc(id) + "/history", null, null));
    assertThat(history.get("corrected").has("title")).isTrue();
    JsonNode entries = history.get("entries");
    assertThat(entries).hasSize(2);
    assertThat(entries.get(0).get("side").asText()).isEqualTo("crawl");
    assertThat(entries.get(0).get("version").asLong()).isEqualTo(crawled);
    assertThat(entries.get(1).get("side").asText()).isEqualTo("person");
    assertThat(entries.get(1).get("by").asText()).isEqualTo("王 编辑");
    JsonNode change = entries.get(1).get("changes").get(0);
    assertThat(change.get("field").asText()).isEqualTo("title");
    assertThat(change.get("before").asText()).isEqualTo("Crawled");
    assertThat(change.get("after").asText()).isEqualTo("Fixed");
    assertThat(history.get("next").isNull()).isTrue();

    // Pages: limit 1, then the cursor; limits outside 1..1000 and foreign cursors are 400s.
    JsonNode first = json(send("GET", doc(id) + "/history?limit=1", null, null));
    assertThat(first.get("entries")).hasSize(1);
    JsonNode second =
        json(
            send(
                "GET",
                doc(id) + "/history?limit=1&cursor=" + enc(first.get("next").asText()),
                null,
                null));
    assertThat(second.get("entries").get(0)).isEqualTo(entries.get(1));
    assertThat(second.get("next").isNull()).isTrue();
    assertThat(json(send("GET", doc(id) + "/history?limit=1000", null, null)).get("entries"))
        .hasSize(2);
    assertError(send("GET", doc(id) + "/history?limit=1001", null, null), 400, "limit");
    assertError(send("GET", doc(id) + "/history?limit=0", null, null), 400, "limit");
    String other = json(send("PUT", doc(id + "/c"), "{\"title\":\"t\"}", null)).get("id").asText();
    json(send("POST", doc(other) + "/comments", "{\"content\":\"1\"}", null));
    json(send("POST", doc(other) + "/comments", "{\"content\":\"2\"}", null));
    String foreign =
        json(send("GET", doc(other) + "/comments?limit=1", null, null)).get("next").asText();
    assertError(
        send("GET", doc(id) + "/history?cursor=" + enc(foreign), null, null), 400, "cursor");
    assertError(send("GET", doc(id + "/missing") + "/history", null, null), 404, null);

    // An editor without If-Match is refused: it names the person of an edit over a version read.
    assertError(send("PATCH", doc(id) + "?editor=ann", "{\"title\":\"x\"}", null), 400, "editor");
    assertError(send("PUT", doc(id) + "?editor=ann", page(id, "x", "y"), null), 400, "editor");
    String current = "\"" + crawled + "\"";
    assertError(
        send("PATCH", doc(id) + "?editor=" + enc("a\tb"), "{\"title\":\"x\"}", current),
        400,
        "editor");

    // Dropping: an unknown field is a 400, a field not corrected a 404, a stale If-Match a 412.
    assertError(send("DELETE", doc(id) + "/corrections/nosuch", null, null), 400, "field");
    assertError(send("DELETE", doc(id) + "/corrections/content", null, null), 404, null);
    assertError(send("DELETE", doc(id) + "/corrections/title", null, etag), 412, null);
    HttpResponse<String> dropped =
        send("DELETE", doc(id) + "/corrections/title?editor=ann", null, current);
    JsonNode afterDrop = json(dropped);
    assertThat(dropped.headers().firstValue("ETag"))
        .contains("\"" + afterDrop.get("version").asLong() + "\"");
    assertThat(afterDrop.has("corrected")).isFalse();
    assertThat(afterDrop.get("fields").get("title").asText()).isEqualTo("Fixed");
    assertError(send("DELETE", doc(id) + "/corrections/title", null, null), 404, null);

    bulkIndex(id, page(id, "Crawled third", "three"));
    assertThat(json(send("GET", doc(id), null, null)).get("fields").get("title").asText())
        .isEqualTo("Crawled third");
    JsonNode last = json(send("GET", doc(id) + "/history", null, null)).get("entries");
    assertThat(last).hasSize(4);
    assertThat(last.get(1).get("dropped").get(0).asText()).isEqualTo("title");
    assertThat(last.get(1).get("by").asText()).isEqualTo("ann");

    // Deleting the document deletes its history.
    assertThat(send("DELETE", doc(id), null, null).statusCode()).isEqualTo(204);
    assertError(send("GET", doc(id) + "/history", null, null), 404, null);
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
    assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
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
