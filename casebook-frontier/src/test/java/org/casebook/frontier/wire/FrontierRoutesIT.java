package org.casebook.frontier.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.FrontierSystem;
import org.casebook.frontier.UrlInfo;
import org.casebook.frontier.UrlItem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every REST route, bad input as 400 naming the field, and the listing limits. */
@ExtendWith(EmbeddedHBase.class)
class FrontierRoutesIT {
  private static final String TOKEN = "s3cret";
  private final HttpClient client = HttpClient.newHttpClient();
  private ServedSystem served;
  private FrontierService service;
  private String base;
  private String crawl;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new FrontierSystem(), AccessRule.token(TOKEN));
    service = new FrontierService(served.context());
    base = served.url("/api/frontier/channels");
    crawl = TestIds.unique("rc");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private HttpResponse<String> send(String method, String url, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", "Bearer " + TOKEN)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return Json.mapper().readTree(r.body());
  }

  private static void assertError(HttpResponse<String> r, int status, String field)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    if (field != null) {
      assertThat(json(r).get("field").asText()).isEqualTo(field);
    }
  }

  private void putUrls(String... urls) {
    List<UrlItem> items =
        java.util.Arrays.stream(urls).map(u -> UrlItem.discovered(UrlInfo.of(u, crawl))).toList();
    service.put(items);
  }

  @Test
  void channelsHostsRatesAndStats() throws Exception {
    HttpResponse<String> created =
        send(
            "POST", base, "{\"crawlId\":\"" + crawl + "\",\"kind\":\"priority\",\"delayMs\":5000}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(json(created).get("kind").asText()).isEqualTo("PRIORITY");
    assertThat(json(created).get("delayMs").asLong()).isEqualTo(5000);
    putUrls("http://a.example/1", "http://a.example/2", "http://b.example/1");

    JsonNode channel = json(send("GET", base + "/" + enc(crawl), null));
    assertThat(channel.get("queued").asLong()).isEqualTo(3);
    JsonNode list = json(send("GET", base + "?limit=1000", null));
    assertThat(list.get("channels").findValuesAsText("crawlId")).contains(crawl);

    JsonNode hosts = json(send("GET", base + "/" + enc(crawl) + "/hosts?limit=1", null));
    assertThat(hosts.get("hosts")).hasSize(1);
    String next = hosts.get("next").asText();
    JsonNode rest =
        json(send("GET", base + "/" + enc(crawl) + "/hosts?limit=1000&cursor=" + next, null));
    assertThat(rest.get("hosts")).hasSize(1);
    assertThat(rest.get("next").isNull()).isTrue();

    HttpResponse<String> rate =
        send("PUT", base + "/" + enc(crawl) + "/hosts/a.example/delay", "{\"delayMs\":250}");
    assertThat(rate.statusCode()).as(rate.body()).isEqualTo(200);
    assertThat(json(rate).get("delayMs").asLong()).isEqualTo(250);
    assertThat(json(rate).get("queued").asLong()).isEqualTo(2);
    JsonNode host = json(send("GET", base + "/" + enc(crawl) + "/hosts/a.example", null));
    assertThat(host.get("ownDelayMs").asLong()).isEqualTo(250);
    JsonNode cleared =
        json(send("PUT", base + "/" + enc(crawl) + "/hosts/a.example/delay", "{\"delayMs\":null}"));
    assertThat(cleared.get("delayMs").asLong()).isEqualTo(5000);
    assertThat(cleared.get("ownDelayMs").isNull()).isTrue();

    JsonNode delay = json(send("PUT", base + "/" + enc(crawl) + "/delay", "{\"delayMs\":100}"));
    assertThat(delay.get("delayMs").asLong()).isEqualTo(100);

    JsonNode stats = json(send("GET", base + "/" + enc(crawl) + "/stats?limit=1000", null));
    assertThat(stats.get("days").get(0).get("put").asLong()).isEqualTo(3);
    assertThat(stats.get("days").get(0).get("inQueue").asLong()).isEqualTo(3);
    JsonNode hostStats =
        json(send("GET", base + "/" + enc(crawl) + "/hosts/a.example/stats?limit=1", null));
    assertThat(hostStats.get("days").get(0).get("added").asLong()).isEqualTo(2);
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    assertError(send("POST", base, "{\"kind\":\"FIFO\"}"), 400, "crawlId");
    assertError(send("POST", base, "{\"crawlId\":\"x\",\"kind\":\"LIFO\"}"), 400, "kind");
    assertError(send("POST", base, "{\"crawlId\":\"x\",\"delayMs\":-1}"), 400, "delayMs");
    assertError(send("POST", base, "{\"crawlId\":\"x\",\"rate\":1}"), 400, "rate");
    assertError(send("POST", base, "{\"crawlId\":\"x\",\"delayMs\":\"soon\"}"), 400, "delayMs");
    send("POST", base, "{\"crawlId\":\"" + crawl + "\"}");
    putUrls("http://a.example/1");
    assertError(
        send("PUT", base + "/" + enc(crawl) + "/hosts/a.example/delay", "{\"delayMs\":-5}"),
        400,
        "delayMs");
    assertError(send("PUT", base + "/" + enc(crawl) + "/delay", "{}"), 400, "delayMs");
    assertError(send("GET", base + "/" + enc(crawl) + "/hosts/nowhere.example", null), 404, null);
    assertError(send("GET", base + "/" + enc(crawl + "-none") + "/hosts", null), 404, null);
    assertError(
        send("POST", base, "{\"crawlId\":\"" + crawl + "\",\"kind\":\"PRIORITY\"}"), 409, null);
    for (String listing :
        List.of(
            base,
            base + "/" + enc(crawl) + "/hosts",
            base + "/" + enc(crawl) + "/stats",
            base + "/" + enc(crawl) + "/hosts/a.example/stats")) {
      assertThat(send("GET", listing + "?limit=1000", null).statusCode()).isEqualTo(200);
      assertError(send("GET", listing + "?limit=1001", null), 400, "limit");
      assertError(send("GET", listing + "?limit=0", null), 400, "limit");
      assertError(send("GET", listing + "?cursor=bogus", null), 400, "cursor");
    }
  }
}
