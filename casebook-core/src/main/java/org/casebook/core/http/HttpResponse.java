package org.casebook.core.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.casebook.core.ErrorKind;
import org.casebook.core.Json;
import org.casebook.core.access.Action;

/**
 * A status, a content type, extra headers and a body. JSON bodies are serialised with the shared
 * mapper. Immutable: the body is copied in and out.
 */
public final class HttpResponse {
  private static final String JSON = "application/json; charset=utf-8";
  private final int status;
  private final String contentType;
  private final byte[] body;
  private final Map<String, String> headers;

  public HttpResponse(int status, String contentType, byte[] body, Map<String, String> headers) {
    this.status = status;
    this.contentType = java.util.Objects.requireNonNull(contentType, "contentType is null");
    this.body = body.clone();
    this.headers = Map.copyOf(headers);
  }

  public HttpResponse(int status, String contentType, byte[] body) {
    this(status, contentType, body, Map.of());
  }

  public int status() {
    return status;
  }

  public String contentType() {
    return contentType;
  }

  public byte[] body() {
    return body.clone();
  }

  /** The body without a copy, for the server that writes it (it never changes the bytes). */
  byte[] bodyBytes() {
    return body;
  }

  public Map<String, String> headers() {
    return headers;
  }

  public static HttpResponse json(int status, Object body) {
    return new HttpResponse(status, JSON, Json.writeBytes(body));
  }

  public static HttpResponse ok(Object body) {
    return json(200, body);
  }

  public static HttpResponse created(Object body) {
    return json(201, body);
  }

  public static HttpResponse accepted(Object body) {
    return json(202, body);
  }

  public static HttpResponse noContent() {
    return new HttpResponse(204, JSON, new byte[0]);
  }

  public static HttpResponse text(int status, String contentType, String body) {
    return new HttpResponse(status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  /** The same response with one more header. */
  public HttpResponse withHeader(String name, String value) {
    Map<String, String> h = new java.util.LinkedHashMap<>(headers);
    h.put(name, value);
    return new HttpResponse(status, contentType, body, h);
  }

  /** The JSON error body every failure gets: {@code {"error", "kind", "field"?}}. */
  public record ErrorBody(
      String error,
      String kind,
      @com.fasterxml.jackson.annotation.JsonInclude(
              com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
          String field) {}

  /** Seconds a client is asked to wait before it tries a 503 again (the server adds the header). */
  public static final int RETRY_AFTER_SECONDS = 5;

  public static HttpResponse error(ErrorKind kind, String message, String field) {
    return json(kind.httpStatus(), new ErrorBody(message, kind.code(), field));
  }

  /** 401: the request needs credentials it did not present, or presented unknown ones. */
  public static HttpResponse needsToken() {
    return error(401, "this endpoint needs 'Authorization: Bearer <token>'", null)
        .withHeader("WWW-Authenticate", "Bearer");
  }

  /**
   * The refusal of a request its caller may not make: 401 without credentials (they may have some),
   * 403 with them.
   */
  public static HttpResponse refused(HttpRequest request, Action action) {
    if (!request.caller().authenticated()) {
      return needsToken();
    }
    return error(
        403,
        request.caller().name() + " may not " + action.label() + " on " + request.system(),
        null);
  }

  /** An error with a status that no {@link ErrorKind} has (401, 405, 413 …). */
  public static HttpResponse error(int status, String message, String field) {
    String kind =
        switch (status) {
          case 401 -> "unauthorized";
          case 403 -> "forbidden";
          case 404 -> "not_found";
          case 405 -> "method_not_allowed";
          case 413 -> "too_large";
          case 414 -> "uri_too_long";
          case 431 -> "headers_too_large";
          default -> status >= 500 ? "internal" : "invalid_input";
        };
    return json(status, new ErrorBody(message, kind, field));
  }
}
