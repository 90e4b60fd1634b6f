package org.casebook.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.AccessRule;
import org.casebook.core.access.Action;
import org.casebook.core.access.AuditEntry;
import org.casebook.core.access.Principal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every route checked for the action it declares on its own system, whoever calls: 401 without a
 * credential or with an unknown one, 403 for a principal without the grant, and an audit entry for
 * every change and refused attempt at one, naming the caller.
 */
class HttpAccessTest {
  private static final RouteTable<String> ROUTES =
      RouteTable.<String>builder()
          .get("/api/s/thing", "read", (svc, req) -> HttpResponse.ok(Map.of("read", svc)))
          .post("/api/s/thing", "write", (svc, req) -> HttpResponse.noContent())
          .admin("DELETE", "/api/s/thing", "admin", (svc, req) -> HttpResponse.noContent())
          .get(
              "/api/s/query",
              "a read that deletes on request",
              (svc, req) ->
                  req.query("delete").isPresent() && !req.permits(Action.ADMIN)
                      ? HttpResponse.refused(req, Action.ADMIN)
                      : HttpResponse.ok(Map.of()))
          .build();

  private final List<AuditEntry> trail = Collections.synchronizedList(new ArrayList<>());
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final HttpClient client = HttpClient.newHttpClient();
  private HttpApiServer server;

  @BeforeEach
  void start() {
    AccessRule rule =
        AccessRule.of(
            List.of(
                new Principal("reader", AccessRule.sha256("r"), Map.of("s", Action.READ)),
                new Principal("writer", AccessRule.sha256("w"), Map.of("s", Action.WRITE)),
                new Principal("admin", AccessRule.sha256("a"), Map.of("*", Action.ADMIN)),
                new Principal("elsewhere", AccessRule.sha256("e"), Map.of("t", Action.ADMIN))),
            Map.of());
    server = new HttpApiServer("127.0.0.1", 0, rule, 2, registry);
    server.audit(trail::add);
    ROUTES.bind("svc").forEach(r -> server.add(r.in("s")));
    server.add(
        new Route(new RouteSpec("GET", "/api/health", "", false), req -> HttpResponse.ok(1)));
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private int status(String method, String path, String token) throws Exception {
    var b =
        java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(10))
            .method(method, BodyPublishers.noBody());
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), BodyHandlers.discarding()).statusCode();
  }

  @Test
  void eachCallerGetsExactlyWhatItsGrantsSay() throws Exception {
    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put("anonymous", null);
    tokens.put("unknown", "zzz");
    tokens.put("elsewhere", "e");
    tokens.put("reader", "r");
    tokens.put("writer", "w");
    tokens.put("admin", "a");
    Map<String, List<Integer>> got = new LinkedHashMap<>();
    for (var t : tokens.entrySet()) {
      got.put(
          t.getKey(),
          List.of(
              status("GET", "/api/s/thing", t.getValue()),
              status("POST", "/api/s/thing", t.getValue()),
              status("DELETE", "/api/s/thing", t.getValue()),
              status("GET", "/api/s/query?delete=true", t.getValue()),
              status("GET", "/api/health", t.getValue())));
    }
    assertThat(got)
        .containsExactly(
            Map.entry("anonymous", List.of(401, 401, 401, 401, 200)),
            Map.entry("unknown", List.of(401, 401, 401, 401, 401)),
            Map.entry("elsewhere", List.of(403, 403, 403, 403, 200)),
            Map.entry("reader", List.of(200, 403, 403, 403, 200)),
            Map.entry("writer", List.of(200, 204, 403, 403, 200)),
            Map.entry("admin", List.of(200, 204, 204, 200, 200)));

    // Reads leave no entry; every change, and every refused attempt at one, does.
    List<String> entries =
        trail.stream()
            .map(e -> e.who() + " " + e.action().label() + " " + e.what() + " " + e.outcome())
            .toList();
    assertThat(entries)
        .contains(
            "writer write POST /api/s/thing 204",
            "writer admin DELETE /api/s/thing 403",
            "admin admin DELETE /api/s/thing 204",
            "admin admin GET /api/s/query?delete=true 200",
            "reader admin GET /api/s/query?delete=true 403",
            "anonymous write POST /api/s/thing 401")
        .noneMatch(e -> e.contains(" read "));
    assertThat(trail).allMatch(e -> e.system().equals("s") && e.remote().startsWith("127.0.0.1:"));
    assertThat(
            registry
                .get("casebook.access.denied")
                .tags("protocol", "http", "system", "s", "reason", "forbidden")
                .counter()
                .count())
        .isEqualTo(9.0);
  }
}
