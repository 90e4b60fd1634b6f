package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.frontier.FrontierFixture.discovered;
import static org.casebook.frontier.FrontierFixture.known;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The frontier's meters after URLs are put, handed out and acknowledged over gRPC on two crawls:
 * exact per crawl in the registry and in the Prometheus text {@code /metrics} serves.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierMetricsIT {
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  /** The wire's call counter (its class is package-private there). */
  private static final String GRPC_CALLS = "casebook.frontier.grpc.calls";

  @Test
  void countersAndGaugesPerCrawl(HBaseRuntime runtime) throws InterruptedException {
    String news = TestIds.unique("news");
    String images = TestIds.unique("images");
    try (FrontierFixture f =
        new FrontierFixture(
            runtime, Clock.systemUTC(), Map.of("frontier.metrics-refresh-seconds", "1"))) {
      // news: three URLs on each of two hosts, then a duplicate and a relative URL.
      f.put(
          discovered(news, "http://a.example/1", null),
          discovered(news, "http://a.example/2", null),
          discovered(news, "http://a.example/3", null),
          discovered(news, "http://b.example/1", null),
          discovered(news, "http://b.example/2", null),
          discovered(news, "http://b.example/3", null));
      assertThat(f.put(discovered(news, "http://a.example/1", null), discovered(news, "/x", null)))
          .extracting(AckMessage::getStatus)
          .containsOnly(AckMessage.Status.SKIPPED);
      // images: four URLs on one host.
      f.put(
          discovered(images, "http://c.example/1", null),
          discovered(images, "http://c.example/2", null),
          discovered(images, "http://c.example/3", null),
          discovered(images, "http://c.example/4", null));

      List<String> newsOut =
          f.urls(
              GetParams.newBuilder()
                  .setCrawlID(news)
                  .setMaxQueues(2)
                  .setMaxUrlsPerQueue(2)
                  .setDelayRequestable(120)
                  .build());
      assertThat(newsOut).hasSize(4);
      List<String> imagesOut =
          f.urls(
              GetParams.newBuilder()
                  .setCrawlID(images)
                  .setMaxUrlsPerQueue(3)
                  .setDelayRequestable(120)
                  .build());
      assertThat(imagesOut).hasSize(3);

      // news: the two handed out from a.example done; images: one done, one due in an hour.
      List<String> newsDone =
          newsOut.stream().filter(u -> u.startsWith("http://a.example/")).toList();
      assertThat(newsDone).hasSize(2);
      long inAnHour = Instant.now().getEpochSecond() + 3600;
      assertThat(
              f.put(
                  known(news, newsDone.get(0), null, 0),
                  known(news, newsDone.get(1), null, 0),
                  known(images, imagesOut.get(0), null, 0),
                  known(images, imagesOut.get(1), null, inAnHour)))
          .extracting(AckMessage::getStatus)
          .containsOnly(AckMessage.Status.OK);

      MeterRegistry meters = f.platform.metrics();
      assertThat(puts(meters, news))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("added", 6.0, "updated", 2.0, "known", 1.0, "refused", 1.0, "failed", 0.0));
      assertThat(puts(meters, images))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("added", 4.0, "updated", 2.0, "known", 0.0, "refused", 0.0, "failed", 0.0));
      assertThat(counter(meters, FrontierMetrics.HANDED_OUT, news)).isEqualTo(4);
      assertThat(counter(meters, FrontierMetrics.HANDED_OUT, images)).isEqualTo(3);
      assertThat(counter(meters, FrontierMetrics.COMPLETED, news)).isEqualTo(2);
      assertThat(counter(meters, FrontierMetrics.COMPLETED, images)).isEqualTo(1);
      assertThat(meters.get(GRPC_CALLS).tag("method", "PutURLs").counter().count()).isEqualTo(4);
      assertThat(meters.get(GRPC_CALLS).tag("method", "GetURLs").counter().count()).isEqualTo(2);

      // queued, in flight, active queues
      Map<String, List<Double>> gauges =
          Map.of(news, List.of(4.0, 2.0, 2.0), images, List.of(3.0, 1.0, 1.0));
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (!gauges(meters, news, images).equals(gauges) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(gauges(meters, news, images)).isEqualTo(gauges);

      String text = f.platform.scrape();
      assertThat(sample(text, "casebook_frontier_urls_put_total", news, "outcome", "added"))
          .isEqualTo(6);
      assertThat(sample(text, "casebook_frontier_urls_put_total", news, "outcome", "known"))
          .isEqualTo(1);
      assertThat(sample(text, "casebook_frontier_urls_put_total", images, "outcome", "updated"))
          .isEqualTo(2);
      assertThat(sample(text, "casebook_frontier_urls_handed_out_total", news)).isEqualTo(4);
      assertThat(sample(text, "casebook_frontier_urls_handed_out_total", images)).isEqualTo(3);
      assertThat(sample(text, "casebook_frontier_urls_completed_total", news)).isEqualTo(2);
      assertThat(sample(text, "casebook_frontier_urls_completed_total", images)).isEqualTo(1);
      assertThat(sample(text, "casebook_frontier_urls_queued", news)).isEqualTo(4);
      assertThat(sample(text, "casebook_frontier_urls_in_flight", news)).isEqualTo(2);
      assertThat(sample(text, "casebook_frontier_urls_in_flight", images)).isEqualTo(1);
      assertThat(sample(text, "casebook_frontier_queues_active", news)).isEqualTo(2);
      assertThat(sample(text, "casebook_frontier_queues_active", images)).isEqualTo(1);
    }
  }

  /** The put counter of {@code crawl} per outcome. */
  private static Map<String, Double> puts(MeterRegistry meters, String crawl) {
    Map<String, Double> out = new HashMap<>();
    meters
        .find(FrontierMetrics.PUT)
        .tag("crawl", crawl)
        .counters()
        .forEach(c -> out.put(c.getId().getTag("outcome"), c.count()));
    return out;
  }

  private static double counter(MeterRegistry meters, String name, String crawl) {
    return meters.get(name).tag("crawl", crawl).counter().count();
  }

  /** Per crawl: URLs queued, in flight, active queues (an empty list until the first refresh). */
  private static Map<String, List<Double>> gauges(MeterRegistry meters, String... crawls) {
    Map<String, List<Double>> out = new LinkedHashMap<>();
    for (String crawl : crawls) {
      List<Gauge> found =
          List.of(FrontierMetrics.QUEUED, FrontierMetrics.IN_FLIGHT, FrontierMetrics.ACTIVE_QUEUES)
              .stream()
              .map(name -> meters.find(name).tag("crawl", crawl).gauge())
              .toList();
      out.put(crawl, found.contains(null) ? List.of() : found.stream().map(Gauge::value).toList());
    }
    return out;
  }

  /** The value of the Prometheus sample {@code name} with exactly the labels given. */
  private static double sample(String text, String name, String crawl, String... labels) {
    Map<String, String> want = new HashMap<>();
    want.put("crawl", crawl);
    for (int i = 0; i < labels.length; i += 2) {
      want.put(labels[i], labels[i + 1]);
    }
    for (String line : text.lines().toList()) {
      if (!line.startsWith(name + "{")) {
        continue;
      }
      Map<String, String> got = new HashMap<>();
      Matcher m = LABEL.matcher(line.substring(name.length(), line.lastIndexOf('}') + 1));
      while (m.find()) {
        got.put(m.group(1), m.group(2));
      }
      if (got.equals(want)) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no sample " + name + want + " in:\n" + text);
  }
}
