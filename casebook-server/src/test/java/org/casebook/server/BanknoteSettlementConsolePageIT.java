package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The banknote page's daily settlement in headless Chromium: notes written through the collector
 * appear in a branch's day as one line per device and denomination with their counts and files, the
 * notes per hour as a chart, a CSV link; declaring each device delivered from the page closes the
 * day; a bad day shows the API's error naming the field.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class BanknoteSettlementConsolePageIT {
  private final ConsoleServer console;
  private final String run = TestIds.unique("sp");
  private final String atm = "ATM/" + run;
  private final String sorter = "SORTER/" + run;
  private final String branch = "br-" + run;

  BanknoteSettlementConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  /**
   * The ATM pays out five 100s at 09:xx and takes two 50s at 14:xx (Beijing), one suspect; the
   * sorter sorts four 100s at 14:xx.
   */
  private List<CollectorReading> readings() {
    int base = Math.floorMod(run.hashCode(), 10_000) * 1_000;
    List<CollectorReading> out = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      out.add(
          reading(
              base + i,
              100,
              atm,
              "atm",
              "withdrawal",
              "2031-06-01T01:1" + i + ":00Z",
              "genuine",
              "atm-1.jsonl",
              i));
    }
    for (int i = 0; i < 2; i++) {
      out.add(
          reading(
              base + 10 + i,
              50,
              atm,
              "atm",
              "deposit",
              "2031-06-01T06:0" + i + ":00Z",
              i == 1 ? "suspect" : "genuine",
              "atm-2.jsonl",
              i));
    }
    for (int i = 0; i < 4; i++) {
      out.add(
          reading(
              base + 20 + i,
              100,
              sorter,
              "sorter",
              "sorting",
              "2031-06-01T06:3" + i + ":00Z",
              "genuine",
              "s-1.jsonl",
              i));
    }
    return out;
  }

  private CollectorReading reading(
      int n,
      int denomination,
      String device,
      String kind,
      String operation,
      String time,
      String verdict,
      String source,
      long record) {
    return new CollectorReading(
        String.format(Locale.ROOT, "QP%08d", n),
        denomination,
        "CNY",
        device,
        kind,
        branch,
        operation,
        time,
        "B-" + run,
        verdict,
        source,
        record);
  }

  /**
   * A dispute pack from a link: the chain's links in order (the cassette inferred), the sorter's
   * serial image drawn, the return after the payout.
   */
  @Test
  void aDisputePackShowsTheChainInOrderWithTheSerialImage() throws Exception {
    String serial =
        String.format(Locale.ROOT, "QK%08d", Math.floorMod(run.hashCode(), 100_000_000));
    byte[] image = new byte[8 + 10 * 128];
    image[0] = 10;
    image[2] = 32;
    image[4] = 32;
    image[8 + 3] = (byte) 0x80;
    String imageJson = java.util.Base64.getEncoder().encodeToString(image);
    String[][] steps = {
      {atm, "atm", "deposit", "2031-06-02T01:00:00Z", "d.fsn", ""},
      {sorter, "sorter", "sorting", "2031-06-02T03:00:00Z", "s.fsn", imageJson},
      {"ATM2/" + run, "atm", "withdrawal", "2031-06-03T03:00:00Z", "w.fsn", ""},
      {"TELLER/" + run, "teller", "counting", "2031-06-03T05:00:00Z", "t.fsn", ""},
    };
    List<String> notes = new ArrayList<>();
    for (String[] st : steps) {
      CollectorReading r =
          new CollectorReading(
              serial,
              100,
              "CNY",
              st[0],
              st[1],
              branch,
              st[2],
              st[3],
              "B-" + run,
              "genuine",
              st[4],
              0);
      String json = Json.write(r);
      notes.add(
          st[5].isEmpty()
              ? json
              : json.substring(0, json.length() - 1) + ",\"image\":\"" + st[5] + "\"}");
    }
    HttpResponse<String> stored =
        console.send(
            "POST", "/api/banknotes/batches", "{\"notes\":[" + String.join(",", notes) + "]}");
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

    WebDriver browser = ConsoleServer.browser();
    try {
      console.openLink(browser, "#/system/banknote?dispute=" + serial);
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#bn-dispute-chain li")).size() == 4);
      assertThat(
              browser.findElements(By.cssSelector("#bn-dispute-chain li")).stream()
                  .map(li -> li.getDomAttribute("data-stage"))
                  .toList())
          .containsExactly("deposit", "sorting", "cassette", "payout");
      assertThat(
              browser.findElements(
                  By.cssSelector("#bn-dispute-chain li[data-stage='sorting'] canvas")))
          .hasSize(1);
      assertThat(
              browser.findElements(
                  By.cssSelector("#bn-dispute-chain li[data-stage='deposit'] canvas")))
          .isEmpty();
      assertThat(browser.findElements(By.cssSelector("#bn-dispute-after li"))).hasSize(1);
      assertThat(browser.findElement(By.id("bn-dispute-summary")).getText())
          .contains("paid out by ATM2/" + run);
      ConsoleServer.screenshot(browser, "banknote-dispute");
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }

  private static String cell(WebElement row, String field) {
    return row.findElement(By.cssSelector("td[data-field='" + field + "']")).getText();
  }

  private static WebElement line(WebDriver browser, String device, int denomination) {
    return browser.findElement(
        By.cssSelector(
            "#bn-settlement tbody tr[data-device='"
                + device
                + "'][data-denomination='"
                + denomination
                + "']"));
  }

  @Test
  void aBranchsDayIsSettledChartedAndClosedFromThePage() throws Exception {
    String lines = readings().stream().map(Json::write).collect(Collectors.joining(","));
    HttpResponse<String> stored =
        console.send("POST", "/api/banknotes/batches", "{\"notes\":[" + lines + "]}");
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

    WebDriver browser = ConsoleServer.browser();
    try {
      // A link settles the day at once.
      console.openLink(browser, "#/system/banknote?branch=" + branch + "&day=2031-06-01");
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#bn-settlement tbody tr")).size() == 3);
      assertThat(browser.findElement(By.id("bn-settle-status")).getDomAttribute("data-status"))
          .isEqualTo("open");
      WebElement atm100 = line(browser, atm, 100);
      assertThat(cell(atm100, "deviceKind")).isEqualTo("atm");
      assertThat(cell(atm100, "denomination")).isEqualTo("100 CNY");
      assertThat(cell(atm100, "withdrawal")).isEqualTo("5");
      assertThat(cell(atm100, "deposit")).isEqualTo("0");
      assertThat(cell(atm100, "total")).isEqualTo("5");
      assertThat(cell(atm100, "files")).isEqualTo("atm-1.jsonl (5)");
      WebElement atm50 = line(browser, atm, 50);
      assertThat(cell(atm50, "deposit")).isEqualTo("2");
      assertThat(cell(atm50, "suspects")).isEqualTo("1");
      assertThat(cell(line(browser, sorter, 100), "sorting")).isEqualTo("4");
      WebElement total = browser.findElement(By.id("bn-settle-total"));
      assertThat(cell(total, "total")).isEqualTo("11");
      assertThat(cell(total, "suspects")).isEqualTo("1");
      assertThat(browser.findElements(By.cssSelector("#bn-settle-chart canvas"))).isNotEmpty();
      String csv = browser.findElement(By.id("bn-settle-csv")).getDomAttribute("href");
      assertThat(csv).contains("format=csv").contains("day=2031-06-01");
      HttpResponse<String> download = console.send("GET", csv, null);
      assertThat(download.statusCode()).isEqualTo(200);
      assertThat(download.body().split("\r\n")).hasSize(4);

      // Each device declared delivered from the page: the day closes.
      for (String device : List.of(atm, sorter)) {
        browser.findElement(By.cssSelector("[data-declare='" + device + "']")).click();
        ConsoleServer.waitFor(browser)
            .until(
                b -> b.findElements(By.cssSelector("[data-declare='" + device + "']")).isEmpty());
      }
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  "closed"
                      .equals(
                          b.findElement(By.id("bn-settle-status")).getDomAttribute("data-status")));
      JsonNode settled =
          Json.mapper()
              .readTree(
                  console
                      .send(
                          "GET",
                          "/api/banknotes/settlement?branch="
                              + URLEncoder.encode(branch, StandardCharsets.UTF_8)
                              + "&day=2031-06-01",
                          null)
                      .body());
      assertThat(settled.get("status").asText()).isEqualTo("closed");
      assertThat(browser.findElement(By.id("bn-settle-summary")).getText())
          .contains("closed at " + settled.get("closedAt").asText());
      ConsoleServer.screenshot(browser, "banknote-settlement");
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();

      // A day the API cannot read: its error, naming the field.
      JsonNode bad =
          console.refused("/api/banknotes/settlement?branch=" + branch + "&day=2031-06-31", 400);
      browser.findElement(By.id("bn-settle-day")).clear();
      browser.findElement(By.id("bn-settle-day")).sendKeys("2031-06-31");
      browser.findElement(By.id("bn-settle-show")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElement(By.id("bn-settle-error"))
                      .getText()
                      .equals("day: " + bad.get("error").asText()));
    } finally {
      browser.quit();
    }
  }
}
