package org.casebook.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.casebook.browser.HeadlessChromium;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * JUnit 5 extension for console tests: one server with every system on the shared embedded HBase,
 * started on first use and closed after the JVM's last test class (as {@link EmbeddedHBase} keeps
 * HBase). Test classes use {@code @ExtendWith({EmbeddedHBase.class, ConsoleServer.class})} and take
 * a {@link ConsoleServer} parameter; {@link #browser()} opens headless Chromium on it.
 */
final class ConsoleServer implements ParameterResolver, ExtensionContext.Store.CloseableResource {
  private static final String KEY = ConsoleServer.class.getName();
  static final Path CHROMIUM = HeadlessChromium.CHROMIUM;
  static final Path CHROMEDRIVER = HeadlessChromium.CHROMEDRIVER;

  private final Server server;
  private final Platform platform;
  private final List<CasebookSystem> systems;
  private final java.net.http.HttpClient http =
      java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** For JUnit; the instance that serves is made by {@link #resolveParameter}. */
  public ConsoleServer() {
    this.server = null;
    this.platform = null;
    this.systems = List.of();
  }

  private ConsoleServer(HBaseRuntime runtime) {
    this.systems = Systems.load();
    new SchemaManager(runtime.connection()).ensureAll(Systems.allTables(systems));
    this.platform =
        Platform.builder(runtime, EmbeddedHBase.scratchDir("console-server"))
            .port("--echo-port", 0)
            .port("--tsdb-port", 0)
            .port("--frontier-port", 0)
            .auditTrail(
                org.casebook.core.access.AuditTable.DEFAULT_NAME, java.time.Duration.ofDays(30))
            .build();
    this.server = Server.start(systems, platform, 0, 4);
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
    return p.getParameter().getType() == ConsoleServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext c) {
    HBaseRuntime runtime = EmbeddedHBase.runtime(c);
    return c.getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(KEY, k -> new ConsoleServer(runtime), ConsoleServer.class);
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
      platform.close();
    }
  }

  /** Sends what the audit trail buffers (it is flushed within a second anyway). */
  void flushAudit() {
    platform.auditTable().orElseThrow().flush();
  }

  Server server() {
    return server;
  }

  List<CasebookSystem> systems() {
    return systems;
  }

  /**
   * Sends {@code method path} to the server, with a JSON body ({@code null}: none) and extra
   * headers given as name, value, …; answers the response with its body as text.
   */
  java.net.http.HttpResponse<String> send(
      String method, String path, String jsonBody, String... headers)
      throws java.io.IOException, InterruptedException {
    java.net.http.HttpRequest.Builder b =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(base() + path))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                jsonBody == null
                    ? java.net.http.HttpRequest.BodyPublishers.noBody()
                    : java.net.http.HttpRequest.BodyPublishers.ofString(jsonBody));
    if (jsonBody != null) {
      b.header("Content-Type", "application/json");
    }
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  /** GETs {@code path}, asserts the answer is {@code status} and returns its JSON error body. */
  com.fasterxml.jackson.databind.JsonNode refused(String path, int status)
      throws java.io.IOException, InterruptedException {
    java.net.http.HttpResponse<String> r = send("GET", path, null);
    org.assertj.core.api.Assertions.assertThat(r.statusCode())
        .as(path + ": " + r.body())
        .isEqualTo(status);
    return org.casebook.core.Json.mapper().readTree(r.body());
  }

  /** {@code http://127.0.0.1:<port>} */
  String base() {
    return "http://127.0.0.1:" + server.port();
  }

  /**
   * Headless Chromium with its console log kept; skips the test with a message where Chromium is
   * not installed (CI installs it).
   */
  static WebDriver browser() {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Chromium and chromedriver are not installed here (Debian: apt-get install chromium"
            + " chromium-driver; .ci/run installs them)");
    return HeadlessChromium.start(CHROMIUM, CHROMEDRIVER, Level.ALL);
  }

  /**
   * Opens a console link ({@code #/system/<name>?…}) as a fresh navigation, not a fragment change,
   * and waits until its page has drawn its first answer; returns the page's own first-data time.
   */
  long openLink(WebDriver browser, String link) throws InterruptedException {
    return HeadlessChromium.openAndAwait(
        browser, base() + "/" + link, "data-page-data-ms", Duration.ofSeconds(30));
  }

  static WebDriverWait waitFor(WebDriver browser) {
    return new WebDriverWait(browser, Duration.ofSeconds(30));
  }

  /** Saves what the browser shows as {@code target/console-screenshots/<name>.png}, for review. */
  static Path screenshot(WebDriver browser, String name) {
    try {
      Path dir = Path.of("target", "console-screenshots");
      Files.createDirectories(dir);
      Path file = dir.resolve(name + ".png");
      byte[] png =
          ((org.openqa.selenium.TakesScreenshot) browser)
              .getScreenshotAs(org.openqa.selenium.OutputType.BYTES);
      Files.write(file, png);
      return file;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Waits until the console has refreshed {@code n} times since the page loaded. */
  static void awaitRefreshes(WebDriver browser, int n) {
    waitFor(browser)
        .until(
            b -> {
              String v = b.findElement(By.tagName("body")).getDomAttribute("data-refreshed");
              return v != null && Integer.parseInt(v) >= n;
            });
  }

  /**
   * Errors the browser's console logged since the last call. Chromium logs each 4xx answer to a
   * fetch here too ("… - Failed to load resource: the server responded with a status of 400"), so a
   * test that sends bad input expects exactly those lines.
   */
  static List<String> consoleErrors(WebDriver browser) {
    List<String> errors = new ArrayList<>();
    for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
        errors.add(e.getMessage());
      }
    }
    return errors;
  }

  /**
   * Asserts the console holds exactly Chromium's line for one refused request, and nothing else.
   */
  static void assertOnlyRefused(WebDriver browser, String pathPart, int status) {
    List<String> logged = new ArrayList<>();
    waitFor(browser)
        .until(
            d -> {
              logged.addAll(consoleErrors(d));
              return !logged.isEmpty();
            });
    org.assertj.core.api.Assertions.assertThat(logged)
        .as("errors in the browser's console")
        .singleElement()
        .satisfies(
            line ->
                org.assertj.core.api.Assertions.assertThat(line)
                    .contains(pathPart)
                    .contains("Failed to load resource")
                    .contains("status of " + status));
  }
}
