package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The tsdb console page in headless Chromium: series written through {@code POST /api/put} come
 * back through the page's query form as one chart series and one table row each, with their point
 * counts and last values; a downsample through the form changes them as the API does; a malformed
 * downsample and an unknown metric show the API's error text.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class TsdbConsolePageIT {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ConsoleServer console;

  TsdbConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  /** One written series: its host tag, its data centre tag and its values, a minute apart. */
  private record Written(String host, String dc, List<Object> values) {}

  private void put(String metric, List<Written> series, long firstSecond) throws Exception {
    List<Map<String, Object>> points = new ArrayList<>();
    for (Written w : series) {
      for (int i = 0; i < w.values().size(); i++) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("metric", metric);
        p.put("timestamp", firstSecond + 60L * i);
        p.put("value", w.values().get(i));
        p.put("tags", Map.of("host", w.host(), "dc", w.dc()));
        points.add(p);
      }
    }
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(console.base() + "/api/put?sync"))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(points)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  /** Clicks {@code control} (which runs a query) and waits for the page to show the answer. */
  private static void runQuery(WebDriver browser, WebElement control) {
    String before = browser.findElement(By.id("tsdb-query")).getDomAttribute("data-answered");
    control.click();
    ConsoleServer.waitFor(browser)
        .until(
            b -> {
              String now = b.findElement(By.id("tsdb-query")).getDomAttribute("data-answered");
              return now != null && !now.equals(before);
            });
  }

  /** The series table: tags → {points, last value}. */
  private static Map<String, List<String>> seriesTable(WebDriver browser) {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (WebElement row : browser.findElements(By.cssSelector("#tsdb-series tbody tr"))) {
      rows.put(
          row.findElement(By.className("tsdb-tags")).getText(),
          List.of(
              row.findElement(By.className("tsdb-points")).getText(),
              row.findElement(By.className("tsdb-last")).getText()));
    }
    return rows;
  }

  /** The chart legend's series labels (without the time axis). */
  private static List<String> legend(WebDriver browser) {
    List<String> labels = new ArrayList<>();
    List<WebElement> rows =
        browser.findElements(By.cssSelector("#tsdb-chart .u-legend tr.u-series .u-label"));
    for (int i = 1; i < rows.size(); i++) {
      labels.add(rows.get(i).getText());
    }
    return labels;
  }

  /**
   * Chromium itself logs every answer with a 4xx status as a network error, whatever the page does
   * with it: after a refused query that one line, and nothing else, is expected.
   */
  private void assertOnlyTheRefusedQueryWasLogged(WebDriver browser) {
    assertThat(ConsoleServer.consoleErrors(browser))
        .containsExactly(
            console.base()
                + "/api/query - Failed to load resource: the server responded with a status of 400"
                + " (Bad Request)");
  }

  private static void type(WebElement input, String text) {
    input.clear();
    input.sendKeys(text);
  }

  @Test
  void theQueryFormChartsWrittenSeriesAndShowsTheApisErrors() throws Exception {
    String metric = "console.page." + Long.toString(System.nanoTime(), 36);
    // Within the last hour, so that the page's "1h" preset covers every point.
    long first = Instant.now().getEpochSecond() - 40 * 60;
    put(
        metric,
        List.of(
            new Written("alpha", "lga", List.of(1, 2, 3, 17)),
            new Written("beta", "lga", List.of(5, 7, 2.5)),
            new Written("gamma", "lga", List.of(-4, 1_000_000)),
            // Another data centre: the dc=lga filter leaves it out.
            new Written("delta", "jfk", List.of(99, 98))),
        first);

    WebDriver browser = ConsoleServer.browser();
    try {
      // A link plots its query at once: every series summed, one point over the whole range.
      console.openLink(browser, "#/system/tsdb?m=" + metric + "&start=1h-ago&ds=0all-max");
      assertThat(browser.findElement(By.id("tsdb-summary")).getText()).startsWith("1 series, 1 ");
      assertThat(browser.findElements(By.cssSelector("#tsdb-series tbody tr"))).hasSize(1);
      assertThat(browser.findElements(By.cssSelector("#tsdb-chart canvas"))).isNotEmpty();

      browser.get("about:blank");
      browser.get(console.base() + "/#/system/tsdb");
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  !b.findElements(By.cssSelector("#tsdb-query[data-ready='true']")).isEmpty()
                      && b.findElements(By.cssSelector("#tsdb-aggregator option")).size() > 1);
      assertThat(new Select(browser.findElement(By.id("tsdb-aggregator"))).getOptions())
          .extracting(WebElement::getText)
          .contains("sum", "avg", "max", "p99", "zimsum");

      type(browser.findElement(By.id("tsdb-metric")), metric);
      // host=* grouped (one series per host), dc=lga a plain filter.
      WebElement firstFilter = browser.findElement(By.cssSelector("#tsdb-filters [data-filter]"));
      type(firstFilter.findElement(By.className("tsdb-tagk")), "host");
      type(firstFilter.findElement(By.className("tsdb-tagv")), "*");
      browser.findElement(By.id("tsdb-add-filter")).click();
      List<WebElement> filters =
          browser.findElements(By.cssSelector("#tsdb-filters [data-filter]"));
      assertThat(filters).hasSize(2);
      WebElement dcFilter = filters.get(1);
      type(dcFilter.findElement(By.className("tsdb-tagk")), "dc");
      type(dcFilter.findElement(By.className("tsdb-tagv")), "lga");
      dcFilter.findElement(By.className("tsdb-group-by")).click();
      browser.findElement(By.id("tsdb-start")).clear();
      // The preset fills the start and runs the query at once.
      runQuery(browser, browser.findElement(By.cssSelector("[data-preset='1h']")));
      assertThat(browser.findElement(By.id("tsdb-start")).getDomProperty("value"))
          .isEqualTo("1h-ago");
      assertThat(browser.findElement(By.id("tsdb-error")).isDisplayed()).isFalse();

      Map<String, List<String>> expected = new LinkedHashMap<>();
      expected.put("dc=lga, host=alpha", List.of("4", "17"));
      expected.put("dc=lga, host=beta", List.of("3", "2.5"));
      expected.put("dc=lga, host=gamma", List.of("2", "1000000"));
      assertThat(seriesTable(browser)).containsExactlyInAnyOrderEntriesOf(expected);
      assertThat(legend(browser)).containsExactlyInAnyOrderElementsOf(expected.keySet());
      assertThat(browser.findElements(By.cssSelector("#tsdb-chart canvas"))).isNotEmpty();
      assertThat(browser.findElement(By.id("tsdb-summary")).getText())
          .startsWith("3 series, 9 points");

      // One point per series over the whole range: its largest value.
      type(browser.findElement(By.id("tsdb-ds-interval")), "0all");
      new Select(browser.findElement(By.id("tsdb-ds-function"))).selectByValue("max");
      runQuery(browser, browser.findElement(By.id("tsdb-run")));
      assertThat(seriesTable(browser))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  "dc=lga, host=alpha", List.of("1", "17"),
                  "dc=lga, host=beta", List.of("1", "7"),
                  "dc=lga, host=gamma", List.of("1", "1000000")));

      assertThat(ConsoleServer.consoleErrors(browser)).isEmpty();
      ConsoleServer.screenshot(browser, "tsdb");

      // A malformed downsample: the API's message, naming the field, and no stale answer.
      type(browser.findElement(By.id("tsdb-ds-interval")), "1x");
      runQuery(browser, browser.findElement(By.id("tsdb-run")));
      WebElement error = browser.findElement(By.id("tsdb-error"));
      assertThat(error.isDisplayed()).isTrue();
      assertThat(error.getText()).isEqualTo("queries[0].downsample: Invalid duration (suffix): 1x");
      assertThat(browser.findElements(By.cssSelector("#tsdb-series tbody tr"))).isEmpty();
      assertThat(browser.findElement(By.id("tsdb-chart")).isDisplayed()).isFalse();
      assertOnlyTheRefusedQueryWasLogged(browser);

      // An unknown metric: OpenTSDB's wording.
      browser.findElement(By.id("tsdb-ds-interval")).clear();
      type(browser.findElement(By.id("tsdb-metric")), metric + ".never");
      runQuery(browser, browser.findElement(By.id("tsdb-run")));
      assertThat(browser.findElement(By.id("tsdb-error")).getText())
          .isEqualTo("metric: No such name for 'metrics': '" + metric + ".never'");
      assertOnlyTheRefusedQueryWasLogged(browser);

      // The metric field suggests names from /api/suggest.
      type(browser.findElement(By.id("tsdb-metric")), metric.substring(0, metric.length() - 2));
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElements(By.cssSelector("#tsdb-metric-names option")).stream()
                      .anyMatch(o -> metric.equals(o.getDomAttribute("value"))));

      assertThat(ConsoleServer.consoleErrors(browser)).isEmpty();
    } finally {
      browser.quit();
    }
  }
}
