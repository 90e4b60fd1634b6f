package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.casebook.core.Json;

/**
 * The packaged server in a child JVM, started as users start it ({@code java -jar casebook.jar
 * serve …}), for tests that restart it, kill it or talk to it over its real ports. Listener ports
 * not given are 0, so that a server on this machine's default ports does not stop the test.
 */
final class PackagedServer {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private PackagedServer() {}

  /**
   * Starts {@code serve --data data --port httpPort} plus {@code moreArgs}; output goes to {@code
   * log} next to the data directory.
   */
  static Process start(Path jar, Path data, int httpPort, String log, String... moreArgs)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g",
            // A test's server lives a minute: C1 alone, as the test JVMs (see the root pom).
            "-XX:TieredStopAtLevel=1",
            "-jar",
            jar.toString(),
            "serve",
            "--data",
            data.toString(),
            "--port",
            Integer.toString(httpPort)));
    List<String> more = List.of(moreArgs);
    for (String listener : List.of("--tsdb-port", "--frontier-port")) {
      if (!more.contains(listener)) {
        cmd.addAll(List.of(listener, "0"));
      }
    }
    cmd.addAll(more);
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(data.resolveSibling(log).toFile()))
        .start();
  }

  /** Waits until {@code /api/health} answers 200 and returns its body. */
  static JsonNode awaitHealth(Process p, int port, String log) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (System.currentTimeMillis() < deadline) {
      assertThat(p.isAlive()).as("server exited early; see target/scratch/" + log).isTrue();
      try {
        HttpResponse<String> r =
            CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/health"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return Json.mapper().readTree(r.body());
        }
      } catch (IOException notYet) {
        Thread.sleep(250);
      }
    }
    throw new AssertionError("server not healthy within 120 s");
  }

  /** One request to the server on {@code port}, answered within 30 s. */
  static HttpResponse<String> send(String method, int port, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build();
    return CLIENT.send(req, HttpResponse.BodyHandlers.ofString());
  }

  /** A loopback port free now. */
  static int freePort() throws IOException {
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** SIGTERM: the shutdown hook stops HTTP, the systems and HBase; fails after 60 s. */
  static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("server did not stop within 60 s of SIGTERM");
    }
  }
}
