package org.casebook.core.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenAPI 3.0 description built from route specs, so it cannot drift from what is served: each
 * {@link Section} (a system, or the platform) becomes a tag, each route an operation with its path
 * parameters, the {@code limit}/{@code cursor} pair of paged routes, the JSON error body of every
 * failure, and the bearer token on writes.
 */
public final class OpenApi {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^/{}]+)}");

  /** One tag: a system (or the platform) and the routes it serves. */
  public record Section(String name, String summary, List<RouteSpec> routes) {
    public Section {
      Objects.requireNonNull(name, "name is null");
      Objects.requireNonNull(summary, "summary is null");
      routes = List.copyOf(routes);
    }
  }

  private OpenApi() {}

  /** The document, as maps and lists ready for the JSON mapper. */
  public static Map<String, Object> document(String title, String version, List<Section> sections) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.0.3");
    doc.put(
        "info",
        Map.of(
            "title",
            title,
            "version",
            version,
            "description",
            "Reads are open; when the server has a token, writes need it in an 'Authorization:"
                + " Bearer' header. Every failure answers a JSON error body."));
    List<Map<String, Object>> tags = new ArrayList<>();
    Map<String, Map<String, Object>> paths = new TreeMap<>();
    for (Section s : sections) {
      tags.add(Map.of("name", s.name(), "description", s.summary()));
      for (RouteSpec r : s.routes()) {
        Map<String, Object> item = paths.computeIfAbsent(r.pattern(), p -> new LinkedHashMap<>());
        item.put(r.method().toLowerCase(Locale.ROOT), operation(s.name(), r));
      }
    }
    doc.put("tags", tags);
    doc.put("paths", paths);
    doc.put("components", components());
    return doc;
  }

  private static Map<String, Object> operation(String tag, RouteSpec r) {
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("tags", List.of(tag));
    op.put("summary", r.summary().isEmpty() ? r.method() + " " + r.pattern() : r.summary());
    op.put("operationId", operationId(tag, r));
    List<Object> params = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(r.pattern());
    while (m.find()) {
      params.add(
          Map.of(
              "name",
              m.group(1),
              "in",
              "path",
              "required",
              true,
              "description",
              "one path segment; percent-encode a '/' inside it as %2F",
              "schema",
              Map.of("type", "string")));
    }
    if (r.paged()) {
      params.add(Map.of("$ref", "#/components/parameters/limit"));
      params.add(Map.of("$ref", "#/components/parameters/cursor"));
    }
    if (!params.isEmpty()) {
      op.put("parameters", params);
    }
    if (!r.method().equals("GET") && !r.method().equals("DELETE")) {
      op.put(
          "requestBody",
          Map.of(
              "required",
              false,
              "content",
              Map.of("*/*", Map.of("schema", Map.of("type", "string", "format", "binary")))));
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    responses.put(
        "200", Map.of("description", "the answer (JSON unless the route says otherwise)"));
    responses.put("400", Map.of("$ref", "#/components/responses/invalid"));
    responses.put("404", Map.of("$ref", "#/components/responses/notFound"));
    // Any route may need a token: reads of a system can be closed to anonymous callers.
    responses.put("401", Map.of("$ref", "#/components/responses/unauthorized"));
    responses.put("403", Map.of("$ref", "#/components/responses/forbidden"));
    op.put("security", List.of(Map.of("token", List.of()), Map.of()));
    op.put("x-casebook-action", r.action().label());
    op.put("responses", responses);
    return op;
  }

  /** Unique per method and path: {@code tag_method_path_words}. */
  static String operationId(String tag, RouteSpec r) {
    String words =
        r.pattern().replaceAll("[{}]", "").replaceAll("[^A-Za-z0-9]+", "_").replaceAll("^_|_$", "");
    return tag + "_" + r.method().toLowerCase(Locale.ROOT) + "_" + words;
  }

  private static Map<String, Object> components() {
    Map<String, Object> error =
        Map.of(
            "type",
            "object",
            "required",
            List.of("error", "kind"),
            "properties",
            Map.of(
                "error", Map.of("type", "string", "description", "what went wrong"),
                "kind",
                    Map.of(
                        "type",
                        "string",
                        "description",
                        "invalid_input, not_found, conflict, unauthorized, …"),
                "field",
                    Map.of("type", "string", "description", "the input at fault, when one is")));
    Map<String, Object> errorContent =
        Map.of("application/json", Map.of("schema", Map.of("$ref", "#/components/schemas/Error")));
    return Map.of(
        "schemas",
        Map.of("Error", error),
        "responses",
        Map.of(
            "invalid",
            Map.of("description", "bad input; 'field' names it", "content", errorContent),
            "notFound",
            Map.of("description", "no such thing", "content", errorContent),
            "unauthorized",
            Map.of(
                "description",
                "no token, or an unknown one, where the route's action needs one",
                "content",
                errorContent),
            "forbidden",
            Map.of(
                "description",
                "the token's principal has no grant for the route's action (x-casebook-action)",
                "content",
                errorContent)),
        "parameters",
        Map.of(
            "limit",
            Map.of(
                "name",
                "limit",
                "in",
                "query",
                "required",
                false,
                "description",
                "items per page",
                "schema",
                Map.of("type", "integer", "minimum", 1)),
            "cursor",
            Map.of(
                "name",
                "cursor",
                "in",
                "query",
                "required",
                false,
                "description",
                "the 'next' cursor of the previous page",
                "schema",
                Map.of("type", "string"))),
        "securitySchemes",
        Map.of("token", Map.of("type", "http", "scheme", "bearer")));
  }
}
