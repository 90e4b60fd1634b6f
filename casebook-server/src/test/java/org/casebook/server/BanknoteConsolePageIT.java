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
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The banknote system's console page in headless Chromium: records written through the collector
 * (JSON lines, as a teller machine's file holds them) appear field by field in a serial's history
 * and its timeline, in the device's window page by page, and in the branch's suspects counted day
 * by day; bad input shows the API's own error text, naming the field.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class BanknoteConsolePageIT {
  private final ConsoleServer console;

  /** Unique to this test: the server and HBase are shared with other test classes. */
  private final String run = TestIds.unique("cp");

  private final String atm = "ATM/" + run;
  private final String sorter = "SORTER/" + run;
  private final String branch = "br-" + run;
  private final String otherBranch = "br2-" + run;
  private final String serial = uniqueSerial();
  private final String otherSerial = "Z" + serial.substring(1);

  BanknoteConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  /** A 10-character RMB-like serial no other test writes (two letters, eight digits). */
  private static String uniqueSerial() {
    return String.format(Locale.ROOT, "QC%08d", Math.floorMod(System.nanoTime(), 100_000_000L));
  }

  /** One reading, as a line of a JSON-lines file (the collector's note format). */
  private record Reading(
      String serial,
      int denomination,
      String currency,
      int edition,
      String device,
      String deviceKind,
      String branch,
      String operation,
      String time,
      String batch,
      String verdict,
      List<Integer> errorCodes,
      String source,
      long record) {
    String jsonLine() {
      return Json.write(this);
    }
  }

  /**
   * The note's readings in the order written: deposited at the ATM, sorted at another branch,
   * withdrawn at the ATM and found suspect; and another note the ATM took in between.
   */
  private List<Reading> readings() {
    String atmFile = run + "-atm.jsonl";
    String sorterFile = run + "-sorter.jsonl";
    return List.of(
        new Reading(
            serial,
            100,
            "CNY",
            2015,
            atm,
            "atm",
            branch,
            "deposit",
            "2031-05-10T04:00:00Z",
            "T1-" + run,
            "genuine",
            List.of(0, 0, 0),
            atmFile,
            0),
        new Reading(
            otherSerial,
            50,
            "CNY",
            2019,
            atm,
            "atm",
            branch,
            "deposit",
            "2031-05-10T04:00:05Z",
            "T1-" + run,
            "suspect",
            List.of(1, 0, 0),
            atmFile,
            1),
        new Reading(
            serial,
            100,
            "CNY",
            2015,
            sorter,
            "sorter",
            otherBranch,
            "sorting",
            "2031-05-11T02:30:00Z",
            "B17-" + run,
            "genuine",
            List.of(21845, 21781, 32773),
            sorterFile,
            41),
        new Reading(
            serial,
            100,
            "CNY",
            2015,
            atm,
            "atm",
            branch,
            "withdrawal",
            "2031-05-12T04:10:00Z",
            "T2-" + run,
            "suspect",
            List.of(3, 0, 0),
            atmFile,
            2));
  }

  private void writeThroughTheCollector(List<Reading> readings) throws Exception {
    String lines = readings.stream().map(Reading::jsonLine).collect(Collectors.joining(","));
    HttpResponse<String> r =
        console.send("POST", "/api/banknotes/batches", "{\"notes\":[" + lines + "]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(Json.mapper().readTree(r.body()).get("stored").asInt()).isEqualTo(readings.size());
  }

  private JsonNode apiError(String path) throws Exception {
    return console.refused(path, 400);
  }

  private static WebDriver openPage(ConsoleServer console) {
    WebDriver browser = ConsoleServer.browser();
    browser.get(console.base() + "/#/system/banknote");
    ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("bn-lookup")).isEmpty());
    return browser;
  }

  private static void type(WebDriver browser, String id, String text) {
    WebElement input = browser.findElement(By.id(id));
    input.clear();
    input.sendKeys(text);
  }

  private static List<WebElement> rows(WebDriver browser, String tableId) {
    return browser.findElements(By.cssSelector("#" + tableId + " tbody tr"));
  }

  /** The row showing {@code r}, found by the record's identity. */
  private static WebElement rowOf(WebDriver browser, String tableId, Reading r) {
    return browser.findElement(
        By.cssSelector(
            String.format(
                Locale.ROOT,
                "#%s tbody tr[data-device='%s'][data-source='%s'][data-record='%d']",
                tableId,
                r.device(),
                r.source(),
                r.record())));
  }

  private static String cell(WebElement row, String field) {
    return row.findElement(By.cssSelector("td[data-field='" + field + "']")).getText();
  }

  /** Every field the tables show, exactly as written. */
  private static void assertShows(WebElement row, Reading r, boolean withSerial) {
    if (withSerial) {
      assertThat(cell(row, "serial")).isEqualTo(r.serial());
    }
    assertThat(cell(row, "time")).isEqualTo(r.time());
    assertThat(cell(row, "device")).isEqualTo(r.device());
    assertThat(cell(row, "deviceKind")).isEqualTo(r.deviceKind());
    assertThat(cell(row, "branch")).isEqualTo(r.branch());
    assertThat(cell(row, "operation")).isEqualTo(r.operation());
    assertThat(cell(row, "batch")).isEqualTo(r.batch());
    assertThat(cell(row, "verdict")).isEqualTo(r.verdict());
    assertThat(cell(row, "denomination")).isEqualTo(r.denomination() + " " + r.currency());
    assertThat(cell(row, "edition")).isEqualTo(String.valueOf(r.edition()));
    assertThat(cell(row, "errorCodes"))
        .isEqualTo(r.errorCodes().stream().map(String::valueOf).collect(Collectors.joining(", ")));
    assertThat(cell(row, "source")).isEqualTo(r.source() + " #" + r.record());
  }

  private static List<String> recordsShown(WebDriver browser, String tableId) {
    return rows(browser, tableId).stream()
        .map(tr -> tr.getDomAttribute("data-device") + " #" + tr.getDomAttribute("data-record"))
        .toList();
  }

  private static String id(Reading r) {
    return r.device() + " #" + r.record();
  }

  @Test
  void aNotesHistoryADevicesWindowAndABranchsSuspectsShowWhatTheCollectorStored() throws Exception {
    List<Reading> written = readings();
    writeThroughTheCollector(written);
    Reading deposit = written.get(0);
    Reading otherNote = written.get(1);
    Reading sorted = written.get(2);
    Reading withdrawal = written.get(3);

    WebDriver browser = openPage(console);
    try {
      // A link looks the serial up at once.
      console.openLink(browser, "#/system/banknote?serial=" + serial);
      assertThat(rows(browser, "bn-history")).hasSize(3);
      browser.get("about:blank");
      browser.get(console.base() + "/#/system/banknote");
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("bn-lookup")).isEmpty());

      // A serial as a customer might type it: the API upper-cases letters.
      type(browser, "bn-serial", serial.toLowerCase(Locale.ROOT));
      browser.findElement(By.id("bn-lookup")).click();
      ConsoleServer.waitFor(browser).until(b -> rows(b, "bn-history").size() == 3);
      assertThat(recordsShown(browser, "bn-history"))
          .as("newest first")
          .containsExactly(id(withdrawal), id(sorted), id(deposit));
      for (Reading r : List.of(deposit, sorted, withdrawal)) {
        assertShows(rowOf(browser, "bn-history", r), r, false);
      }
      assertThat(browser.findElement(By.id("bn-history-summary")).getText()).contains(serial);
      assertThat(browser.findElement(By.id("bn-history-page")).getText())
          .isEqualTo("page 1 · 3 notes");
      assertThat(browser.findElement(By.id("bn-history-next")).isEnabled()).isFalse();
      // The timeline: one lane per branch, one dot per reading lettered by the device's kind.
      assertThat(
              browser.findElements(By.cssSelector("#bn-timeline .bn-lane")).stream()
                  .map(l -> l.getDomAttribute("data-branch"))
                  .toList())
          .containsExactlyInAnyOrder(branch, otherBranch);
      assertThat(
              browser
                  .findElements(
                      By.cssSelector("#bn-timeline .bn-lane[data-branch='" + branch + "'] .bn-dot"))
                  .stream()
                  .map(d -> d.getText() + " " + d.getDomAttribute("class"))
                  .toList())
          .containsExactlyInAnyOrder("A bn-dot genuine", "A bn-dot suspect");
      assertThat(
              browser
                  .findElement(
                      By.cssSelector(
                          "#bn-timeline .bn-lane[data-branch='" + otherBranch + "'] .bn-dot"))
                  .getDomAttribute("data-record"))
          .isEqualTo(String.valueOf(sorted.record()));

      // The ATM's window, two notes a page: both notes it read, oldest first.
      type(browser, "bn-device", atm);
      type(browser, "bn-from", "2031-05-10");
      type(browser, "bn-to", "2031-05-13");
      type(browser, "bn-device-limit", "2");
      browser.findElement(By.id("bn-device-show")).click();
      ConsoleServer.waitFor(browser).until(b -> rows(b, "bn-device-notes").size() == 2);
      assertThat(recordsShown(browser, "bn-device-notes"))
          .containsExactly(id(deposit), id(otherNote));
      assertShows(rowOf(browser, "bn-device-notes", deposit), deposit, true);
      assertShows(rowOf(browser, "bn-device-notes", otherNote), otherNote, true);
      assertThat(browser.findElement(By.id("bn-device-page")).getText())
          .isEqualTo("page 1 · 2 notes · more follow");
      browser.findElement(By.id("bn-device-next")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElement(By.id("bn-device-page")).getText().startsWith("page 2"));
      assertThat(recordsShown(browser, "bn-device-notes")).containsExactly(id(withdrawal));
      assertShows(rowOf(browser, "bn-device-notes", withdrawal), withdrawal, true);
      assertThat(browser.findElement(By.id("bn-device-next")).isEnabled()).isFalse();
      browser.findElement(By.id("bn-device-prev")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElement(By.id("bn-device-page")).getText().startsWith("page 1"));
      assertThat(recordsShown(browser, "bn-device-notes"))
          .containsExactly(id(deposit), id(otherNote));

      // The branch's suspects over three days: counted per day, charted, listed for a day.
      type(browser, "bn-branch", branch);
      type(browser, "bn-first-day", "2031-05-10");
      type(browser, "bn-last-day", "2031-05-12");
      browser.findElement(By.id("bn-suspects-show")).click();
      ConsoleServer.waitFor(browser).until(b -> rows(b, "bn-suspects").size() == 1);
      assertThat(
              rows(browser, "bn-suspect-days").stream()
                  .map(tr -> cell(tr, "day") + " " + cell(tr, "count"))
                  .toList())
          .containsExactly("2031-05-10 1", "2031-05-11 0", "2031-05-12 1");
      assertThat(browser.findElements(By.cssSelector("#bn-suspects-chart canvas"))).isNotEmpty();
      assertThat(browser.findElement(By.id("bn-suspects-day")).getText())
          .isEqualTo("Suspect notes of " + branch + " on 2031-05-10");
      assertShows(rowOf(browser, "bn-suspects", otherNote), otherNote, true);
      browser.findElement(By.cssSelector("[data-show-day='2031-05-12']")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElement(By.id("bn-suspects-day")).getText().endsWith("2031-05-12"));
      assertThat(recordsShown(browser, "bn-suspects")).containsExactly(id(withdrawal));
      assertShows(rowOf(browser, "bn-suspects", withdrawal), withdrawal, true);

      ConsoleServer.screenshot(browser, "banknote");
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }

  @Test
  void badInputShowsTheApisErrorNamingTheField() throws Exception {
    String tooLong = "QC1234567890123";
    String badCharacter = "QC12€34567";
    String enc = URLEncoder.encode(badCharacter, StandardCharsets.UTF_8);
    WebDriver browser = openPage(console);
    try {
      for (String[] bad :
          List.of(
              new String[] {tooLong, "/api/banknotes/" + tooLong},
              new String[] {badCharacter, "/api/banknotes/" + enc})) {
        JsonNode error = apiError(bad[1]);
        assertThat(error.get("field").asText()).isEqualTo("serial");
        String expected = "serial: " + error.get("error").asText();
        type(browser, "bn-serial", bad[0]);
        browser.findElement(By.id("bn-lookup")).click();
        ConsoleServer.waitFor(browser)
            .until(b -> b.findElement(By.id("bn-history-error")).getText().equals(expected));
        assertThat(browser.findElements(By.id("bn-history"))).isEmpty();
      }
      assertThat(browser.findElement(By.id("bn-history-error")).getText())
          .isEqualTo(
              "serial: serial may hold only printable ASCII characters; U+20AC at position 5");

      JsonNode badFrom =
          apiError("/api/banknotes/devices/" + run + "?from=yesterday&to=2031-05-13");
      type(browser, "bn-device", run);
      type(browser, "bn-from", "yesterday");
      type(browser, "bn-to", "2031-05-13");
      browser.findElement(By.id("bn-device-show")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElement(By.id("bn-device-error"))
                      .getText()
                      .equals("from: " + badFrom.get("error").asText()));

      JsonNode badDay = apiError("/api/banknotes/suspects?branch=" + run + "&day=2031-13-01");
      type(browser, "bn-branch", run);
      type(browser, "bn-first-day", "2031-13-01");
      browser.findElement(By.id("bn-suspects-show")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElement(By.id("bn-suspects-error"))
                      .getText()
                      .equals("day: " + badDay.get("error").asText()));

      // Chromium logs every answer of 400 as a failed resource, at SEVERE, whatever the page does
      // with it: these four, one for each bad question, and nothing else.
      String failedResource =
          "^\\Q"
              + console.base()
              + "/api/banknotes/\\E\\S+ - Failed to load resource: the server responded with a"
              + " status of 400 \\(Bad Request\\)$";
      assertThat(ConsoleServer.consoleErrors(browser))
          .hasSize(4)
          .allSatisfy(e -> assertThat(e).matches(failedResource));

      // A good question afterwards clears the error.
      type(browser, "bn-serial", serial);
      browser.findElement(By.id("bn-lookup")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElement(By.id("bn-history-summary"))
                      .getText()
                      .equals("No record of serial " + serial + "."));
      assertThat(browser.findElement(By.id("bn-history-error")).isDisplayed()).isFalse();

      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }

  @Test
  void theWatchListPanelAddsListsAndRemovesEntriesAndShowsADaysHits() throws Exception {
    String watched = "QH" + serial.substring(2);
    String pattern = watched.substring(0, 4) + "??" + watched.substring(6);
    WebDriver browser = openPage(console);
    try {
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("bn-watch-add")).isEmpty());
      type(browser, "bn-watch-pattern", pattern.toLowerCase(Locale.ROOT));
      type(browser, "bn-watch-note", "counterfeit run, PBOC notice");
      type(browser, "bn-watch-by", "ops-" + run);
      browser.findElement(By.id("bn-watch-add")).click();
      By entry = By.cssSelector("#bn-watch-entries tbody tr[data-pattern='" + pattern + "']");
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(entry).isEmpty());
      WebElement row = browser.findElement(entry);
      assertThat(cell(row, "denomination")).isEqualTo("any");
      assertThat(cell(row, "note")).isEqualTo("counterfeit run, PBOC notice");
      assertThat(cell(row, "addedBy")).isEqualTo("ops-" + run);
      String entryId = row.getDomAttribute("data-id");

      // A note the list watches, written through the collector, is a hit of its branch's day.
      Reading hit =
          new Reading(
              watched,
              100,
              "CNY",
              2015,
              atm,
              "atm",
              branch,
              "deposit",
              "2031-05-20T04:00:00Z",
              "T9-" + run,
              "genuine",
              List.of(0, 0, 0),
              run + "-watch.jsonl",
              0);
      writeThroughTheCollector(List.of(hit));
      type(browser, "bn-hits-branch", branch);
      type(browser, "bn-hits-day", "2031-05-20");
      browser.findElement(By.id("bn-hits-show")).click();
      ConsoleServer.waitFor(browser).until(b -> rows(b, "bn-hits").size() == 1);
      WebElement hitRow = rowOf(browser, "bn-hits", hit);
      assertThat(cell(hitRow, "pattern")).isEqualTo(pattern);
      assertShows(hitRow, hit, true);

      // Removed: gone from the list.
      browser.findElement(By.cssSelector("[data-remove='" + entryId + "']")).click();
      ConsoleServer.waitFor(browser).until(b -> b.findElements(entry).isEmpty());
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();

      // A pattern the API refuses: its error, naming the field.
      JsonNode refused =
          Json.mapper()
              .readTree(
                  console
                      .send(
                          "POST",
                          "/api/banknotes/watch",
                          "{\"pattern\":\"QH1?\",\"note\":\"n\",\"addedBy\":\"ops\"}")
                      .body());
      assertThat(refused.get("field").asText()).isEqualTo("pattern");
      type(browser, "bn-watch-pattern", "QH1?");
      browser.findElement(By.id("bn-watch-add")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElement(By.id("bn-watch-error"))
                      .getText()
                      .equals("pattern: " + refused.get("error").asText()));
    } finally {
      browser.quit();
    }
  }
}
