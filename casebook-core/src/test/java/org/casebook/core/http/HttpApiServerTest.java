package org.casebook.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.StorageException;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The router and its error table, on a real socket: every answer is JSON, whatever went wrong. */
class HttpApiServerTest {
  record Greeting(String name, int times) {
    Greeting {
      org.casebook.core.InvalidInputException.check(times >= 1, "times", "times must be positive");
    }
  }

  record Items(List<Integer> items, String next) {}

  private static final RouteTable<String> ROUTES =
      RouteTable.<String>builder()
          .get(
              "/api/t/hello/{name}",
              "greets",
              (prefix, req) ->
                  HttpResponse.ok(java.util.Map.of("hello", prefix + req.pathParam("name"))))
          .post(
              "/api/t/hello",
              "greets from a body",
              (prefix, req) -> HttpResponse.created(req.body(Greeting.class)))
          .postQuery(
              "/api/t/search",
              "a read sent as POST",
              (prefix, req) -> HttpResponse.ok(req.body(Greeting.class)))
          .list(
              "/api/t/numbers",
              "pages 0..2499",
              (prefix, req) -> {
                PageRequest page = req.page(10);
                int from =
                    page.cursor()
                        .map(c -> Cursors.decode("t.numbers", c, r -> r.readInt()))
                        .orElse(0);
                List<Integer> fetched = new java.util.ArrayList<>();
                for (int i = from; i < Math.min(2500, from + page.fetchSize()); i++) {
                  fetched.add(i);
                }
                Page<Integer> p =
                    Page.of(
                        fetched,
                        page.limit(),
                        last ->
                            Cursors.encode(
                                "t.numbers",
                                org.casebook.core.key.KeyBuilder.create()
                                    .addInt(last + 1)
                                    .build()));
                return HttpResponse.ok(new Items(p.items(), p.nextOrNull()));
              })
          .get(
              "/api/t/missing",
              "404",
              (prefix, req) -> {
                throw new NotFoundException("nothing here");
              })
          .get(
              "/api/t/down",
              "503",
              (prefix, req) -> {
                throw StorageException.of("read", new java.io.IOException("region server gone"));
              })
          .get(
              "/api/t/bug",
              "500",
              (prefix, req) -> {
                throw new IllegalStateException("bug");
              })
          .build();

  private HttpApiServer server;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeEach
  void start() {
    server = new HttpApiServer("127.0.0.1", 0, AccessRule.token("s3cret"), 4, registry);
    ROUTES.bind("hi ").forEach(server::add);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private java.net.http.HttpResponse<String> send(
      String method, String path, String body, String auth) throws Exception {
    var b =
        java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(10))
            .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
    if (auth != null) {
      b.header("Authorization", auth);
    }
    return client.send(b.build(), BodyHandlers.ofString());
  }

  private static JsonNode json(java.net.http.HttpResponse<String> r) throws Exception {
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    return Json.mapper().readTree(r.body());
  }

  @Test
  void pathIdsArePercentDecodedStrictly() throws Exception {
    assertThat(
            json(send("GET", "/api/t/hello/a%2Fb%20%E7%94%A8", null, null)).get("hello").asText())
        .isEqualTo("hi a/b 用");
    var badUtf8 = send("GET", "/api/t/hello/%C3%28", null, null);
    assertThat(badUtf8.statusCode()).isEqualTo(400);
    assertThat(json(badUtf8).get("field").asText()).isEqualTo("name");
  }

