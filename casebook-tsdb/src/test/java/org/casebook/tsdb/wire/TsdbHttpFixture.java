package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.ServedSystem;
import org.casebook.tsdb.TsdbSystem;

/**
 * The time-series system started as the server starts it (its tables, its telnet listener on a free
 * port, its routes on an HTTP server), and a client for the HTTP tests.
 */
final class TsdbHttpFixture implements AutoCloseable {
  private final HttpClient client = HttpClient.newHttpClient();
  private final ServedSystem served;
  private final String base;
  private final InetSocketAddress telnet;

  TsdbHttpFixture(HBaseRuntime runtime) {
    this(runtime, AccessRule.open(), java.util.Map.of());
  }

  /** With {@code access} guarding writes and {@code settings} ({@code tsdb.<name>} → value). */
  TsdbHttpFixture(HBaseRuntime runtime, AccessRule access, java.util.Map<String, String> settings) {
    served = ServedSystem.start(runtime, new TsdbSystem(), access, settings);
    telnet = served.listeners().get(0).address();
    base = served.url("");
  }

  InetSocketAddress telnet() {
    return telnet;
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return send(method, path, body, null);
  }

  /** As {@link #send(String, String, String)}, with {@code Authorization: Bearer token} if set. */
  HttpResponse<String> send(String method, String path, String body, String token)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** A raw body with the given headers (a compressed put, say). */
  HttpResponse<String> sendBytes(
      String method, String path, byte[] body, java.util.Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** The body of a 200 answer as JSON. */
  static JsonNode json(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    served.close();
  }
}
