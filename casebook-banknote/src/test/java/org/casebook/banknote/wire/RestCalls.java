package org.casebook.banknote.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.casebook.core.Json;

/** The REST calls and checks the banknote route tests share. */
final class RestCalls {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private RestCalls() {}

  static HttpResponse<String> send(String method, String url, String body) throws Exception {
    return send(method, url, body, null);
  }

  /** {@code body} null sends none; {@code token} null sends no Authorization header. */
  static HttpResponse<String> send(String method, String url, String body, String token)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A 400 naming {@code field}. */
  static void assertField(HttpResponse<String> r, String field) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(Json.mapper().readTree(r.body()).get("field").asText())
        .as(r.body())
        .isEqualTo(field);
  }

  /** The body of a success. */
  static JsonNode json(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isLessThan(300);
    return Json.mapper().readTree(r.body());
  }
}