  @Test
  void bodiesBindStrictly() throws Exception {
    String auth = "bearer s3cret";
    assertThat(send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":2}", auth).statusCode())
        .isEqualTo(201);
    var unknown = send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":2,\"extra\":1}", auth);
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(json(unknown).get("field").asText()).isEqualTo("extra");
    var duplicate =
        send("POST", "/api/t/hello", "{\"name\":\"x\",\"name\":\"y\",\"times\":2}", auth);
    assertThat(duplicate.statusCode()).isEqualTo(400);
    var trailing = send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":2} {}", auth);
    assertThat(trailing.statusCode()).isEqualTo(400);
    var wrongType = send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":\"many\"}", auth);
    assertThat(json(wrongType).get("field").asText()).isEqualTo("times");
    var numberAsText = send("POST", "/api/t/hello", "{\"name\":42,\"times\":2}", auth);
    assertThat(numberAsText.statusCode()).isEqualTo(400);
    assertThat(json(numberAsText).get("field").asText()).isEqualTo("name");
    var textAsNumber = send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":\"2\"}", auth);
    assertThat(json(textAsNumber).get("field").asText()).isEqualTo("times");
    var check = send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":0}", auth);
    assertThat(check.statusCode()).isEqualTo(400);
    assertThat(json(check).get("field").asText()).isEqualTo("times");
  }

  @Test
  void writesNeedTheTokenAndSayHow() throws Exception {
    var r = send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":1}", null);
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    assertThat(
            send("POST", "/api/t/hello", "{\"name\":\"x\",\"times\":1}", "Bearer wrong")
                .statusCode())
        .isEqualTo(401);
    assertThat(send("GET", "/api/t/hello/x", null, null).statusCode()).isEqualTo(200);
    assertThat(send("POST", "/api/t/search", "{\"name\":\"x\",\"times\":1}", null).statusCode())
        .as("a read sent as POST needs no token")
        .isEqualTo(200);
  }

  @Test
  void everyFailureIsAJsonErrorWithItsKind() throws Exception {
    var notFound = send("GET", "/api/t/missing", null, null);
    assertThat(notFound.statusCode()).isEqualTo(404);
    assertThat(json(notFound).get("kind").asText()).isEqualTo("not_found");
    var down = send("GET", "/api/t/down", null, null);
    assertThat(down.statusCode()).isEqualTo(503);
    assertThat(json(down).get("kind").asText()).isEqualTo("storage_unavailable");
    assertThat(down.headers().firstValue("Retry-After")).as("when to retry").hasValue("5");
    assertThat(notFound.headers().firstValue("Retry-After")).isEmpty();
    var bug = send("GET", "/api/t/bug", null, null);
    assertThat(bug.statusCode()).isEqualTo(500);
    assertThat(json(bug).get("error").asText()).isEqualTo("internal error: IllegalStateException");
    assertThat(send("GET", "/api/nothing", null, null).statusCode()).isEqualTo(404);
    var wrongMethod = send("DELETE", "/api/t/hello/x", null, "Bearer s3cret");
    assertThat(wrongMethod.statusCode()).isEqualTo(405);
    assertThat(wrongMethod.headers().firstValue("Allow")).hasValue("GET, HEAD");
    var head = send("HEAD", "/api/t/hello/x", null, null);
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void metricsAreLabelledOnlyByKnownMethodsAndRouteTemplates() throws Exception {
    send("GET", "/api/t/hello/alice", null, null);
    send("BREW", "/api/t/hello/bob", null, null);
    send("GET", "/api/no/such/path/" + "x".repeat(50), null, null);
    java.util.Set<String> methods = new java.util.HashSet<>();
    java.util.Set<String> routes = new java.util.HashSet<>();
    registry
        .getMeters()
        .forEach(
            m -> {
              methods.add(m.getId().getTag("method"));
              routes.add(m.getId().getTag("route"));
            });
    assertThat(methods).containsExactlyInAnyOrder("GET", "other");
    assertThat(routes).containsExactlyInAnyOrder("/api/t/hello/{name}", "unmatched");
  }

  @Test
  void listingsPageWithOneLimitRuleAndValidatedCursors() throws Exception {
    JsonNode first = json(send("GET", "/api/t/numbers?limit=1000", null, null));
    assertThat(first.get("items")).hasSize(1000);
    JsonNode second =
        json(
            send(
                "GET",
                "/api/t/numbers?limit=1000&cursor=" + first.get("next").asText(),
                null,
                null));
    assertThat(second.get("items").get(0).asInt()).isEqualTo(1000);
    var tooMany = send("GET", "/api/t/numbers?limit=1001", null, null);
    assertThat(tooMany.statusCode()).isEqualTo(400);
    assertThat(json(tooMany).get("field").asText()).isEqualTo("limit");
    assertThat(json(send("GET", "/api/t/numbers?limit=x", null, null)).get("field").asText())
        .isEqualTo("limit");
    String cursor = first.get("next").asText();
    String tampered =
        cursor.substring(0, cursor.length() - 2) + (cursor.endsWith("A") ? "BB" : "AA");
    var bad = send("GET", "/api/t/numbers?cursor=" + tampered, null, null);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(json(bad).get("field").asText()).isEqualTo("cursor");
    String otherListing =
        Cursors.encode("t.other", org.casebook.core.key.KeyBuilder.create().addInt(5).build());
    assertThat(
            json(send("GET", "/api/t/numbers?cursor=" + otherListing, null, null))
                .get("field")
                .asText())
        .isEqualTo("cursor");
  }
}
