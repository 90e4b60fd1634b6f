package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server starts whatever systems the classpath has — here also the test-only echo system, which
 * opens a TCP listener through the platform — reports each in {@code /api/health}, and closes them
 * on shutdown, without naming any of them.
 */
@ExtendWith(EmbeddedHBase.class)
class ServerIT {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void startsReportsAndClosesAListenerOfASystemItDoesNotKnow(HBaseRuntime runtime)
      throws Exception {
    List<CasebookSystem> systems = Systems.load();
    assertThat(systems).extracting(s -> s.descriptor().name()).contains("echo", "weibo");
    new SchemaManager(runtime.connection()).ensureAll(Systems.allTables(systems));
    int echoPort;
    try (Platform platform =
            Platform.builder(runtime, EmbeddedHBase.scratchDir("server-it"))
                .port("--echo-port", 0)
                .build();
        Server server = Server.start(systems, platform, 0, 4)) {
      InetSocketAddress echo = server.listeners().get("echo echo").address();
      echoPort = echo.getPort();
      try (Socket s = new Socket(echo.getAddress(), echoPort)) {
        OutputStream out = s.getOutputStream();
        out.write("hello\nsecond line\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        BufferedReader in =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        assertThat(in.readLine()).isEqualTo("HELLO");
        assertThat(in.readLine()).isEqualTo("SECOND LINE");
      }
      JsonNode health = get(server.port(), "/api/health");
      assertThat(health.get("status").asText()).isEqualTo("up");
      JsonNode entry = null;
      for (JsonNode n : health.get("systems")) {
        if (n.get("name").asText().equals("echo")) {
          entry = n;
        }
      }
      assertThat(entry).as("echo system in health").isNotNull();
      assertThat(entry.get("status").asText()).isEqualTo("up");
      assertThat(entry.get("listeners").get(0).get("port").asInt()).isEqualTo(echoPort);
      assertThat(entry.get("details").get("lines").asLong()).isEqualTo(2);
      assertThat(get(server.port(), "/api/echo/lines").get("lines").asLong()).isEqualTo(2);
    }
    assertThatThrownBy(
            () -> new Socket(java.net.InetAddress.getLoopbackAddress(), echoPort).close())
        .as("listener closed on shutdown")
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void aSystemGetsTheSettingsItDeclaredWithoutTheServerNamingThem(HBaseRuntime runtime)
      throws Exception {
    List<CasebookSystem> systems = Systems.load();
    new SchemaManager(runtime.connection()).ensureAll(Systems.allTables(systems));
    try (Platform platform =
            Platform.builder(runtime, EmbeddedHBase.scratchDir("server-it-settings"))
                .port("--echo-port", 0)
                .settings(
                    org.casebook.core.settings.SettingSources.of(
                        java.util.Optional.empty(),
                        false,
                        java.util.Map.of("CASEBOOK_ECHO_UPPER_CASE", "false"),
                        java.util.Map.of()))
                .build();
        Server server = Server.start(systems, platform, 0, 4)) {
      InetSocketAddress echo = server.listeners().get("echo echo").address();
      try (Socket s = new Socket(echo.getAddress(), echo.getPort())) {
        s.getOutputStream().write("Mixed Case\n".getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
        BufferedReader in =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        assertThat(in.readLine()).isEqualTo("Mixed Case");
      }
    }
    try (Platform platform =
        Platform.builder(runtime, EmbeddedHBase.scratchDir("server-it-unknown")).build()) {
      assertThatThrownBy(
              () ->
                  platform.contextFor(
                      new org.casebook.server.testsystem.EchoSystem().descriptor(),
                      java.util.Map.of("echo.lower-case", "true")))
          .isInstanceOf(org.casebook.core.InvalidInputException.class)
          .hasMessageContaining("unknown setting 'echo.lower-case'");
    }
  }

  private JsonNode get(int port, String path) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }
}
