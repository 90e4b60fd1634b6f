package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.frontier.wire.testing.PutStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The frontier's console page in headless Chromium: a channel created over REST and filled over
 * URLFrontier gRPC (puts, a duplicate, a refused URL, a hand-out, an acknowledgement, a host delay
 * and a block) shows its kind and counts in the channel list, its hosts with their delay, rate,
 * blocked-until, queued and completed page by page, a host's daily statistics, and the channel's
 * day in the chart and the table; an unknown channel and a bad page size show the API's error.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class FrontierConsolePageIT {
  private final ConsoleServer console;

  FrontierConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    return console.send(method, path, body);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The frontier system's gRPC port, as the server reports it. */
  private int grpcPort() throws Exception {
    JsonNode health = Json.mapper().readTree(send("GET", "/api/health", null).body());
    for (JsonNode s : health.get("systems")) {
      if (s.get("name").asText().equals("frontier")) {
        for (JsonNode l : s.get("listeners")) {
          if (l.get("name").asText().equals("grpc")) {
            return l.get("port").asInt();
          }
        }
      }
    }
    throw new AssertionError("no frontier grpc listener in /api/health");
  }

  /** What the page should show for a failed answer: the error, after its field when it has one. */
  private String apiError(String path, int status) throws Exception {
    JsonNode e = console.refused(path, status);
    return e.hasNonNull("field")
        ? e.get("field").asText() + ": " + e.get("error").asText()
        : e.get("error").asText();
  }

  private static URLItem discovered(String crawl, String url) {
    return URLItem.newBuilder()
        .setDiscovered(
            DiscoveredURLItem.newBuilder()
                .setInfo(URLInfo.newBuilder().setUrl(url).setCrawlID(crawl)))
        .build();
  }

  private static Map<String, String> fields(WebElement row) {
    Map<String, String> out = new LinkedHashMap<>();
    for (WebElement c : row.findElements(By.cssSelector("td[data-field]"))) {
      out.put(c.getDomAttribute("data-field"), c.getText());
    }
    return out;
  }

  private static Map<String, String> dayRow(WebDriver browser, String table, String day) {
    return fields(
        browser.findElement(By.cssSelector("#" + table + " tbody tr[data-day='" + day + "']")));
  }

  @Test
  void aChannelsHostsAndDailyStatisticsShowWhatWasPut() throws Exception {
    String crawl = TestIds.unique("console");
    String hostA = "a-" + crawl + ".example";
    String hostB = "b-" + crawl + ".example";
    HttpResponse<String> created =
        send(
            "POST",
            "/api/frontier/channels",
            "{\"crawlId\":\"" + crawl + "\",\"kind\":\"PRIORITY\",\"delayMs\":2000}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    ManagedChannel grpc =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort()).usePlaintext().build();
    long blockedUntil = Instant.now().plus(Duration.ofDays(1)).getEpochSecond();
    try {
      URLFrontierGrpc.URLFrontierStub stub = URLFrontierGrpc.newStub(grpc);
      URLFrontierGrpc.URLFrontierBlockingStub blocking = URLFrontierGrpc.newBlockingStub(grpc);
      List<AckMessage> first =
          PutStreams.putAll(
              stub,
              discovered(crawl, "http://" + hostA + "/1"),
              discovered(crawl, "http://" + hostA + "/2"),
              discovered(crawl, "http://" + hostA + "/3"),
              discovered(crawl, "http://" + hostB + "/1"),
              discovered(crawl, "http://" + hostB + "/2"));
      assertThat(first).extracting(AckMessage::getStatus).containsOnly(AckMessage.Status.OK);
      // A duplicate and a URL the frontier refuses: counted as put, duplicate and failed.
      List<AckMessage> second =
          PutStreams.putAll(
              stub, discovered(crawl, "http://" + hostA + "/1"), discovered(crawl, "not a url"));
      assertThat(second).extracting(AckMessage::getStatus).containsOnly(AckMessage.Status.SKIPPED);

      // One URL per host handed out; host A's put back as done.
      List<URLInfo> got = new ArrayList<>();
      blocking
          .withDeadlineAfter(20, TimeUnit.SECONDS)
          .getURLs(GetParams.newBuilder().setCrawlID(crawl).setMaxUrlsPerQueue(1).build())
          .forEachRemaining(got::add);
      assertThat(got).extracting(URLInfo::getKey).containsExactlyInAnyOrder(hostA, hostB);
      URLInfo fromA = got.stream().filter(u -> u.getKey().equals(hostA)).findFirst().orElseThrow();
      assertThat(
              PutStreams.putAll(
                  stub,
                  URLItem.newBuilder()
                      .setKnown(KnownURLItem.newBuilder().setInfo(fromA).setRefetchableFromDate(0))
                      .build()))
          .extracting(AckMessage::getStatus)
          .containsExactly(AckMessage.Status.OK);

      blocking.setDelay(
          QueueDelayParams.newBuilder()
              .setCrawlID(crawl)
              .setKey(hostA)
              .setDelayRequestable(5)
              .build());
      blocking.blockQueueUntil(
          BlockQueueParams.newBuilder()
              .setCrawlID(crawl)
              .setKey(hostB)
              .setTime(blockedUntil)
              .build());
    } finally {
      grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    String unknown = "no-such-" + crawl;
    String unknownError = apiError("/api/frontier/channels/" + enc(unknown), 404);
    String limitError = apiError("/api/frontier/channels/" + enc(crawl) + "/hosts?limit=0", 400);

    WebDriver browser = ConsoleServer.browser();
    try {
      // A link opens the channel as well as listing the channels.
      console.openLink(browser, "#/system/frontier?crawl=" + enc(crawl));
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  crawl.equals(
                      b.findElement(By.id("frontier-channel-title"))
                          .getDomAttribute("data-crawl")));
      assertThat(
              browser
                  .findElement(By.cssSelector("#frontier-channel-summary [data-field='kind']"))
                  .getText())
          .isEqualTo("PRIORITY");

      browser.get("about:blank");
      browser.get(console.base() + "/#/system/frontier");
      By channelRow = By.cssSelector("#frontier-channels tbody tr[data-channel='" + crawl + "']");
      // The shared server may hold other tests' channels: page on until this one is listed.
      ConsoleServer.waitFor(browser)
          .until(
              b -> {
                if (!b.findElements(channelRow).isEmpty()) {
                  return true;
                }
                WebElement more = b.findElement(By.id("frontier-channels-more"));
                if (more.isDisplayed()) {
                  more.click();
                }
                return false;
              });
      assertThat(fields(browser.findElement(channelRow)))
          .containsEntry("crawlId", crawl)
          .containsEntry("kind", "PRIORITY")
          .containsEntry("delayMs", "2,000 ms")
          .containsEntry("queued", "4")
          .containsEntry("completed", "1");

      browser.findElement(channelRow).findElement(By.cssSelector("a[data-pick]")).click();
      ConsoleServer.waitFor(browser)
          .until(
              b ->
                  b.findElements(By.cssSelector("#frontier-hosts tbody tr[data-host]")).size() == 2
                      && !b.findElements(By.cssSelector("#frontier-stats tbody tr[data-day]"))
                          .isEmpty());
      assertThat(browser.findElement(By.id("frontier-channel-title")).getText())
          .isEqualTo("Channel " + crawl);
      WebElement summary = browser.findElement(By.id("frontier-channel-summary"));
      assertThat(summary.findElement(By.cssSelector("[data-field=kind]")).getText())
          .isEqualTo("PRIORITY");
      assertThat(summary.findElement(By.cssSelector("[data-field=queued]")).getText())
          .isEqualTo("4");
      assertThat(summary.findElement(By.cssSelector("[data-field=completed]")).getText())
          .isEqualTo("1");

      Map<String, String> a =
          fields(
              browser.findElement(
                  By.cssSelector("#frontier-hosts tbody tr[data-host='" + hostA + "']")));
      assertThat(a)
          .containsEntry("key", hostA)
          .containsEntry("delayMs", "5,000 ms own")
          .containsEntry("rate", "12/min")
          .containsEntry("blockedUntil", "—")
          .containsEntry("crawlLimit", "none")
          .containsEntry("queued", "2")
          .containsEntry("completed", "1");
      Map<String, String> b =
          fields(
              browser.findElement(
                  By.cssSelector("#frontier-hosts tbody tr[data-host='" + hostB + "']")));
      assertThat(b)
          .containsEntry("key", hostB)
          .containsEntry("delayMs", "2,000 ms channel's")
          .containsEntry("rate", "30/min")
          .containsEntry("blockedUntil", Instant.ofEpochSecond(blockedUntil).toString())
          .containsEntry("queued", "2")
          .containsEntry("completed", "0");

      // Today: 5 new + 1 duplicate + 1 refused + 1 acknowledgement put; 2 handed out; 4 queued.
      assertThat(dayRow(browser, "frontier-stats", today))
          .isEqualTo(
              Map.of(
                  "day", today,
                  "put", "8",
                  "added", "5",
                  "duplicates", "1",
                  "handedOut", "2",
                  "acknowledged", "1",
                  "failed", "1",
                  "inQueue", "4"));
      WebElement chart = browser.findElement(By.id("frontier-stats-chart"));
      assertThat(chart.getDomAttribute("data-days")).isEqualTo("1");
      assertThat(chart.findElements(By.tagName("canvas"))).isNotEmpty();
      assertThat(chart.getText()).contains("put", "new", "handed out", "in queue");

      // Host A's own day: its 3 new, the duplicate, the acknowledgement; one handed out.
      browser
          .findElement(By.cssSelector("#frontier-hosts a[data-host-key='" + hostA + "']"))
          .click();
      ConsoleServer.waitFor(browser)
          .until(
              d ->
                  d.findElement(By.id("frontier-host")).isDisplayed()
                      && hostA.equals(
                          d.findElement(By.id("frontier-host-title"))
                              .getDomAttribute("data-host")));
      assertThat(browser.findElement(By.id("frontier-host-handed-out")).getText()).isEqualTo("1");
      assertThat(dayRow(browser, "frontier-host-stats", today))
          .containsEntry("put", "5")
          .containsEntry("added", "3")
          .containsEntry("duplicates", "1")
          .containsEntry("handedOut", "1")
          .containsEntry("acknowledged", "1")
          .containsEntry("failed", "0")
          .containsEntry("inQueue", "2");

      // One host per page: two pages, each host once.
      WebElement hostLimit = browser.findElement(By.id("frontier-host-limit"));
      hostLimit.clear();
      hostLimit.sendKeys("1");
      browser.findElement(By.id("frontier-show")).click();
      ConsoleServer.waitFor(browser)
          .until(
              d ->
                  d.findElements(By.cssSelector("#frontier-hosts tbody tr[data-host]")).size()
                      == 1);
      Set<String> paged = new HashSet<>();
      paged.add(
          browser
              .findElement(By.cssSelector("#frontier-hosts tbody tr[data-host]"))
              .getDomAttribute("data-host"));
      assertThat(browser.findElement(By.id("frontier-hosts-previous")).isEnabled()).isFalse();
      browser.findElement(By.id("frontier-hosts-next")).click();
      ConsoleServer.waitFor(browser)
          .until(d -> d.findElement(By.id("frontier-hosts-page")).getText().equals("page 2"));
      paged.add(
          browser
              .findElement(By.cssSelector("#frontier-hosts tbody tr[data-host]"))
              .getDomAttribute("data-host"));
      assertThat(paged).containsExactlyInAnyOrder(hostA, hostB);
      assertThat(browser.findElement(By.id("frontier-hosts-next")).isEnabled()).isFalse();

      ConsoleServer.screenshot(browser, "frontier");
      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console before any bad input")
          .isEmpty();

      // Bad input: a page size the API refuses, then an unknown channel.
      hostLimit.clear();
      hostLimit.sendKeys("0");
      browser.findElement(By.id("frontier-show")).click();
      ConsoleServer.waitFor(browser)
          .until(d -> d.findElement(By.id("frontier-error")).getText().equals(limitError));
      assertThat(limitError).startsWith("limit: ");
      ConsoleServer.assertOnlyRefused(browser, "/hosts?limit=0", 400);

      WebElement crawlInput = browser.findElement(By.id("frontier-crawl"));
      crawlInput.clear();
      crawlInput.sendKeys(unknown);
      browser.findElement(By.id("frontier-show")).click();
      ConsoleServer.waitFor(browser)
          .until(d -> d.findElement(By.id("frontier-error")).getText().equals(unknownError));
      assertThat(unknownError).isEqualTo("no channel " + unknown);
      assertThat(browser.findElement(By.id("frontier-channel")).isDisplayed()).isFalse();
      ConsoleServer.assertOnlyRefused(browser, "/api/frontier/channels/" + unknown, 404);

      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }
}
