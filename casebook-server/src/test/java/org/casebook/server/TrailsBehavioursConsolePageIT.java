package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The trails page in headless Chromium with a behaviour declared over REST: the registry's table
 * lists it with its id and fields beside the four built-ins, a trail holding it draws it in a lane
 * of its own, and a field a line's behaviour does not declare shows as extra.NAME.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class TrailsBehavioursConsolePageIT {
  private final ConsoleServer console;

  TrailsBehavioursConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  @Test
  void aDeclaredBehaviourHasItsLaneAndItsRowInTheRegistry() throws Exception {
    String name =
        ("watch_" + TestIds.unique("b").replaceAll("[^A-Za-z0-9]", "")).toLowerCase(Locale.ROOT);
    String behaviour = name.length() > 32 ? name.substring(0, 32) : name;
    String uid = TestIds.unique("console-behaviours") + "/x";
    HttpResponse<String> declared =
        console.send(
            "PUT",
            "/api/trails/behaviours/" + behaviour,
            "{\"fields\":[{\"name\":\"seconds\",\"kind\":\"COUNT\"},"
                + "{\"name\":\"screen\",\"kind\":\"TEXT\"}]}");
    assertThat(declared.statusCode()).as(declared.body()).isEqualTo(200);
    String lines =
        String.join(
            "\n",
            "{\"uid\":\""
                + uid
                + "\",\"type\":\"play\",\"ts\":\"2026-04-02T20:00:00Z\",\"contentId\":\"c1\","
                + "\"channel\":\"news\",\"start\":0,\"duration\":60,\"campaign\":\"spring\"}",
            "{\"uid\":\""
                + uid
                + "\",\"type\":\""
                + behaviour
                + "\",\"ts\":\"2026-04-02T20:01:00Z\",\"seconds\":42,\"screen\":\"tv\"}");
    HttpResponse<String> stored = console.send("POST", "/api/trails/events", lines);
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(stored.body()).contains("\"accepted\":2");

    WebDriver browser = ConsoleServer.browser();
    try {
      console.openLink(
          browser,
          "#/system/trails?uid="
              + URLEncoder.encode(uid, StandardCharsets.UTF_8)
              + "&from=2026-04-02&to=2026-04-02");
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  "done"
                      .equals(
                          b.findElement(By.id("trails-behaviours-result"))
                              .getDomAttribute("data-state")));

      // The registry: the built-ins, then the declared behaviour with its id and fields.
      List<WebElement> registry =
          browser.findElements(By.cssSelector("#trails-behaviours-table tbody tr"));
      List<String> names = registry.stream().map(r -> r.getDomAttribute("data-behaviour")).toList();
      assertThat(names).startsWith("login", "play", "visit", "order").contains(behaviour);
      WebElement row =
          browser.findElement(
              By.cssSelector("#trails-behaviours-table tr[data-behaviour='" + behaviour + "']"));
      List<String> cells =
          row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
      assertThat(cells.get(0)).isEqualTo(behaviour);
      assertThat(Integer.parseInt(cells.get(1))).isBetween(5, 255);
      assertThat(cells.subList(2, 4)).containsExactly("declared", "seconds (count), screen (text)");

      // The trail: the declared behaviour in a lane of its own, its fields and the extra field.
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  "done"
                      .equals(
                          b.findElement(By.id("trails-trail-result"))
                              .getDomAttribute("data-state")));
      WebElement timeline = browser.findElement(By.id("trails-timeline"));
      List<WebElement> marks =
          timeline.findElements(By.cssSelector("[data-lane='" + behaviour + "'] .trail-mark"));
      assertThat(marks).hasSize(1);
      assertThat(marks.get(0).getDomAttribute("data-ts")).isEqualTo("2026-04-02T20:01:00Z");
      assertThat(marks.get(0).getDomProperty("title")).contains("\nseconds: 42", "\nscreen: tv");
      List<WebElement> rows = browser.findElements(By.cssSelector("#trails-events tbody tr"));
      assertThat(rows.stream().map(r -> r.getDomAttribute("data-type")).toList())
          .containsExactly("play", behaviour);
      assertThat(rows.get(0).getText()).contains("extra.campaign=spring");
      assertThat(rows.get(1).getText()).contains("seconds=42", "screen=tv");
      // Its box among the behaviours to ask for, once the registry was read.
      assertThat(browser.findElements(By.id("trails-type-" + behaviour))).hasSize(1);
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }
}
