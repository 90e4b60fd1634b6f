package org.casebook.core.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;

/** A parsed request: method, path parameters, query parameters and the raw body. */
public final class HttpRequest {
  private final String method;
  private final String path;
  private final Map<String, String> pathParams;
  private final Map<String, List<String>> query;
  private final byte[] body;

  HttpRequest(String method, String path, Map<String, String> pathParams, Map<String, List<String>> query, byte[] body) {
    this.method = method;
    this.path = path;
    this.pathParams = Map.copyOf(pathParams);
    this.query = query;
    this.body = body;
  }

  public String method() {
    return method;
  }

  public String path() {
    return path;
  }

  public String pathParam(String name) {
    String v = pathParams.get(name);
    if (v == null) {
      throw new IllegalStateException("route has no path parameter {" + name + "}");
    }
    return v;
  }

  public Optional<String> query(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(values.size() - 1));
  }

  /** An integer query parameter in {@code [min, max]}, or the default when absent. */
  public int queryInt(String name, int defaultValue, int min, int max) {
    Optional<String> raw = query(name);
    if (raw.isEmpty()) {
      return defaultValue;
    }
    try {
      int v = Integer.parseInt(raw.get().trim());
      InvalidInputException.check(v >= min && v <= max, name, name + " must be between " + min + " and " + max);
      return v;
    } catch (NumberFormatException e) {
      throw new InvalidInputException(name, name + " must be an integer, got '" + raw.get() + "'");
    }
  }

  public byte[] body() {
    return body.clone();
  }

  /** The body as a JSON object; a missing or malformed body is a 400 naming {@code body}. */
  public JsonNode jsonObject() {
    InvalidInputException.check(body.length > 0, "body", "request body is empty; a JSON object is required");
    try {
      JsonNode node = Json.mapper().readTree(body);
      InvalidInputException.check(node != null && node.isObject(), "body", "request body must be a JSON object");
      return node;
    } catch (JsonProcessingException e) {
      throw new InvalidInputException("body", "request body is not valid JSON: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new InvalidInputException("body", "request body could not be read: " + e.getMessage());
    }
  }

  /** A required string field of the JSON body. */
  public static String requiredText(JsonNode object, String field) {
    Objects.requireNonNull(object, "object is null");
    JsonNode v = object.get(field);
    InvalidInputException.check(v != null && !v.isNull(), field, "'" + field + "' is required");
    InvalidInputException.check(v.isTextual(), field, "'" + field + "' must be a string");
    return v.asText();
  }

  static Map<String, List<String>> parseQuery(String raw) {
    Map<String, List<String>> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = decodeQuery(eq < 0 ? pair : pair.substring(0, eq));
      String v = eq < 0 ? "" : decodeQuery(pair.substring(eq + 1));
      out.computeIfAbsent(k, x -> new java.util.ArrayList<>()).add(v);
    }
    return out;
  }

  /** A path segment: '+' is literal there, unlike in a query string. */
  static String decodePath(String s) {
    return decode(s.replace("+", "%2B"), "path");
  }

  static String decodeQuery(String s) {
    return decode(s, "query");
  }

  private static String decode(String s, String field) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(field, "bad percent-encoding in '" + s + "'");
    }
  }
}
