package org.casebook.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.casebook.core.Json;
import org.junit.jupiter.api.Test;

class OpenApiTest {
  private static final List<OpenApi.Section> SECTIONS =
      List.of(
          new OpenApi.Section(
              "docs",
              "Documents",
              List.of(
                  new RouteSpec("GET", "/api/docs/{type}/{id}", "Read one document", false),
                  new RouteSpec("PUT", "/api/docs/{type}/{id}", "Write one document", false),
                  new RouteSpec("GET", "/api/docs/{type}", "List documents", true),
                  new RouteSpec(
                      "POST",
                      "/api/docs/_search",
                      "A query sent as POST",
                      false,
                      org.casebook.core.access.Action.READ))),
          new OpenApi.Section(
              "platform", "The server", List.of(new RouteSpec("GET", "/api/health", "", false))));

  private static JsonNode doc() {
    return Json.mapper().valueToTree(OpenApi.document("Casebook", "1", SECTIONS));
  }

  @Test
  void everyRouteIsAnOperationUnderItsSystemsTag() {
    JsonNode paths = doc().get("paths");
    for (OpenApi.Section s : SECTIONS) {
      for (RouteSpec r : s.routes()) {
        JsonNode op = paths.path(r.pattern()).path(r.method().toLowerCase(java.util.Locale.ROOT));
        assertThat(op.isMissingNode()).as(r.toString()).isFalse();
        assertThat(op.get("tags").get(0).asText()).isEqualTo(s.name());
      }
    }
    assertThat(paths.get("/api/health").get("get").get("summary").asText())
        .as("a route without a summary is still named")
        .isEqualTo("GET /api/health");
  }

  @Test
  void pathPlaceholdersBecomeRequiredPathParametersAndPagedRoutesTakeLimitAndCursor() {
    JsonNode get = doc().get("paths").get("/api/docs/{type}/{id}").get("get");
    assertThat(get.get("parameters"))
        .extracting(p -> p.get("name").asText() + "/" + p.get("in").asText())
        .containsExactly("type/path", "id/path");
    JsonNode list = doc().get("paths").get("/api/docs/{type}").get("get");
    assertThat(list.get("parameters"))
        .extracting(p -> p.path("$ref").asText(p.path("name").asText()))
        .containsExactly("type", "#/components/parameters/limit", "#/components/parameters/cursor");
  }

  @Test
  void everyOperationSaysTheActionItNeedsAReadSentAsPostIncluded() {
    JsonNode paths = doc().get("paths");
    JsonNode put = paths.get("/api/docs/{type}/{id}").get("put");
    assertThat(put.get("x-casebook-action").asText()).isEqualTo("write");
    assertThat(put.get("responses").has("401")).isTrue();
    assertThat(put.get("responses").has("403")).isTrue();
    assertThat(paths.get("/api/docs/{type}/{id}").get("get").get("x-casebook-action").asText())
        .isEqualTo("read");
    assertThat(paths.get("/api/docs/_search").get("post").get("x-casebook-action").asText())
        .isEqualTo("read");
    assertThat(put.get("security")).hasSize(2);
    assertThat(doc().at("/components/securitySchemes/token/scheme").asText()).isEqualTo("bearer");
  }

  @Test
  void operationIdsAreUnique() {
    Set<String> ids = new HashSet<>();
    doc()
        .get("paths")
        .forEach(
            item ->
                item.forEach(
                    op ->
                        assertThat(ids.add(op.get("operationId").asText()))
                            .as(op.get("operationId").asText())
                            .isTrue()));
    assertThat(ids).hasSize(5);
  }
}
