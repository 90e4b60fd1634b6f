package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The banknote page's branches and probable clones in headless Chromium: two branches declared over
 * REST (Beijing and Urumqi, about 2,400 km apart) appear in the list and on the plot, west of each
 * other as they are; a serial read at both two hours apart is the one clone of the Beijing branch's
 * day sweep, with its distance and speed, from a link and from the form, while a serial that took
 * five days is not; a branch is declared and removed from the page, and a latitude out of range
 * shows the API's error naming the field.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class BanknoteClonesConsolePageIT {
  private static final String DAY = "2031-07-01";

  private final ConsoleServer console;
  private final String run = TestIds.unique("cl");
  private final String beijing = "BJ-" + run;
  private final String urumqi = "UR-" + run;
  private final String atmBeijing = "ATM-BJ/" + run;
  private final String atmUrumqi = "ATM-UR/" + run;
  private final int number = Math.floorMod(run.hashCode(), 100_000_000);
  private final String clone = String.format(Locale.ROOT, "QC%08d", number);
  private final String traveller = String.format(Locale.ROOT, "QD%08d", number);

  BanknoteClonesConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  private CollectorReading reading(
      String serial, String device, String branch, String time, long record) {
    boolean inBeijing = branch.equals(beijing);
    return new CollectorReading(
        serial,
        100,
        "CNY",
        device,
        "atm",
        branch,
        inBeijing ? "withdrawal" : "deposit",
        time,
        "B-" + run,
        "genuine",
        (inBeijing ? "bj-" : "ur-") + time.substring(0, 10) + ".jsonl",
        record);
  }

  private void declare(String branch, double lat, double lon, String name) throws Exception {
    HttpResponse<String> r =
        console.send(
            "PUT",
            branchPath(branch),
            String.format(Locale.ROOT, "{\"lat\":%s,\"lon\":%s,\"name\":\"%s\"}", lat, lon, name));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  private static String branchPath(String branch) {
    return "/api/banknotes/branches/" + URLEncoder.encode(branch, StandardCharsets.UTF_8);
  }

  /**
   * The clone: Beijing at 09:00 and Urumqi at 11:00 (Beijing time) on the day. The traveller:
   * Urumqi five days before, Beijing at 10:00 on the day.
   */
  private void writeReadings() throws Exception {
    List<CollectorReading> readings =
        List.of(
            reading(clone, atmBeijing, beijing, DAY + "T01:00:00Z", 0),
            reading(traveller, atmBeijing, beijing, DAY + "T02:00:00Z", 1),
            reading(clone, atmUrumqi, urumqi, DAY + "T03:00:00Z", 0),
            reading(traveller, atmUrumqi, urumqi, "2031-06-26T02:00:00Z", 0));
    String lines = readings.stream().map(Json::write).collect(Collectors.joining(","));
    HttpResponse<String> r =
        console.send("POST", "/api/banknotes/batches", "{\"notes\":[" + lines + "]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  private static String cell(WebElement row, String field) {
    return row.findElement(By.cssSelector("td[data-field='" + field + "']")).getText();
  }

  private static List<WebElement> cloneRows(WebDriver browser) {
    return browser.findElements(By.cssSelector("#bn-clones tbody tr"));
  }

  private static By branchRow(String branch) {
    return By.cssSelector("#bn-locations tbody tr[data-branch='" + branch + "']");
  }

  private static double plotted(WebDriver browser, String branch, String coordinate) {
    return Double.parseDouble(
        browser
            .findElement(By.cssSelector("#bn-loc-plot circle[data-branch='" + branch + "']"))
            .getDomAttribute(coordinate));
  }

  private static void type(WebDriver browser, String id, String text) {
    WebElement input = browser.findElement(By.id(id));
    input.clear();
    input.sendKeys(text);
  }

  /** The one clone the sweep shows, checked against the API's own answer. */
  private void assertShowsTheClone(WebDriver browser, JsonNode expected) {
    assertThat(cloneRows(browser)).hasSize(1);
    WebElement row = cloneRows(browser).get(0);
    assertThat(row.getDomAttribute("data-serial")).isEqualTo(clone);
    assertThat(cell(row, "reason")).isEqualTo("travel");
    assertThat(cell(row, "earlier"))
        .isEqualTo(DAY + "T01:00:00Z · " + beijing + " · " + atmBeijing);
    assertThat(cell(row, "later")).isEqualTo(DAY + "T03:00:00Z · " + urumqi + " · " + atmUrumqi);
    double km = expected.get("distanceKm").asDouble();
    assertThat(km).isBetween(2_300.0, 2_500.0);
    assertThat(cell(row, "distanceKm")).isEqualTo(String.format(Locale.ROOT, "%.1f km", km));
    assertThat(cell(row, "hours")).isEqualTo("2.00 h");
    assertThat(cell(row, "speedKmh"))
        .isEqualTo(
            String.format(
                Locale.ROOT,
                "%.1f km/h (%.1f× the 900 km/h limit)",
                expected.get("speedKmh").asDouble(),
                expected.get("speedKmh").asDouble() / 900));
    assertThat(
            row.findElement(By.cssSelector("td[data-field='serial'] a[data-link='history']"))
                .getDomAttribute("href"))
        .isEqualTo("#/system/banknote?serial=" + clone);
    assertThat(
            row.findElement(By.cssSelector("td[data-field='serial'] a[data-link='dispute']"))
                .getDomAttribute("href"))
        .isEqualTo("#/system/banknote?dispute=" + clone);
  }

  @Test
  void theBranchesArePlottedAndADaysSweepShowsThePlantedClone() throws Exception {
    declare(beijing, 39.9042, 116.4074, "Beijing " + run);
    declare(urumqi, 43.8256, 87.6168, "Urumqi " + run);
    writeReadings();
    JsonNode sweep =
        Json.mapper()
            .readTree(
                console
                    .send("GET", "/api/banknotes/clones?branch=" + beijing + "&day=" + DAY, null)
                    .body());
    assertThat(sweep.get("clones")).hasSize(1);
    JsonNode expected = sweep.get("clones").get(0);

    WebDriver browser = ConsoleServer.browser();
    try {
      // A link sweeps the day at once.
      console.openLink(browser, "#/system/banknote?clones=" + beijing + "&day=" + DAY);
      ConsoleServer.waitFor(browser).until(b -> cloneRows(b).size() == 1);
      assertShowsTheClone(browser, expected);
      assertThat(browser.findElement(By.id("bn-sweep-summary")).getText())
          .startsWith(beijing + " on " + DAY + ": 2 serials read there, 2 checked");
      ConsoleServer.screenshot(browser, "banknote-clones");

      // The branches: listed, and plotted with Urumqi west and north of Beijing.
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(branchRow(urumqi)).isEmpty());
      WebElement bj = browser.findElement(branchRow(beijing));
      assertThat(cell(bj, "name")).isEqualTo("Beijing " + run);
      assertThat(cell(bj, "lat")).isEqualTo("39.9042");
      assertThat(cell(bj, "lon")).isEqualTo("116.4074");
      assertThat(plotted(browser, urumqi, "cx")).isLessThan(plotted(browser, beijing, "cx"));
      assertThat(plotted(browser, urumqi, "cy")).isLessThan(plotted(browser, beijing, "cy"));
      ((JavascriptExecutor) browser)
          .executeScript(
              "arguments[0].scrollIntoView()", browser.findElement(By.id("bn-loc-section")));
      ConsoleServer.screenshot(browser, "banknote-branches");

      // The form: Urumqi's day has the same clone (its later reading); five days before, none.
      type(browser, "bn-sweep-branch", urumqi);
      browser.findElement(By.id("bn-sweep-show")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElement(By.id("bn-sweep-summary")).getText().startsWith(urumqi));
      assertShowsTheClone(browser, expected);
      type(browser, "bn-sweep-day", "2031-06-26");
      browser.findElement(By.id("bn-sweep-show")).click();
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("bn-sweep-none")).isEmpty());
      assertThat(cloneRows(browser)).isEmpty();
      assertThat(browser.findElement(By.id("bn-sweep-summary")).getText())
          .startsWith(urumqi + " on 2031-06-26: 1 serial read there");

      // The clone's serial opens its history.
      console.openLink(browser, "#/system/banknote?clones=" + beijing + "&day=" + DAY);
      ConsoleServer.waitFor(browser).until(b -> cloneRows(b).size() == 1);
      cloneRows(browser).get(0).findElement(By.cssSelector("a[data-link='history']")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#bn-history tbody tr")).size() == 2);
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }

  /**
   * The page is split into modules beside its script: the console serves a system's {@code
   * <name>-<part>.js} files, and no other name (an unknown part, an unknown system, a path out).
   */
  @Test
  void theConsoleServesThePagesPartsAndNothingElse() throws Exception {
    for (String part : List.of("banknote.js", "banknote-common.js", "banknote-clones.js")) {
      HttpResponse<String> r = console.send("GET", "/console/systems/" + part, null);
      assertThat(r.statusCode()).as(part).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("application/javascript"));
    }
    for (String refused :
        List.of(
            "banknote-nothing.js",
            "nosuch-clones.js",
            "banknote-..%2Fbanknote.js",
            "banknote-clones")) {
      assertThat(console.send("GET", "/console/systems/" + refused, null).statusCode())
          .as(refused)
          .isEqualTo(404);
    }
  }

  @Test
  void aBranchIsDeclaredAndRemovedFromThePageAndABadOneShowsTheApisError() throws Exception {
    String shanghai = "SH-" + run;
    WebDriver browser = ConsoleServer.browser();
    try {
      browser.get(console.base() + "/#/system/banknote");
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("bn-loc-save")).isEmpty());
      type(browser, "bn-loc-id", shanghai);
      type(browser, "bn-loc-lat", "31.2304");
      type(browser, "bn-loc-lon", "121.4737");
      type(browser, "bn-loc-name", "Shanghai, Bund");
      browser.findElement(By.id("bn-loc-save")).click();
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(branchRow(shanghai)).isEmpty());
      assertThat(cell(browser.findElement(branchRow(shanghai)), "name"))
          .isEqualTo("Shanghai, Bund");
      JsonNode stored =
          Json.mapper().readTree(console.send("GET", branchPath(shanghai), null).body());
      assertThat(stored.get("lat").asDouble()).isEqualTo(31.2304);
      assertThat(stored.get("lon").asDouble()).isEqualTo(121.4737);
      assertThat(
              browser.findElements(
                  By.cssSelector("#bn-loc-plot circle[data-branch='" + shanghai + "']")))
          .hasSize(1);

      // Edited from its row: the form holds it, a new name replaces the old.
      browser.findElement(By.cssSelector("[data-edit-branch='" + shanghai + "']")).click();
      assertThat(browser.findElement(By.id("bn-loc-lat")).getDomProperty("value"))
          .isEqualTo("31.2304");
      type(browser, "bn-loc-name", "Shanghai, Lujiazui");
      browser.findElement(By.id("bn-loc-save")).click();
      // The list is drawn again after the write: a row found before that is gone.
      ConsoleServer.waitFor(browser)
          .ignoring(StaleElementReferenceException.class)
          .until(
              b -> cell(b.findElement(branchRow(shanghai)), "name").equals("Shanghai, Lujiazui"));

      // Removed from its row: gone from the list and from the API.
      browser.findElement(By.cssSelector("[data-remove-branch='" + shanghai + "']")).click();
      ConsoleServer.waitFor(browser).until(b -> b.findElements(branchRow(shanghai)).isEmpty());
      assertThat(console.send("GET", branchPath(shanghai), null).statusCode()).isEqualTo(404);
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();

      // A latitude out of range: the API's error, naming the field; nothing stored.
      String bad = "BAD-" + run;
      HttpResponse<String> refused =
          console.send("PUT", branchPath(bad), "{\"lat\":95,\"lon\":10}");
      assertThat(refused.statusCode()).isEqualTo(400);
      JsonNode error = Json.mapper().readTree(refused.body());
      assertThat(error.get("field").asText()).isEqualTo("lat");
      type(browser, "bn-loc-id", bad);
      type(browser, "bn-loc-lat", "95");
      type(browser, "bn-loc-lon", "10");
      browser.findElement(By.id("bn-loc-save")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElement(By.id("bn-loc-error"))
                      .getText()
                      .equals("lat: " + error.get("error").asText()));
      assertThat(browser.findElements(branchRow(bad))).isEmpty();
      ConsoleServer.assertOnlyRefused(browser, "/api/banknotes/branches/" + bad, 400);
    } finally {
      browser.quit();
    }
  }
}
