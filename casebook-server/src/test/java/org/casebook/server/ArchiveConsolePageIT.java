package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.casebook.archive.ArchiveService;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.Select;

/**
 * The archive's console page starts an import of generated files, follows it to its report, shows
 * an imported user with the statuses the REST API has for them, and charts a recorded experiment.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class ArchiveConsolePageIT {
  private final ConsoleServer console;

  ArchiveConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> r = console.send("GET", path, null);
    assertThat(r.statusCode()).as(path).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  /**
   * Results in the shape {@code bench archive} records (see ArchiveExperimentIT for a real run).
   */
  private static String experimentResults() {
    StringBuilder runs = new StringBuilder();
    String[] names = {
      "no pre-split, no key rule", "pre-split, no key rule", "pre-split + key rule"
    };
    for (int c = 1; c <= 3; c++) {
      for (int users : new int[] {1000, 2000}) {
        runs.append(runs.length() == 0 ? "" : ",")
            .append(
                String.format(
                    java.util.Locale.ROOT,
                    "{\"case\":%d,\"caseName\":\"%s\",\"users\":%d,\"seconds\":%.1f}",
                    c,
                    names[c - 1],
                    users,
                    users / 1000.0 * (4 - c)));
      }
    }
    return "{\"regions\":8,\"runs\":["
        + runs
        + "],\"bulkloadVsPut\":{\"bulkloadRecordsPerSecond\":31000,"
        + "\"putRecordsPerSecond\":10000,\"speedup\":3.1},"
        + "\"plantedBadFiles\":{\"files\":10,\"quarantined\":4,\"usersLoaded\":300,"
        + "\"usersExpected\":300}}";
  }

  @Test
  void anImportStartedFromThePageReportsAndItsUsersShowWithTheirStatuses(HBaseRuntime runtime)
      throws Exception {
    Path input = EmbeddedHBase.scratchDir("archive-console").resolve("in");
    assertThat(
            Main.run(
                "archive",
                "generate",
                "--out",
                input.toString(),
                "--files",
                "2",
                "--users-per-file",
                "4",
                "--statuses",
                "3",
                "--seed",
                "7"))
        .isZero();
    WebDriver browser = ConsoleServer.browser();
    try {
      browser.get(console.base() + "/#/system/archive");
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("archive-input")).isEmpty());
      ConsoleServer.waitFor(browser)
          .until(b -> !b.findElements(By.id("archive-experiment-none")).isEmpty());
      browser.findElement(By.id("archive-input")).sendKeys(input.toString());
      new Select(browser.findElement(By.id("archive-mode"))).selectByValue("put");
      browser.findElement(By.cssSelector("#archive-import button")).click();
      ConsoleServer.waitFor(browser)
          .withTimeout(Duration.ofMinutes(2))
          .until(
              b ->
                  b.findElement(By.id("archive-message"))
                      .getText()
                      .matches("import .* (succeeded|failed)"));
      assertThat(browser.findElement(By.id("archive-message")).getText()).endsWith("succeeded");

      JsonNode job = get("/api/archive/imports?limit=1").get("imports").get(0);
      JsonNode report = job.get("report");
      assertThat(browser.findElement(By.id("archive-report-summary")).getText())
          .startsWith(job.get("id").asText() + ": ")
          .contains(
              String.format(
                  java.util.Locale.ENGLISH, "%,d statuses", report.get("statuses").asLong()))
          .contains("2 files loaded");
      assertThat(
              browser.findElements(
                  By.cssSelector(
                      "#archive-imports tr[data-import='" + job.get("id").asText() + "']")))
          .hasSize(1);
      assertThat(browser.findElements(By.cssSelector("#archive-report .archive-phase")))
          .hasSize(report.get("phaseSeconds").size());

      // A user of the import (the generator numbers users from 1,000,000,000): every status the
      // API lists for them, in the same order.
      String uid = null;
      JsonNode anyStatuses = null;
      for (long n = 1_000_000_000L; n < 1_000_000_008L && uid == null; n++) {
        JsonNode s = get("/api/archive/users/" + n + "/statuses?limit=20").get("statuses");
        if (s.size() > 0) {
          uid = Long.toString(n);
          anyStatuses = s;
        }
      }
      assertThat(uid).as("a generated user with statuses").isNotNull();
      browser.findElement(By.id("archive-uid")).sendKeys(uid);
      browser.findElement(By.cssSelector("#archive-user-form button")).click();
      String firstUid = uid;
      JsonNode expected = anyStatuses;
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElements(By.cssSelector("#archive-statuses tr")).size() == expected.size());
      for (int i = 0; i < expected.size(); i++) {
        assertThat(
                browser
                    .findElements(By.cssSelector("#archive-statuses tr"))
                    .get(i)
                    .getDomAttribute("data-status"))
            .isEqualTo(expected.get(i).get("id").asText());
      }
      assertThat(browser.findElement(By.id("archive-user-summary")).getText())
          .startsWith(firstUid + ":");
      // The same user from a link: the imports and the user's statuses at once.
      console.openLink(browser, "#/system/archive?uid=" + firstUid);
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElements(By.cssSelector("#archive-statuses tr")).size() == expected.size());
      assertThat(browser.findElements(By.cssSelector("#archive-imports tr"))).isNotEmpty();

      assertThat(ConsoleServer.consoleErrors(browser)).isEmpty();
      // A user id the API refuses: its answer, in the page.
      browser.findElement(By.id("archive-uid")).clear();
      browser.findElement(By.id("archive-uid")).sendKeys("no such user");
      browser.findElement(By.cssSelector("#archive-user-form button")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  "error".equals(b.findElement(By.id("archive-message")).getDomAttribute("class")));
      assertThat(browser.findElement(By.id("archive-message")).getText()).isNotBlank();
      ConsoleServer.assertOnlyRefused(browser, "/api/archive/users/no%20such%20user", 400);

      // An experiment recorded as bench archive records it: one line per case over the sizes.
      try (Platform platform =
          Platform.create(runtime, EmbeddedHBase.scratchDir("archive-console-experiment"))) {
        ArchiveService.create(platform.contextFor("archive-console-test"), false)
            .recordExperiment(Instant.now(), experimentResults());
      }
      browser.navigate().refresh();
      ConsoleServer.waitFor(browser)
          .until(b -> !b.findElements(By.id("archive-experiment-summary")).isEmpty());
      assertThat(browser.findElement(By.id("archive-experiment-summary")).getText())
          .contains("6 runs over 1,000, 2,000 users, 8 regions")
          .contains("(3.10×)")
          .contains("4 of 10 quarantined");
      assertThat(
              browser.findElement(By.id("archive-experiment-chart")).getDomAttribute("data-points"))
          .isEqualTo("6");
      assertThat(browser.findElements(By.cssSelector("#archive-experiment-chart canvas")))
          .isNotEmpty();
      assertThat(
              browser.findElement(By.cssSelector("#archive-experiment-chart .u-legend")).getText())
          .contains("case 1: no pre-split, no key rule", "case 3: pre-split + key rule");
      ConsoleServer.screenshot(browser, "archive");
    } finally {
      browser.quit();
    }
  }
}
