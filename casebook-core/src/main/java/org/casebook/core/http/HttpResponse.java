package org.casebook.core.http;

import java.nio.charset.StandardCharsets;
import org.casebook.core.Json;

/** A status, a content type and a body. JSON bodies are serialised with the shared mapper. */
public record HttpResponse(int status, String contentType, byte[] body) {
  private static final String JSON = "application/json; charset=utf-8";

  public static HttpResponse json(int status, Object body) {
    return new HttpResponse(status, JSON, Json.write(body).getBytes(StandardCharsets.UTF_8));
  }

  public static HttpResponse ok(Object body) {
    return json(200, body);
  }

  public static HttpResponse created(Object body) {
    return json(201, body);
  }

  public static HttpResponse noContent() {
    return new HttpResponse(204, JSON, new byte[0]);
  }

  public static HttpResponse text(int status, String contentType, String body) {
    return new HttpResponse(status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code {"error": message, "field": field}}; field may be null. */
  public static HttpResponse error(int status, String message, String field) {
    java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("error", message);
    if (field != null) {
      body.put("field", field);
    }
    return json(status, body);
  }
}
