package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
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
 * The trails page of the console in headless Chromium: a user's trail drawn as a timeline (one lane
 * per behaviour) and listed in a table, the latest records paged, the active-users task, and the
 * API's error text for bad input.
 *
 * <p>The trails REST API has no write route (its three routes are reads), so the events are written
 * through the module's own ingest, {@code casebook trails ingest}, attached to the shared HBase as
 * the CLI attaches to a running server.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class TrailsConsolePageIT {
  private final ConsoleServer console;

  TrailsConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  /** One log line of {@code uid}, in the module's log format. */
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

  private JsonNode apiError(String path) throws Exception {
    return console.refused(path, 400);
  }

  /** The text the page shows for a 400: the field, then the API's message. */
  private static String shown(JsonNode error) {
    return error.get("field").asText() + ": " + error.get("error").asText();
  }

  private static void submit(WebDriver browser, String buttonId, String resultId) {
    browser.findElement(By.id(buttonId)).click();
    ConsoleServer.waitFor(browser)
        .until(
            b -> {
              String state = b.findElement(By.id(resultId)).getDomAttribute("data-state");
              return "done".equals(state) || "error".equals(state);
            });
  }

  private static void type(WebDriver browser, String id, String text) {
    WebElement e = browser.findElement(By.id(id));
    e.clear();
    e.sendKeys(text);
  }

  private static List<String> attribute(List<WebElement> elements, String name) {
    return elements.stream().map(e -> e.getDomAttribute(name)).toList();
  }

  @Test
  void theTrailLatestRecordsAndActiveUsersShowWhatWasIngested() throws Exception {
    // A '/' and a ',' in the id: the page must encode it in the path.
    String active = TestIds.unique("console-trails") + "/a,b";
    String player = TestIds.unique("console-trails-player");
    String nobody = TestIds.unique("console-trails-nobody");
    Path dir = EmbeddedHBase.scratchDir(TestIds.unique("console-trails"));
    Path log = dir.resolve("trails.jsonl");
    Files.write(
        log,
        List.of(
            line(
                active, "login", "2026-03-10T08:15:00Z", "\"device\":\"tv-1\",\"ip\":\"10.0.0.7\""),
            line(
                active,
                "play",
                "2026-03-10T20:05:30Z",
                "\"contentId\":\"c42\",\"channel\":\"movies\",\"start\":0,\"duration\":1800"),
            line(
                active,
                "visit",
                "2026-03-11T12:00:00Z",
                "\"page\":\"home\",\"column\":\"featured\""),
            line(
                active,
                "play",
                "2026-03-11T21:30:00Z",
                "\"contentId\":\"c43\",\"channel\":\"news\",\"start\":60,\"duration\":600"),
            line(active, "order", "2026-03-12T18:45:12.345Z", "\"product\":\"p7\",\"price\":12.34"),
            // After the range asked below: in the latest records, not in the trail.
            line(active, "visit", "2026-03-13T09:00:00Z", "\"page\":\"search\",\"column\":\"top\""),
            line(
                player,
                "play",
                "2026-03-11T10:00:00Z",
                "\"contentId\":\"c1\",\"channel\":\"kids\",\"start\":0,\"duration\":90")),
        StandardCharsets.UTF_8);
    assertThat(
            Main.run(
                "--data",
                EmbeddedHBase.dataDir().toString(),
                "trails",
                "ingest",
                log.toString(),
                "--history",
                "both",
                "--threads",
                "1"))
        .as("trails ingest")
        .isZero();

    WebDriver browser = ConsoleServer.browser();
    try {
      // A link to the trail (the id's '/' and ',' encoded) draws it at once.
      console.openLink(
          browser,
          "#/system/trails?uid="
              + URLEncoder.encode(active, StandardCharsets.UTF_8)
              + "&from=2026-03-10&to=2026-03-12");
      assertThat(browser.findElements(By.cssSelector("#trails-timeline .trail-mark"))).hasSize(5);
      assertThat(browser.findElement(By.id("trails-uid")).getDomProperty("value"))
          .isEqualTo(active);

      browser.get("about:blank");
      browser.get(console.base() + "/#/system/trails");
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("trails-uid")).isEmpty());

      // The trail over three days: each event a mark in its behaviour's lane, and a table row.
      type(browser, "trails-uid", active);
      type(browser, "trails-from", "2026-03-10");
      type(browser, "trails-to", "2026-03-12");
      submit(browser, "trails-show", "trails-trail-result");
      assertThat(browser.findElement(By.id("trails-trail-error")).isDisplayed()).isFalse();
      WebElement timeline = browser.findElement(By.id("trails-timeline"));
      // The built-ins' lanes first; behaviours another test declared follow them, empty.
      assertThat(attribute(timeline.findElements(By.cssSelector(".trails-lane")), "data-lane"))
          .startsWith("login", "play", "visit", "order");
      assertThat(timeline.findElements(By.cssSelector(".trail-mark"))).hasSize(5);
      assertThat(
              attribute(
                  timeline.findElements(By.cssSelector("[data-lane='login'] .trail-mark")),
                  "data-ts"))
          .containsExactly("2026-03-10T08:15:00Z");
      assertThat(
              attribute(
                  timeline.findElements(By.cssSelector("[data-lane='play'] .trail-mark")),
                  "data-ts"))
          .containsExactly("2026-03-10T20:05:30Z", "2026-03-11T21:30:00Z");
      assertThat(
              attribute(
                  timeline.findElements(By.cssSelector("[data-lane='visit'] .trail-mark")),
                  "data-ts"))
          .containsExactly("2026-03-11T12:00:00Z");
      WebElement order = timeline.findElement(By.cssSelector("[data-lane='order'] .trail-mark"));
      assertThat(order.getDomAttribute("data-ts")).isEqualTo("2026-03-12T18:45:12.345Z");
      assertThat(order.getDomProperty("title"))
          .startsWith("order at 2026-03-12T18:45:12.345Z\n")
          .contains("\nproduct: p7")
          .contains("\nprice: 12.34");
      List<WebElement> rows = browser.findElements(By.cssSelector("#trails-events tbody tr"));
      assertThat(attribute(rows, "data-type"))
          .containsExactly("login", "play", "visit", "play", "order");
      assertThat(rows.get(0).findElements(By.tagName("td")).get(0).getText())
          .isEqualTo("2026-03-10T08:15:00Z");
      assertThat(rows.get(0).getText()).contains("device=tv-1").contains("ip=10.0.0.7");
      assertThat(rows.get(1).getText())
          .contains("contentId=c42", "channel=movies", "start=0", "duration=1800");
      assertThat(rows.get(2).getText()).contains("page=home", "column=featured");
      assertThat(rows.get(3).getText()).contains("contentId=c43", "start=60", "duration=600");
      assertThat(rows.get(4).findElements(By.tagName("td")).get(0).getText())
          .isEqualTo("2026-03-12T18:45:12.345Z");
      assertThat(rows.get(4).getText()).contains("product=p7", "price=12.34");

      // The latest 3, newest first (the visit after the range included), then the next page.
      type(browser, "trails-latest-uid", active);
      type(browser, "trails-latest-limit", "3");
      submit(browser, "trails-latest-show", "trails-latest-result");
      assertThat(
              attribute(
                  browser.findElements(By.cssSelector("#trails-latest-table tbody tr")), "data-ts"))
          .containsExactly(
              "2026-03-13T09:00:00Z", "2026-03-12T18:45:12.345Z", "2026-03-11T21:30:00Z");
      assertThat(browser.findElement(By.cssSelector("#trails-latest-table tbody tr")).getText())
          .contains("visit", "page=search", "column=top");
      submit(browser, "trails-latest-more", "trails-latest-result");
      assertThat(
              attribute(
                  browser.findElements(By.cssSelector("#trails-latest-table tbody tr")),
                  "data-type"))
          .containsExactly("visit", "order", "play", "visit", "play", "login");
      assertThat(browser.findElements(By.id("trails-latest-more"))).isEmpty();

      // The active-users task: only the user with all four behaviours in the range.
      type(browser, "trails-active-users", active + "\n" + player + "\n" + nobody);
      type(browser, "trails-active-from", "2026-03-10");
      type(browser, "trails-active-to", "2026-03-12");
      submit(browser, "trails-active-run", "trails-active-result");
      List<WebElement> activeRows =
          browser.findElements(By.cssSelector("#trails-active-table tbody tr"));
      assertThat(attribute(activeRows, "data-uid")).containsExactly(active);
      assertThat(
              activeRows.get(0).findElements(By.tagName("td")).stream()
                  .map(WebElement::getText)
                  .toList())
          .containsExactly(
              active, "5", "1", "2", "1", "1", "2026-03-10T08:15:00Z", "2026-03-12T18:45:12.345Z");
      assertThat(browser.findElement(By.id("trails-active-status")).getText())
          .startsWith("1 of 3 users did all four behaviours");
      assertThat(browser.findElement(By.id("trails-active-others")).getText())
          .isEqualTo("Not active: " + player + " (play); " + nobody + " (nothing)");

      ConsoleServer.screenshot(browser, "trails");
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console before any bad input")
          .isEmpty();

      // Bad input: the API's own error text, in the page.
      String user = URLEncoder.encode(active, StandardCharsets.UTF_8);
      type(browser, "trails-from", "2026-03-12");
      type(browser, "trails-to", "2026-03-10");
      submit(browser, "trails-show", "trails-trail-result");
      WebElement trailError = browser.findElement(By.id("trails-trail-error"));
      assertThat(trailError.isDisplayed()).isTrue();
      assertThat(trailError.getText())
          .isEqualTo(shown(apiError("/api/trails/" + user + "?from=2026-03-12&to=2026-03-10")))
          .isEqualTo("to: 'to' must not be before 'from'");
      assertThat(browser.findElements(By.id("trails-timeline"))).isEmpty();
      type(browser, "trails-latest-limit", "1001");
      submit(browser, "trails-latest-show", "trails-latest-result");
      assertThat(browser.findElement(By.id("trails-latest-error")).getText())
          .isEqualTo(shown(apiError("/api/trails/" + user + "/latest?limit=1001")))
          .startsWith("limit: ");
      // Chromium itself logs each 4xx answer as a failed load; the page logs nothing of its own.
      String failed = " - Failed to load resource: the server responded with a status of 400";
      assertThat(ConsoleServer.consoleErrors(browser))
          .containsExactly(
              console.base()
                  + "/api/trails/"
                  + user
                  + "?from=2026-03-12&to=2026-03-10"
                  + failed
                  + " (Bad Request)",
              console.base()
                  + "/api/trails/"
                  + user
                  + "/latest?limit=1001&layout=wide"
                  + failed
                  + " (Bad Request)");

      // A good question after an error: the error goes and the trail is back.
      type(browser, "trails-from", "2026-03-10");
      type(browser, "trails-to", "2026-03-12");
      submit(browser, "trails-show", "trails-trail-result");
      assertThat(browser.findElement(By.id("trails-trail-error")).isDisplayed()).isFalse();
      assertThat(browser.findElements(By.cssSelector("#trails-timeline .trail-mark"))).hasSize(5);

      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }
}
