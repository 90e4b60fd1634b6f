package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The trails page's condition box in headless Chromium: which of a list of users match a condition
 * across behaviours and on values ({@code POST /api/trails/match}), a matched user's trail one
 * click away, and the API's error text for a bad condition.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class TrailsMatchConsolePageIT {
  private final ConsoleServer console;

  TrailsMatchConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  private static String line(String uid, String type, String ts, String fields) {
    return "{\"uid\":"
        + Json.write(uid)
        + ",\"type\":\""
        + type
        + "\",\"ts\":\""
        + ts
        + "\","
        + fields
        + "}";
  }

  private static void submit(WebDriver browser) {
    browser.findElement(By.id("trails-match-run")).click();
    ConsoleServer.waitFor(browser)
        .until(
            b -> {
              String state =
                  b.findElement(By.id("trails-match-result")).getDomAttribute("data-state");
              return "done".equals(state) || "error".equals(state);
            });
  }

  private static void type(WebDriver browser, String id, String text) {
    WebElement e = browser.findElement(By.id(id));
    e.clear();
    e.sendKeys(text);
  }

  @Test
  void theUsersMatchingAConditionAreListedAndABadConditionShowsTheApisError() throws Exception {
    String quick = TestIds.unique("console-match-quick");
    String slow = TestIds.unique("console-match-slow");
    String nobody = TestIds.unique("console-match-nobody");
    String login = "\"device\":\"tv-1\",\"ip\":\"10.0.0.7\"";
    String play = "\"contentId\":\"c1\",\"channel\":\"news\",\"start\":0,\"duration\":600";
    Path dir = EmbeddedHBase.scratchDir(TestIds.unique("console-match"));
    Path log = dir.resolve("trails.jsonl");
    Files.write(
        log,
        List.of(
            line(quick, "login", "2026-03-10T08:00:00Z", login),
            line(quick, "play", "2026-03-10T10:00:00Z", play),
            line(slow, "login", "2026-03-10T08:00:00Z", login),
            line(slow, "play", "2026-03-10T10:00:00.001Z", play)),
        StandardCharsets.UTF_8);
    assertThat(
            Main.run(
                "--data",
                EmbeddedHBase.dataDir().toString(),
                "trails",
                "ingest",
                log.toString(),
                "--threads",
                "1"))
        .as("trails ingest")
        .isZero();

    WebDriver browser = ConsoleServer.browser();
    try {
      browser.get(console.base() + "/#/system/trails");
      ConsoleServer.waitFor(browser)
          .until(b -> !b.findElements(By.id("trails-match-query")).isEmpty());
      type(browser, "trails-match-query", "login THEN play WITHIN 2h");
      type(browser, "trails-match-users", slow + "\n" + nobody + "\n" + quick);
      type(browser, "trails-match-from", "2026-03-10");
      type(browser, "trails-match-to", "2026-03-11");
      submit(browser);
      List<WebElement> rows = browser.findElements(By.cssSelector("#trails-match-table tbody tr"));
      assertThat(rows).extracting(r -> r.getDomAttribute("data-uid")).containsExactly(quick);
      assertThat(browser.findElement(By.id("trails-match-status")).getText())
          .isEqualTo(
              "1 of 3 users match login THEN play WITHIN 2h between 2026-03-10 and 2026-03-11.");

      // A wider window takes the user whose play came a millisecond later too.
      type(browser, "trails-match-query", "login THEN play WITHIN 3h");
      submit(browser);
      assertThat(browser.findElements(By.cssSelector("#trails-match-table tbody tr")))
          .extracting(r -> r.getDomAttribute("data-uid"))
          .containsExactly(slow, quick);

      // A matched user's trail is one click away.
      browser.findElement(By.cssSelector("#trails-match-table a.trails-match-uid")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#trails-timeline .trail-mark")).size() == 2);
      assertThat(browser.findElement(By.id("trails-uid")).getDomProperty("value")).isEqualTo(slow);
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console before any bad input")
          .isEmpty();

      type(browser, "trails-match-query", "login THEN");
      submit(browser);
      assertThat(browser.findElement(By.id("trails-match-error")).getText())
          .isEqualTo(
              "query: at 11 (end of query): expected a behaviour (login, play, visit, order or a"
                  + " declared one), NOT or '('");
      assertThat(browser.findElements(By.id("trails-match-table"))).isEmpty();
      ConsoleServer.assertOnlyRefused(browser, "/api/trails/match", 400);
    } finally {
      browser.quit();
    }
  }
}
