package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * GetURLs from many threads at once on queues without a delay between hand-outs, where a host's
 * claim lasts a millisecond: a URL is handed out once within its claim, and a URL acknowledged
 * while a hand-out read it is not marked in flight again.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierHandoutRacesIT {
  private static final int THREADS = 8;
  private static final int HOSTS = 3;

  private static FrontierService frontier(Platform p, String crawl) {
    String ns = TestIds.unique("fr").replace('-', '_');
    FrontierService s = new FrontierService(p.contextFor("frontier"), ns);
    s.createChannel(crawl, ChannelKind.FIFO, 0);
    return s;
  }

  private static List<UrlInfo> put(FrontierService s, String crawl, int n) {
    return put(s, crawl, "", n);
  }

  private static List<UrlInfo> put(FrontierService s, String crawl, String prefix, int n) {
    List<UrlInfo> urls = new ArrayList<>();
    List<UrlItem> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String key = "h" + (i % HOSTS) + ".example";
      UrlInfo u = UrlInfo.of("http://" + key + "/" + prefix + i, crawl).withKey(key);
      urls.add(u);
      items.add(UrlItem.discovered(u));
      if (items.size() == 100 || i == n - 1) {
        assertThat(s.put(items)).allMatch(a -> a.status() == PutStatus.OK);
        items = new ArrayList<>();
      }
    }
    return urls;
  }

  @Test
  void concurrentHandOutsOfOneQueueHandEachUrlOutOnceWithinItsClaim(HBaseRuntime runtime)
      throws Exception {
    String crawl = "once";
    int n = 1500;
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(p, crawl);
      put(s, crawl, n);
      Map<String, Integer> times = new ConcurrentHashMap<>();
      AtomicInteger handedOut = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> done = new ArrayList<>();
      long deadline = System.nanoTime() + 60_000_000_000L;
      for (int t = 0; t < THREADS; t++) {
        done.add(
            pool.submit(
                () -> {
                  while (handedOut.get() < n && System.nanoTime() < deadline) {
                    // Claimed for ten minutes: nothing comes back within the test. No limit per
                    // queue (URLs in flight count against it).
                    for (UrlInfo u :
                        s.getUrls(HandOutRequest.of(crawl, 0, 0).withDelayRequestable(600))) {
                      times.merge(u.url(), 1, Integer::sum);
                      handedOut.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      Map<String, Integer> twice = new HashMap<>();
      times.forEach(
          (url, k) -> {
            if (k > 1) {
              twice.put(url, k);
            }
          });
      assertThat(twice).as("URLs handed out more than once within their claim").isEmpty();
      assertThat(times).as("every URL handed out").hasSize(n);
      assertThat(s.stats(crawl, "").inFlight()).isEqualTo(n);
    }
  }

  @Test
  void anAcknowledgementDuringAHandOutIsNotUndoneByItsInFlightMark(HBaseRuntime runtime)
      throws Exception {
    String crawl = "acked";
    int n = 600;
    int rounds = 5;
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(p, crawl);
      Map<String, Long> ackedAt = new ConcurrentHashMap<>();
      Map<String, List<Long>> givenAt = new ConcurrentHashMap<>();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      for (int r = 0; r < rounds; r++) {
        List<UrlInfo> urls = new ArrayList<>(put(s, crawl, r + "-", n));
        Collections.shuffle(urls, new java.util.Random(r));
        AtomicInteger nextAck = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> running = new ArrayList<>();
        // Half the threads acknowledge every URL as fetched, in an order of their own, while the
        // other half hands every queue out whole (no limit per queue: long reads, large batches
        // of marks): acknowledgements land between a hand-out's read and its marks.
        for (int t = 0; t < THREADS / 2; t++) {
          running.add(
              pool.submit(
                  () -> {
                    start.await();
                    for (int i = nextAck.getAndAdd(3); i < n; i = nextAck.getAndAdd(3)) {
                      List<UrlItem> done = new ArrayList<>();
                      for (UrlInfo u : urls.subList(i, Math.min(n, i + 3))) {
                        done.add(UrlItem.known(u, 0));
                      }
                      List<PutAck> acks = s.put(done);
                      long at = System.nanoTime();
                      for (PutAck a : acks) {
                        assertThat(a.status()).isEqualTo(PutStatus.OK);
                        ackedAt.put(a.id(), at);
                      }
                    }
                    return null;
                  }));
          running.add(
              pool.submit(
                  () -> {
                    start.await();
                    while (nextAck.get() < n) {
                      long begun = System.nanoTime();
                      for (UrlInfo u :
                          s.getUrls(HandOutRequest.of(crawl, 0, 0).withDelayRequestable(600))) {
                        givenAt
                            .computeIfAbsent(
                                u.url(), k -> Collections.synchronizedList(new ArrayList<>()))
                            .add(begun);
                      }
                    }
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> f : running) {
          f.get();
        }
      }
      pool.shutdown();
      List<String> afterAck = new ArrayList<>();
      givenAt.forEach(
          (url, starts) -> {
            Long acked = ackedAt.get(url);
            if (acked != null && starts.stream().anyMatch(st -> st > acked)) {
              afterAck.add(url);
            }
          });
      assertThat(afterAck)
          .as("handed out by a call begun after the URL was acknowledged")
          .isEmpty();
      QueueStats stats = s.stats(crawl, "");
      assertThat(stats.completed()).isEqualTo((long) n * rounds);
      assertThat(stats.queued()).isZero();
      assertThat(stats.inFlight()).as("URLs in flight once every URL is done").isZero();
    }
  }

  @Test
  void racingClaimsOfEachQueueLeaveNoQueueOutOfTheDueIndex(HBaseRuntime runtime) throws Exception {
    String crawl = "due";
    int n = 1200;
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(p, crawl);
      AtomicInteger produced = new AtomicInteger();
      Map<String, Boolean> done = new ConcurrentHashMap<>();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> running = new ArrayList<>();
      long deadline = System.nanoTime() + 30_000_000_000L;
      // Two threads put URLs while the others claim every due queue, take what is due (no limit
      // per queue, so URLs in flight never hold a queue back) and acknowledge it: each queue is
      // claimed again and again, a millisecond apart, and filled again meanwhile.
      for (int t = 0; t < 2; t++) {
        running.add(
            pool.submit(
                () -> {
                  for (int i = produced.getAndAdd(10); i < n; i = produced.getAndAdd(10)) {
                    List<UrlItem> items = new ArrayList<>();
                    for (int u = i; u < i + 10; u++) {
                      String key = "h" + (u % HOSTS) + ".example";
                      items.add(
                          UrlItem.discovered(
                              UrlInfo.of("http://" + key + "/" + u, crawl).withKey(key)));
                    }
                    // SKIPPED: handed out and acknowledged while its own put was in flight.
                    assertThat(s.put(items)).noneMatch(a -> a.status() == PutStatus.FAIL);
                  }
                  return null;
                }));
      }
      for (int t = 2; t < THREADS; t++) {
        running.add(
            pool.submit(
                () -> {
                  while (done.size() < n && System.nanoTime() < deadline) {
                    List<UrlItem> acks = new ArrayList<>();
                    for (UrlInfo u :
                        s.getUrls(HandOutRequest.of(crawl, 0, 0).withDelayRequestable(600))) {
                      acks.add(UrlItem.known(u, 0));
                    }
                    for (PutAck a : s.put(acks)) {
                      assertThat(a.status()).isEqualTo(PutStatus.OK);
                      done.put(a.id(), true);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
      pool.shutdown();
      assertThat(done).as("URLs handed out and acknowledged before the deadline").hasSize(n);
      assertThat(s.stats(crawl, "").queued()).isZero();
    }
  }
}
