package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A crawl through the frontier as StormCrawler makes it (issue #35): {@link TestCrawler} crawls a
 * {@link TestSite} served on several loopback hosts, with the frontier as its only store of URLs.
 * Every page is fetched exactly once, the frontier hands each host out no more often than its delay
 * and the crawler fetches it no more often either, every status is acknowledged OK (or SKIPPED: an
 * outlink the frontier already knows), and the crawl ends with nothing queued or in flight.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierCrawlIT {
  private static final int HOSTS = 16;
  private static final int PAGES_PER_HOST = 125;
  private static final int LINKS_PER_PAGE = 6;
  private static final long SITE_SEED = 35;
  private static final Duration DELAY = Duration.ofMillis(20);
  private static final Duration DEADLINE = Duration.ofSeconds(45);

  /**
   * One URL per queue per hand-out, so the frontier's delay paces every fetch (the fetcher's own
   * delay, the same, only takes up the jitter between a hand-out and its fetch); a queue per host
   * (StormCrawler's {@code urlfrontier.max.queues}); StormCrawler's default {@code
   * delay_requestable} (its message timeout).
   */
  private static final TestCrawler.Settings CRAWLER =
      new TestCrawler.Settings(1, HOSTS, 30, Duration.ofMillis(5), 3, DELAY);

  @Test
  void aCrawlerFetchesEveryPageOnceAtEachHostsPaceAndEmptiesTheFrontier(HBaseRuntime runtime)
      throws Exception {
    String crawl = TestIds.unique("crawl");
    try (FrontierFixture f = new FrontierFixture(runtime);
        TestSite site = TestSite.serve(HOSTS, PAGES_PER_HOST, LINKS_PER_PAGE, SITE_SEED)) {
      // The operator's politeness setting: the channel's delay between two hand-outs of a host.
      f.service.createChannel(crawl, ChannelKind.FIFO, DELAY.toMillis());
      List<AckMessage> seeded =
          f.put(
              site.seedUrls().stream()
                  .map(url -> FrontierFixture.discovered(crawl, url, hostOf(url)))
                  .toArray(URLItem[]::new));
      assertThat(seeded).extracting(AckMessage::getStatus).containsOnly(AckMessage.Status.OK);

      TestCrawler crawler = new TestCrawler("127.0.0.1", f.port, crawl, CRAWLER);
      TestCrawler.Outcome outcome;
      try (crawler) {
        outcome = crawler.crawl(DEADLINE);
      }
      List<TestSite.Fetch> fetches = site.fetches();
      List<TestCrawler.HandOut> handOuts = crawler.handOuts();
      TestStatusUpdater updater = crawler.updater();
      int pages = site.pageUrls().size();
      System.out.println(
          "crawl of "
              + pages
              + " pages on "
              + HOSTS
              + " hosts: "
              + outcome.took().toMillis()
              + " ms, "
              + handOuts.size()
              + " GetURLs, shortest fetch gap per host "
              + TimeUnit.NANOSECONDS.toMicros(shortestFetchGap(fetches))
              + " µs, shortest hand-out bracket per host "
              + TimeUnit.NANOSECONDS.toMicros(shortestHandOutBracket(handOuts))
              + " µs, held back by the fetcher "
              + crawler.politenessWaits()
              + ", sent "
              + updater.sent()
              + ", acks "
              + updater.acks()
              + ", answered at once "
              + updater.answeredAtOnce());

      assertThat(crawler.fetchErrors()).as("fetch errors").isEmpty();
      Map<String, Long> fetchesPerUrl =
          fetches.stream()
              .collect(Collectors.groupingBy(TestSite.Fetch::url, Collectors.counting()));
      assertThat(filterValues(fetchesPerUrl, n -> n > 1)).as("pages fetched twice").isEmpty();
      Set<String> unfetched = new HashSet<>(site.pageUrls());
      unfetched.removeAll(fetchesPerUrl.keySet());
      assertThat(unfetched).as("pages never fetched").isEmpty();
      assertThat(fetches).hasSize(pages);

      assertHandOuts(handOuts);
      assertFetchesPolite(fetches);

      assertThat(outcome.frontierEmptied())
          .as("the crawl ended with the frontier empty (last stats: %s)", outcome.finalStats())
          .isTrue();
      assertThat(outcome.finalStats().getSize()).as("queued").isZero();
      assertThat(outcome.finalStats().getInProcess()).as("in flight").isZero();
      assertThat(outcome.finalStats().getCountsMap()).containsEntry("completed", (long) pages);
      assertThat(f.blocking.countURLs(CountUrlParams.newBuilder().setCrawlID(crawl).build()))
          .extracting(c -> c.getValue())
          .as("known URLs")
          .isEqualTo((long) pages);
      assertThat(
              f.get(
                  GetParams.newBuilder()
                      .setCrawlID(crawl)
                      .setMaxQueues(1_000)
                      .setMaxUrlsPerQueue(1_000)
                      .build()))
          .as("GetURLs after the crawl")
          .isEmpty();

      assertAcks(updater, pages, site.seedUrls().size());
    }
  }

  /**
   * What the crawl above runs into, on one queue: asked for while its only URL allowed in flight is
   * still being fetched, the queue is skipped; once that URL is acknowledged as done, the queue's
   * next URL is due again at the queue's delay, as the reference service hands it out, not when the
   * acknowledged URL's in-flight time would have run out.
   */
  @Test
  void aQueueSkippedForItsUrlInFlightIsHandedOutAgainOnceThatUrlIsDone(HBaseRuntime runtime)
      throws InterruptedException {
    String crawl = TestIds.unique("crawl");
    String key = "one.example";
    try (FrontierFixture f = new FrontierFixture(runtime)) {
      f.service.createChannel(crawl, ChannelKind.FIFO, DELAY.toMillis());
      f.put(
          FrontierFixture.discovered(crawl, "http://one.example/a", key),
          FrontierFixture.discovered(crawl, "http://one.example/b", key));
      GetParams one =
          GetParams.newBuilder()
              .setCrawlID(crawl)
              .setMaxQueues(10)
              .setMaxUrlsPerQueue(1)
              .setDelayRequestable(30)
              .build();
      List<String> first = f.urls(one);
      assertThat(first).hasSize(1);
      TimeUnit.MILLISECONDS.sleep(3 * DELAY.toMillis());
      assertThat(f.urls(one)).as("the queue's one URL allowed in flight is out").isEmpty();
      assertThat(f.put(FrontierFixture.known(crawl, first.get(0), key, 0)))
          .extracting(AckMessage::getStatus)
          .containsExactly(AckMessage.Status.OK);
      TimeUnit.MILLISECONDS.sleep(3 * DELAY.toMillis());
      assertThat(f.urls(one))
          .as("the queue's next URL, once the first is done and the delay has passed")
          .hasSize(1)
          .doesNotContain(first.get(0));
    }
  }

  /**
   * No URL handed out twice, at most {@code max_urls_per_queue} of a queue per call, and for a
   * queue handed out by calls A and then B, B's answer came at least the delay after A was sent:
   * the frontier claimed the queue between A's send and answer and again between B's, at least the
   * delay apart.
   */
  private static void assertHandOuts(List<TestCrawler.HandOut> handOuts) {
    Map<String, Long> handOutsPerUrl =
        handOuts.stream()
            .flatMap(h -> h.urls().stream())
            .collect(Collectors.groupingBy(URLInfo::getUrl, Collectors.counting()));
    assertThat(filterValues(handOutsPerUrl, n -> n > 1)).as("URLs handed out twice").isEmpty();
    List<String> tooMany = new ArrayList<>();
    List<String> tooSoon = new ArrayList<>();
    Map<String, TestCrawler.HandOut> lastByKey = new HashMap<>();
    for (TestCrawler.HandOut h : handOuts) {
      Map<String, Long> perKey =
          h.urls().stream().collect(Collectors.groupingBy(URLInfo::getKey, Collectors.counting()));
      perKey.forEach(
          (key, n) -> {
            if (n > CRAWLER.maxUrlsPerBucket()) {
              tooMany.add(key + ": " + n);
            }
            TestCrawler.HandOut previous = lastByKey.put(key, h);
            if (previous != null && h.receivedNanos() - previous.sentNanos() < delayFloorNanos()) {
              tooSoon.add(
                  key
                      + ": "
                      + TimeUnit.NANOSECONDS.toMicros(h.receivedNanos() - previous.sentNanos())
                      + " µs");
            }
          });
    }
    assertThat(tooMany).as("queues handed out more than max_urls_per_queue").isEmpty();
    assertThat(tooSoon).as("queues handed out again within their delay").isEmpty();
  }

  /** The frontier's clock counts whole milliseconds: a delay met there may be a little less. */
  private static long delayFloorNanos() {
    return DELAY.minusMillis(1).toNanos();
  }

  private static void assertFetchesPolite(List<TestSite.Fetch> fetches) {
    List<String> tooSoon = new ArrayList<>();
    byHost(fetches)
        .forEach(
            (host, starts) -> {
              for (int i = 1; i < starts.size(); i++) {
                long gap = starts.get(i) - starts.get(i - 1);
                if (gap < DELAY.toNanos()) {
                  tooSoon.add(host + ": " + TimeUnit.NANOSECONDS.toMicros(gap) + " µs");
                }
              }
            });
    assertThat(tooSoon).as("fetches of a host less than its delay apart").isEmpty();
  }

  /**
   * Every status answered; none FAIL (StormCrawler would fail the page's tuple, and the frontier
   * hand the URL out again once delay_requestable passed); OK exactly for every fetched page and
   * every page the first time it was discovered, SKIPPED for every other discovered URL.
   */
  private static void assertAcks(TestStatusUpdater updater, int pages, int seeds) {
    Map<TestStatusUpdater.Status, Long> sent = updater.sent();
    Map<AckMessage.Status, Long> acks = updater.acks();
    long discovered = sent.getOrDefault(TestStatusUpdater.Status.DISCOVERED, 0L);
    long fetched = sent.getOrDefault(TestStatusUpdater.Status.FETCHED, 0L);
    long newlyDiscovered = (long) pages - seeds;
    assertThat(updater.failed()).as("statuses failed").isEmpty();
    assertThat(acks.getOrDefault(AckMessage.Status.FAIL, 0L)).as("FAIL").isZero();
    assertThat(fetched).as("fetched pages sent as known").isEqualTo(pages);
    assertThat(acks.values().stream().mapToLong(Long::longValue).sum())
        .as("acknowledgements")
        .isEqualTo(sent.values().stream().mapToLong(Long::longValue).sum());
    assertThat(acks.getOrDefault(AckMessage.Status.OK, 0L))
        .as("OK: every fetched page, every page when first discovered")
        .isEqualTo(fetched + newlyDiscovered);
    assertThat(acks.getOrDefault(AckMessage.Status.SKIPPED, 0L))
        .as("SKIPPED: outlinks already known")
        .isEqualTo(discovered - newlyDiscovered);
    assertThat(updater.waitingForAcks()).as("statuses still waiting").isZero();
  }

  private static long shortestFetchGap(List<TestSite.Fetch> fetches) {
    long shortest = Long.MAX_VALUE;
    for (List<Long> starts : byHost(fetches).values()) {
      for (int i = 1; i < starts.size(); i++) {
        shortest = Math.min(shortest, starts.get(i) - starts.get(i - 1));
      }
    }
    return shortest;
  }

  private static long shortestHandOutBracket(List<TestCrawler.HandOut> handOuts) {
    long shortest = Long.MAX_VALUE;
    Map<String, TestCrawler.HandOut> lastByKey = new HashMap<>();
    for (TestCrawler.HandOut h : handOuts) {
      for (String key : h.urls().stream().map(URLInfo::getKey).distinct().toList()) {
        TestCrawler.HandOut previous = lastByKey.put(key, h);
        if (previous != null) {
          shortest = Math.min(shortest, h.receivedNanos() - previous.sentNanos());
        }
      }
    }
    return shortest;
  }

  /** Each host's fetch start times, in order. */
  private static Map<String, List<Long>> byHost(List<TestSite.Fetch> fetches) {
    Map<String, List<Long>> starts = new TreeMap<>();
    fetches.stream()
        .sorted(Comparator.comparingLong(TestSite.Fetch::startNanos))
        .forEach(x -> starts.computeIfAbsent(x.host(), h -> new ArrayList<>()).add(x.startNanos()));
    return starts;
  }

  private static Map<String, Long> filterValues(Map<String, Long> map, Predicate<Long> keep) {
    return map.entrySet().stream()
        .filter(e -> keep.test(e.getValue()))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  private static String hostOf(String url) {
    return URI.create(url).getHost();
  }
}
