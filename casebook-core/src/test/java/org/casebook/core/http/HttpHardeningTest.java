package org.casebook.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.casebook.core.AccessRule;
import org.casebook.core.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slow, stalled and hostile clients, on raw sockets: they are dropped while others are served, and
 * every answer — a malformed request's too — is a JSON error, never HTML, never a 5xx for the
 * client's mistakes.
 */
class HttpHardeningTest {
  record Echo(String text) {}

  private static final RouteTable<String> ROUTES =
      RouteTable.<String>builder()
          .get(
              "/api/h/items/{id}",
              "one item",
              (s, req) -> HttpResponse.ok(Map.of("id", req.pathParam("id"))))
          .list(
              "/api/h/items",
              "items",
              (s, req) -> HttpResponse.ok(Map.of("limit", req.page(10).limit())))
          .post("/api/h/echo", "echo", (s, req) -> HttpResponse.ok(req.body(Echo.class)))
          .build();

  private HttpApiServer server;

  @BeforeEach
  void start() {
    HttpApiServer.Limits limits =
        new HttpApiServer.Limits(
            40, Duration.ofSeconds(2), Duration.ofSeconds(5), 8 * 1024, 16 * 1024, 64 * 1024);
    server =
        new HttpApiServer("127.0.0.1", 0, AccessRule.open(), 4, new SimpleMeterRegistry(), limits);
    ROUTES.bind("").forEach(server::add);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** A raw exchange: status code and body of the first response. */
  record Raw(int status, String body, String headers) {
    JsonNode json() throws IOException {
      return Json.mapper().readTree(body);
    }
  }

  private Raw exchange(byte[] request) throws IOException {
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request);
      s.getOutputStream().flush();
      return read(s.getInputStream());
    }
  }

  private static Raw read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    int matched = 0;
    while (matched < 4 && (b = in.read()) != -1) {
      head.write(b);
      matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
    }
    String headers = head.toString(StandardCharsets.ISO_8859_1);
    if (headers.isEmpty()) {
      return new Raw(-1, "", "");
    }
    int status =
        Integer.parseInt(headers.substring(headers.indexOf(' ') + 1, headers.indexOf(' ') + 4));
    int length = 0;
    for (String line : headers.split("\r\n", -1)) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    return new Raw(status, new String(body, StandardCharsets.UTF_8), headers);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void stalledClientsDoNotStopOthersAndAreDropped() throws Exception {
    List<Socket> stalled = new ArrayList<>();
    try {
      for (int i = 0; i < 16; i++) {
        Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), server.port());
        s.getOutputStream()
            .write(
                bytes(
                    i % 2 == 0
                        ? "GET /api/h/ite"
                        : "POST /api/h/echo HTTP/1.1\r\nHost: x\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n5\r\nhel"));
        s.getOutputStream().flush();
        stalled.add(s);
      }
      long t0 = System.nanoTime();
      Raw ok =
          exchange(bytes("GET /api/h/items/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
      assertThat(ok.status()).isEqualTo(200);
      assertThat((System.nanoTime() - t0) / 1e9)
          .as("seconds a normal client waited")
          .isLessThan(1.0);
      for (Socket s : stalled) {
        s.setSoTimeout(10_000);
        Raw dropped = read(s.getInputStream());
        // A request that started gets a 408; one still in its request line may just be closed.
        assertThat(dropped.status()).isIn(408, -1);
        if (dropped.status() == 408) {
          assertThat(dropped.json().get("kind").asText()).isNotEmpty();
        }
        assertThat(s.getInputStream().read()).as("connection closed").isEqualTo(-1);
      }
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
  }

  @Test
  void limitsAnswerWithTheirStatusInJson() throws Exception {
    Raw longLine =
        exchange(bytes("GET /api/h/items/" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"));
    assertThat(longLine.status()).isEqualTo(414);
    assertThat(longLine.json().get("error").asText()).contains("request line");
    Raw bigHeaders =
        exchange(
            bytes(
                "GET /api/h/items/a HTTP/1.1\r\nHost: x\r\nX-Big: "
                    + "y".repeat(20_000)
                    + "\r\n\r\n"));
    assertThat(bigHeaders.status()).isEqualTo(431);
    assertThat(bigHeaders.json()).isNotNull();
    String big = "{\"text\":\"" + "z".repeat(70_000) + "\"}";
    Raw bigBody =
        exchange(
            bytes(
                "POST /api/h/echo HTTP/1.1\r\nHost: x\r\nContent-Length: "
                    + big.length()
                    + "\r\n\r\n"
                    + big));
    assertThat(bigBody.status()).isEqualTo(413);
    assertThat(bigBody.json().get("field").asText()).isEqualTo("body");
  }

  @Test
  void badEscapesAndRawBytesAreJson400s() throws Exception {
    for (String target :
        List.of(
            "/api/h/items/%ZZ",
            "/api/h/items/%E7%94", "/api/h/items/a%", "/api/h/items?limit=%FF")) {
      Raw r =
          exchange(bytes("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
      assertThat(r.status()).as(target).isEqualTo(400);
      assertThat(r.json().get("kind").asText()).isEqualTo("invalid_input");
    }
    byte[] rawBytes =
        "GET /api/h/items/\u00e9\u00ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1);
    Raw r = exchange(rawBytes);
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("field").asText()).isEqualTo("id");
    Raw garbage = exchange(bytes("\u0001\u0002 nonsense\r\n\r\n"));
    assertThat(garbage.status()).isIn(400, -1);
  }

  @Test
  void connectionsPastTheCapAreTurnedAway() throws Exception {
    List<Socket> open = new ArrayList<>();
    try {
      for (int i = 0; i < 40; i++) {
        open.add(new Socket(java.net.InetAddress.getLoopbackAddress(), server.port()));
      }
      Thread.sleep(200);
      Raw refused = exchange(bytes("GET /api/h/items/a HTTP/1.1\r\nHost: x\r\n\r\n"));
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.json().get("error").asText()).contains("too many connections");
    } finally {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  /**
   * Random methods, paths, escapes, headers and bodies: never a 5xx, never a body that is not JSON.
   */
  @Test
  void fuzzedRequestsGetJsonAnswersAndNoServerError() throws Exception {
    Random random = new Random(20261123);
    String[] methods = {
      "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "BREW", "get", "G\u00e9T"
    };
    String[] pieces = {
      "/api",
      "/h",
      "/items",
      "/echo",
      "/%",
      "/%2",
      "/%2F",
      "/%ZZ",
      "/%C3%28",
      "/%E7%94%A8",
      "/..",
      "/\u00ff",
      "//",
      "/a b",
      "?limit=",
      "?limit=-1",
      "?limit=1001",
      "?limit=x",
      "?cursor=%%",
      "?cursor=AAAA",
      "&",
      "#frag",
      "/{x}",
      "/\u0000"
    };
    String[] bodies = {
      "",
      "{}",
      "{\"text\":1}",
      "{\"text\":\"a\",\"text\":\"b\"}",
      "{\"text\":\"a\"} x",
      "[",
      "\u00ff\u00fe",
      "{\"text\":\"" + "q".repeat(1000) + "\"}",
      "null"
    };
    int answered = 0;
    for (int i = 0; i < 300; i++) {
      StringBuilder path = new StringBuilder(random.nextInt(4) == 0 ? "" : "/api/h");
      int n = random.nextInt(4);
      for (int j = 0; j < n; j++) {
        path.append(pieces[random.nextInt(pieces.length)]);
      }
      String method = methods[random.nextInt(methods.length)];
      String body = bodies[random.nextInt(bodies.length)];
      StringBuilder req =
          new StringBuilder(method)
              .append(' ')
              .append(path.length() == 0 ? "/" : path)
              .append(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
      if (random.nextBoolean()) {
        req.append("Content-Type: ")
            .append(random.nextBoolean() ? "application/json" : "text/\u00ff")
            .append("\r\n");
      }
      if (random.nextInt(5) == 0) {
        req.append("Authorization: ")
            .append(random.nextBoolean() ? "Bearer" : "bEaReR x y")
            .append("\r\n");
      }
      req.append("Content-Length: ")
          .append(body.getBytes(StandardCharsets.ISO_8859_1).length)
          .append("\r\n\r\n")
          .append(body);
      Raw r = exchange(bytes(req.toString()));
      if (r.status() == -1) {
        continue;
      }
      answered++;
      assertThat(r.status()).as(req.toString()).isBetween(200, 499);
      if (!method.equals("HEAD") && r.status() != 204) {
        assertThat(r.headers())
            .as(req.toString())
            .containsIgnoringCase("content-type: application/json");
        assertThat(Json.mapper().readTree(r.body())).as(req.toString()).isNotNull();
      }
    }
    assertThat(answered).isGreaterThan(250);
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() throws Exception {
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(5000);
      StringBuilder burst = new StringBuilder();
      for (int i = 0; i < 30; i++) {
        burst.append("GET /api/h/items/p").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
      }
      s.getOutputStream().write(bytes(burst.toString()));
      s.getOutputStream().flush();
      for (int i = 0; i < 30; i++) {
        Raw r = read(s.getInputStream());
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("id").asText()).isEqualTo("p" + i);
      }
    }
  }

  @Test
  void keepAliveConnectionsServeManyRequests() throws Exception {
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      for (int i = 0; i < 50; i++) {
        out.write(bytes("GET /api/h/items/k" + i + " HTTP/1.1\r\nHost: x\r\n\r\n"));
        out.flush();
        Raw r = read(in);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("id").asText()).isEqualTo("k" + i);
      }
    }
  }
}
