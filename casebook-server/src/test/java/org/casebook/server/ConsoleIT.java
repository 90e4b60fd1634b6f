package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.http.RouteSpec;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console and the API description on a server with every system: over HTTP (every served route
 * is described; files come from the server), then in headless Chromium (the overview fills in from
 * the REST API, a system's page lists its routes, the API page renders every operation), with no
 * error in the browser's console.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class ConsoleIT {
  private final ConsoleServer console;
  private final Server server;
  private final List<CasebookSystem> systems;

  ConsoleIT(ConsoleServer console) {
    this.console = console;
    this.server = console.server();
    this.systems = console.systems();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return console.send("GET", path, null);
  }

  @Test
  void everyServedRouteIsDescribedUnderItsSystem() throws Exception {
    HttpResponse<String> r = get(Console.OPENAPI);
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode doc = Json.mapper().readTree(r.body());
    assertThat(doc.get("openapi").asText()).startsWith("3.");
    List<String> missing = new ArrayList<>();
    for (RouteSpec route : server.routes()) {
      if (doc.path("paths")
          .path(route.pattern())
          .path(route.method().toLowerCase(Locale.ROOT))
          .isMissingNode()) {
        missing.add(route.toString());
      }
    }
    assertThat(missing).as("served but not described").isEmpty();
    for (CasebookSystem s : systems) {
      for (RouteSpec route : s.descriptor().routes()) {
        JsonNode op =
            doc.get("paths").get(route.pattern()).get(route.method().toLowerCase(Locale.ROOT));
        assertThat(op.get("tags").get(0).asText())
            .as(route.toString())
            .isEqualTo(s.descriptor().name());
      }
    }
    assertThat(doc.at("/paths/~1api~1health/get/summary").asText()).isNotBlank();
  }

  @Test
  void theConsoleAndItsFilesComeFromTheServerAndNothingElseIsServedUnderIt() throws Exception {
    HttpResponse<String> index = get("/");
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.headers().firstValue("content-type").orElse("")).startsWith("text/html");
    assertThat(index.body())
        .contains("/console/console.js")
        .as("no script or style from another host")
        .doesNotContain("src=\"http", "href=\"http", "src=\"//", "href=\"//");
    for (String f :
        List.of("console.js", "console.css", "uplot.js", "uplot.css", "swagger-ui-bundle.js")) {
      assertThat(get("/console/" + f).statusCode()).as(f).isEqualTo(200);
    }
    HttpResponse<String> other = get("/console/..%2Fpom.xml");
    assertThat(other.statusCode()).isEqualTo(404);
    assertThat(Json.mapper().readTree(other.body()).get("field").asText()).isEqualTo("asset");
    assertThat(get("/api/docs").body()).contains("/console/swagger-ui-bundle.js");
  }

  @Test
  void theClusterAnswerListsEverySystemsTablesWithTheirRegions() throws Exception {
    JsonNode cluster = Json.mapper().readTree(get("/api/cluster").body());
    assertThat(cluster.get("mode").asText()).isEqualTo("embedded");
    assertThat(cluster.get("regionServers")).hasSize(1);
    assertThat(cluster.get("systems")).hasSize(systems.size());
    for (JsonNode s : cluster.get("systems")) {
      for (JsonNode t : s.get("tables")) {
        assertThat(t.get("regions").size()).as(t.get("name").asText()).isGreaterThanOrEqualTo(1);
      }
    }
  }

  @Test
  void theBackupsAnswerListsABackupWithItsSystemsTablesAndSize(HBaseRuntime runtime)
      throws Exception {
    org.casebook.core.backup.BackupCatalog catalog =
        new org.casebook.core.backup.BackupCatalog(runtime.connection(), runtime.configuration());
    String name = org.casebook.core.testing.TestIds.unique("console");
    TableName posts = TableName.valueOf("weibo", "posts");
    catalog.create(name, java.util.Map.of("weibo", List.of(posts)), line -> {});
    try {
      JsonNode found = null;
      for (JsonNode b : Json.mapper().readTree(get("/api/backups").body()).get("backups")) {
        if (b.get("name").asText().equals(name)) {
          found = b;
        }
      }
      assertThat(found).as("backup listed").isNotNull();
      assertThat(found.get("systems").toString()).isEqualTo("[\"weibo\"]");
      assertThat(found.get("tables").get(0).get("table").asText()).isEqualTo("weibo:posts");
      assertThat(java.time.Instant.parse(found.get("created").asText()))
          .isBefore(java.time.Instant.now().plusSeconds(1));
      assertThat(found.get("bytes").asLong()).isNotNegative();
    } finally {
      catalog.delete(name);
    }
  }

  @Test
  void theSchemaAnswerShowsEveryTableAsDeclaredAndAsItIs() throws Exception {
    assertThat(
            console
                .send("POST", "/api/weibo/users/schema-view/posts", "{\"content\":\"sized\"}")
                .statusCode())
        .isEqualTo(201);
    JsonNode schema = Json.mapper().readTree(get("/api/schema").body());
    List<String> names = new ArrayList<>();
    for (JsonNode t : schema.get("tables")) {
      names.add(t.get("name").asText());
      JsonNode live = t.get("live");
      assertThat(live.isObject()).as(t.get("name").asText() + " is on HBase").isTrue();
      assertThat(live.get("regions").asInt()).isGreaterThanOrEqualTo(1);
      assertThat(live.get("regionBytes").size()).isEqualTo(live.get("regions").asInt());
      assertThat(live.get("drift")).as(t.get("name").asText()).isEmpty();
      for (JsonNode f : t.get("families")) {
        assertThat(f.get("compression").asText()).isNotEmpty();
        assertThat(f.get("bloom").asText()).isNotEmpty();
      }
    }
    assertThat(names).contains("weibo:posts", "trails:events");
  }

  /**
   * Every table gets a row count within a few refreshes; a table of no more than the sample's rows
   * is counted exactly, which a full scan here confirms once the counts have caught up with the
   * writes (a region is sampled again when its write counter moves).
   */
  @Test
  void everyTableGetsARowCountAndSmallTablesAreCountedExactly(HBaseRuntime runtime)
      throws Exception {
    assertThat(
            console
                .send("POST", "/api/weibo/users/row-counter/posts", "{\"content\":\"counted\"}")
                .statusCode())
        .isEqualTo(201);
    // Well past RowEstimates.MAX_AGE_MILLIS: a table is counted again at the latest by then.
    long deadline = System.currentTimeMillis() + 90_000;
    List<String> differences;
    int exact;
    do {
      Thread.sleep(200);
      JsonNode cluster = Json.mapper().readTree(get("/api/cluster").body());
      differences = new ArrayList<>();
      exact = 0;
      for (JsonNode s : cluster.get("systems")) {
        for (JsonNode t : s.get("tables")) {
          String name = t.get("name").asText();
          if (t.path("rows").isNull() || t.path("rows").isMissingNode()) {
            differences.add(name + ": no count yet");
          } else if (t.get("rowsExact").asBoolean()) {
            exact++;
            long counted = countRows(runtime, name);
            if (t.get("rows").asLong() != counted) {
              differences.add(name + ": " + t.get("rows") + " shown, " + counted + " counted");
            }
          }
        }
      }
    } while (!differences.isEmpty() && System.currentTimeMillis() < deadline);
    assertThat(differences).as("after 90 s").isEmpty();
    assertThat(exact).as("tables counted exactly").isPositive();
  }

  private static long countRows(HBaseRuntime runtime, String table) throws Exception {
    long rows = 0;
    try (Table t = runtime.connection().getTable(TableName.valueOf(table));
        ResultScanner scanner = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()))) {
      while (scanner.next() != null) {
        rows++;
      }
    }
    return rows;
  }

  @Test
  void inChromiumTheOverviewSystemPagesAndApiPageRenderWithoutErrors() throws Exception {
    WebDriver browser = ConsoleServer.browser();
    try {
      String base = "http://127.0.0.1:" + server.port();
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
      // A change for the audit trail (open access here: anyone is an admin).
      String auditedUser = org.casebook.core.testing.TestIds.unique("audited");
      assertThat(
              console
                  .send("PUT", "/api/weibo/users/" + auditedUser + "/following/x", null)
                  .statusCode())
          .isBetween(200, 299);
      console.flushAudit();
      browser.get(base + "/");
      // Two refreshes: the second draws rates from the difference between two answers.
      wait.until(
          b ->
              Integer.parseInt(
                      b.findElement(By.tagName("body")).getDomAttribute("data-refreshed") == null
                          ? "0"
                          : b.findElement(By.tagName("body")).getDomAttribute("data-refreshed"))
                  >= 2);
      List<WebElement> rows = browser.findElements(By.cssSelector("#systems tbody tr"));
      assertThat(rows).hasSize(systems.size());
      assertThat(browser.findElement(By.id("hbase-mode")).getText()).isEqualTo("embedded");
      int tables = systems.stream().mapToInt(s -> s.descriptor().tables().size()).sum();
      assertThat(browser.findElements(By.cssSelector("#heatmap .heat-table"))).hasSize(tables);
      assertThat(browser.findElements(By.cssSelector("#heatmap .heat-cell")).size())
          .isGreaterThanOrEqualTo(tables);
      assertThat(browser.findElements(By.cssSelector("#rate-chart canvas"))).isNotEmpty();
      // Row counts arrive from the server's background sampling within a few refreshes.
      wait.until(
          b -> b.findElements(By.cssSelector("#heatmap .heat-table[data-rows]")).size() == tables);
      assertThat(browser.findElement(By.cssSelector("#heatmap .heat-table .label")).getText())
          .contains(" row");
      wait.until(
          b -> b.findElement(By.cssSelector("#audit tbody")).getText().contains(auditedUser));
      assertThat(browser.findElement(By.cssSelector("#audit tbody")).getText())
          .contains("anonymous", "weibo", "write", "PUT /api/weibo/users/" + auditedUser);
      wait.until(b -> !b.findElement(By.cssSelector("#backups tbody")).getText().contains("…"));
      assertThat(browser.findElement(By.cssSelector("#backups tbody")).getText())
          .doesNotContain("Could not");
      System.out.printf(
          "console overview: first data %s ms after navigation%n",
          browser.findElement(By.tagName("body")).getDomAttribute("data-first-data-ms"));
      ConsoleServer.screenshot(browser, "overview");

      CasebookSystem trails =
          systems.stream()
              .filter(s -> s.descriptor().name().equals("trails"))
              .findFirst()
              .orElseThrow();
      browser.findElement(By.cssSelector("#nav a[href='#/system/trails']")).click();
      wait.until(
          b ->
              b.findElements(By.cssSelector("#system-routes tbody tr")).size()
                  == trails.descriptor().routes().size());
      assertThat(browser.findElement(By.id("system-name")).getText()).isEqualTo("trails");
      assertThat(browser.findElement(By.id("overview")).isDisplayed()).isFalse();
      ConsoleServer.screenshot(browser, "system-trails");

      browser.get(base + "/api/docs");
      int operations = server.routes().size();
      wait.until(b -> b.findElements(By.cssSelector(".opblock")).size() == operations);
      ConsoleServer.screenshot(browser, "api-docs");

      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }
}
