package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The service on embedded HBase: concurrent writers and crawlers, restarts, statistics, purge. */
@ExtendWith(EmbeddedHBase.class)
class FrontierServiceIT {
  /** A clock tests move by hand. */
  static final class MovableClock extends Clock {
    final AtomicLong millis = new AtomicLong(System.currentTimeMillis());

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }
  }

  private static FrontierService service(Platform p, String namespace) {
    return new FrontierService(p.contextFor("frontier"), namespace);
  }

  private static UrlItem discovered(String crawl, String url, String key) {
    UrlInfo info = UrlInfo.of(url, crawl);
    return UrlItem.discovered(key == null ? info : info.withKey(key));
  }

  private static UrlItem known(String crawl, String url, String key, long refetchSeconds) {
    UrlInfo info = UrlInfo.of(url, crawl);
    return UrlItem.known(key == null ? info : info.withKey(key), refetchSeconds);
  }

  @Test
  void concurrentPutsOfOverlappingUrlsAddEachUrlOnce(HBaseRuntime runtime) throws Exception {
    String ns = TestIds.unique("fc").replace('-', '_');
    String crawl = "c";
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = service(p, ns);
      int threads = 8;
      int urls = 400;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<List<PutAck>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t * 37;
        results.add(
            pool.submit(
                () -> {
                  List<PutAck> acks = new ArrayList<>();
                  List<UrlItem> batch = new ArrayList<>();
                  for (int i = 0; i < urls; i++) {
                    int u = (i + offset) % urls;
                    batch.add(discovered(crawl, "http://h" + (u % 20) + ".example/" + u, null));
                    if (batch.size() == 50) {
                      acks.addAll(s.put(batch));
                      batch = new ArrayList<>();
                    }
                  }
                  return acks;
                }));
      }
      long ok = 0;
      long skipped = 0;
      for (Future<List<PutAck>> r : results) {
        for (PutAck a : r.get()) {
          if (a.status() == PutStatus.OK) {
            ok++;
          } else if (a.status() == PutStatus.SKIPPED) {
            skipped++;
          }
        }
      }
      assertThat(ok).as("each URL is new exactly once").isEqualTo(urls);
      assertThat(skipped).isEqualTo((long) urls * (threads - 1));
      assertThat(s.countUrls(crawl, null, null, false)).isEqualTo(urls);
      assertThat(s.countUrls(crawl, null, "example", false)).as("rows = counters").isEqualTo(urls);
      assertThat(s.stats(crawl, null).queued()).isEqualTo(urls);
      assertThat(s.stats(crawl, null).queues()).isEqualTo(20);

      // Many crawlers at once: every URL handed out once, no host twice within its delay.
      s.setDelay(crawl, null, 1);
      Map<String, List<Long>> handOuts = new ConcurrentHashMap<>();
      Set<String> seen = ConcurrentHashMap.newKeySet();
      AtomicLong duplicates = new AtomicLong();
      List<Future<?>> crawlers = new ArrayList<>();
      long end = System.currentTimeMillis() + 6_000;
      for (int t = 0; t < threads; t++) {
        crawlers.add(
            pool.submit(
                () -> {
                  while (System.currentTimeMillis() < end) {
                    List<UrlInfo> got =
                        s.getUrls(HandOutRequest.of(crawl, 5, 3).withDelayRequestable(600));
                    long at = System.currentTimeMillis();
                    Set<String> hosts = new HashSet<>();
                    for (UrlInfo u : got) {
                      if (!seen.add(u.url())) {
                        duplicates.incrementAndGet();
                      }
                      hosts.add(u.key());
                    }
                    hosts.forEach(
                        h ->
                            handOuts
                                .computeIfAbsent(
                                    h,
                                    k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                                .add(at));
                  }
                  return null;
                }));
      }
      for (Future<?> c : crawlers) {
        c.get();
      }
      pool.shutdown();
      assertThat(duplicates.get()).as("a URL in flight is not handed out again").isZero();
      assertThat(seen).isNotEmpty();
      for (Map.Entry<String, List<Long>> e : handOuts.entrySet()) {
        List<Long> times = new ArrayList<>(e.getValue());
        times.sort(Long::compare);
        for (int i = 1; i < times.size(); i++) {
          // The claim is taken before the scan; the recorded time is after it: allow the scan.
          assertThat(times.get(i) - times.get(i - 1))
              .as("gap between hand-outs of %s", e.getKey())
              .isGreaterThanOrEqualTo(500);
        }
      }
      assertThat(s.stats(crawl, null).inFlight()).isEqualTo(seen.size());
    }
  }

  @Test
  void everythingSurvivesARestartOnTheSameHBase(HBaseRuntime runtime) throws Exception {
    String ns = TestIds.unique("fr").replace('-', '_');
    long later = Instant.now().getEpochSecond() + 3600;
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = service(p, ns);
      s.createChannel("news", ChannelKind.FIFO, 0);
      s.put(
          List.of(
              discovered("news", "http://a.example/1", null),
              discovered("news", "http://a.example/2", null),
              known("news", "http://b.example/1", null, later),
              known("news", "http://b.example/2", null, 0)));
      assertThat(s.getUrls(HandOutRequest.of("news", 0, 1)))
          .extracting(UrlInfo::url)
          .containsExactly("http://a.example/1");
      s.setHostDelay("news", "a.example", 5L);
    }
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = service(p, ns);
      assertThat(s.channel("news").queued()).isEqualTo(3);
      assertThat(s.channel("news").completed()).isEqualTo(1);
      assertThat(s.host("news", "a.example").ownDelayMs()).isEqualTo(5L);
      assertThat(s.stats("news", "a.example").inFlight()).as("in flight survives").isEqualTo(1);
      assertThat(s.urlStatus("news", null, "http://b.example/1").refetchableFromDate())
          .isEqualTo(later);
      Thread.sleep(10);
      assertThat(s.getUrls(HandOutRequest.of("news", 0, 5)))
          .extracting(UrlInfo::url)
          .containsExactly("http://a.example/2");
      assertThat(s.repairDueIndex()).isZero();
      DailyStats today = s.dailyStats("news", null).get(0);
      assertThat(today.put()).isEqualTo(4);
      assertThat(today.added()).isEqualTo(4);
      assertThat(today.handedOut()).isEqualTo(2);
      assertThat(today.acknowledged()).isEqualTo(2);
      assertThat(today.inQueue()).isEqualTo(3);
    }
  }

  @Test
  void dailyStatsCountDuplicatesAndAcknowledgementsPerHost(HBaseRuntime runtime) {
    String ns = TestIds.unique("fs").replace('-', '_');
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = service(p, ns);
      s.put(
          List.of(
              discovered("c", "http://a.example/1", null),
              discovered("c", "http://a.example/1", null),
              discovered("c", "http://a.example/2", null)));
      s.getUrls(HandOutRequest.of("c", 0, 5));
      s.put(List.of(known("c", "http://a.example/1", null, 0)));
      DailyStats host = s.dailyStats("c", "a.example").get(0);
      assertThat(host.put()).isEqualTo(4);
      assertThat(host.added()).isEqualTo(2);
      assertThat(host.duplicates()).isEqualTo(1);
      assertThat(host.handedOut()).isEqualTo(2);
      assertThat(host.acknowledged()).isEqualTo(1);
      assertThat(host.inQueue()).isEqualTo(1);
      Map<String, Long> byHost = new HashMap<>();
      s.hosts("c", org.casebook.core.page.PageRequest.first(10))
          .items()
          .forEach(h -> byHost.put(h.key(), h.queued()));
      assertThat(byHost).containsExactly(Map.entry("a.example", 1L));
    }
  }

  @Test
  void aHostEmptiedByAPutLeavesTheSchedule(HBaseRuntime runtime) {
    String ns = TestIds.unique("fe").replace('-', '_');
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = service(p, ns);
      s.put(
          List.of(
              discovered("c", "http://e.example/1", null),
              discovered("c", "http://e.example/2", null)));
      assertThat(s.host("c", "e.example").nextDue()).as("scheduled when filled").isNotNull();
      // Both completed without a hand-out: the put reads the host's queued count back (0).
      s.put(
          List.of(
              known("c", "http://e.example/1", null, 0),
              known("c", "http://e.example/2", null, 0)));
      HostInfo host = s.host("c", "e.example");
      assertThat(host.queued()).isZero();
      assertThat(host.nextDue()).as("an emptied host is not scheduled").isNull();
    }
  }

  @Test
  void aDeletedCrawlIsPurgedAfterItsGraceAndCanStartAgain(HBaseRuntime runtime) {
    String ns = TestIds.unique("fp").replace('-', '_');
    MovableClock clock = new MovableClock();
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build()) {
      FrontierService s = service(p, ns);
      s.put(
          List.of(
              discovered("c", "http://a.example/1", null),
              discovered("c", "http://b.example/1", null)));
      assertThat(s.deleteCrawl("c")).isEqualTo(2);
      assertThat(s.listCrawls()).doesNotContain("c");
      s.put(List.of(discovered("c", "http://a.example/1", null)));
      assertThat(s.countUrls("c", null, null, false)).as("a new channel").isEqualTo(1);
      assertThat(s.purgeDeleted()).as("within the grace period").isZero();
      clock.millis.addAndGet(FrontierService.PURGE_GRACE_MS + 1);
      assertThat(s.purgeDeleted()).isGreaterThan(0);
      assertThat(s.purgeDeleted()).isZero();
      assertThat(s.countUrls("c", null, "example", false)).isEqualTo(1);
      assertThat(s.getUrls(HandOutRequest.of("c", 0, 0)))
          .extracting(UrlInfo::url)
          .containsExactly("http://a.example/1");
    }
  }
}
