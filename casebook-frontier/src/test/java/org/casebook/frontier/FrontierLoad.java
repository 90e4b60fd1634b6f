package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.testing.ChaosLoad;

/**
 * A crawl's load through the frontier's Java API and the promises checked after it: workers put
 * discovered URLs, claim URLs (some held in flight, the rest acknowledged as fetched), and every
 * hand-out and acknowledgement is recorded with when its call began and returned. A call that threw
 * or answered FAIL leaves its URLs uncertain: they are held to no promise that depends on it.
 */
final class FrontierLoad {
  /** The wall clock, moved on by hand at the end so every claim and host delay has passed. */
  static final class FlowingClock extends Clock {
    private final AtomicLong offset = new AtomicLong();

    void advance(long millis) {
      offset.addAndGet(millis);
    }

    @Override
    public long millis() {
      return System.currentTimeMillis() + offset.get();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("fixed to UTC");
    }
  }

  /** One URL handed out: the call's clock time at its start and end, and its claim. */
  record Given(long startMs, long endMs, long startNanos, long claimMs) {}

  /** Sends of a drain's acknowledgement before it counts as failing for good. */
  private static final int ACK_ATTEMPTS = 120;

  private final FrontierService frontier;
  private final FlowingClock clock;
  private final String crawl;
  private final int hosts;
  private final int claimSeconds;
  private final AtomicLong next = new AtomicLong();
  private final Set<String> stored = ConcurrentHashMap.newKeySet();
  private final Set<String> uncertain = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> ackedAtNanos = new ConcurrentHashMap<>();
  private final Map<String, List<Given>> given = new ConcurrentHashMap<>();

  FrontierLoad(
      FrontierService frontier, FlowingClock clock, String crawl, int hosts, int claimSeconds) {
    this.frontier = frontier;
    this.clock = clock;
    this.crawl = crawl;
    this.hosts = hosts;
    this.claimSeconds = claimSeconds;
  }

  static String key(int host) {
    return "h" + host + ".example";
  }

  /** One step of worker {@code worker}: a put, a hand-out from the crawl or from one queue. */
  void step(int worker, long iteration) {
    SplittableRandom random = new SplittableRandom(worker * 1_000_003L + iteration);
    switch ((int) (iteration % 4)) {
      case 0 -> discover(10);
      case 3 -> handOut(new HandOutRequest(crawl, key(worker % hosts), 1, 4, claimSeconds), random);
      default -> handOut(HandOutRequest.of(crawl, 3, 4).withDelayRequestable(claimSeconds), random);
    }
  }

  /** Puts {@code n} new URLs spread over the hosts. */
  void discover(int n) {
    List<UrlItem> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long id = next.getAndIncrement();
      String url = "http://" + key((int) (id % hosts)) + "/" + id;
      items.add(UrlItem.discovered(UrlInfo.of(url, crawl).withKey(key((int) (id % hosts)))));
      uncertain.add(url);
    }
    List<PutAck> acks = frontier.put(items);
    for (PutAck a : acks) {
      // SKIPPED: handed out and acknowledged while its own put was in flight (stored all the same).
      if (a.status() != PutStatus.FAIL) {
        stored.add(a.id());
        uncertain.remove(a.id());
      }
    }
  }

  /** Claims URLs; acknowledges about two thirds as fetched and holds the rest in flight. */
  List<UrlInfo> handOut(HandOutRequest request, SplittableRandom random) {
    long startNanos = System.nanoTime();
    long startMs = clock.millis();
    List<UrlInfo> out = frontier.getUrls(request);
    Given g = new Given(startMs, clock.millis(), startNanos, 1000L * request.delayRequestable());
    List<UrlItem> done = new ArrayList<>();
    for (UrlInfo u : out) {
      given.computeIfAbsent(u.url(), k -> Collections.synchronizedList(new ArrayList<>())).add(g);
      if (random.nextInt(3) > 0) {
        done.add(UrlItem.known(u, 0));
      }
    }
    acknowledge(done);
    return out;
  }

  private void acknowledge(List<UrlItem> done) {
    if (done.isEmpty()) {
      return;
    }
    done.forEach(d -> uncertain.add(d.info().url()));
    List<PutAck> acks = frontier.put(done);
    long at = System.nanoTime();
    for (PutAck a : acks) {
      if (a.status() == PutStatus.OK) {
        ackedAtNanos.putIfAbsent(a.id(), at);
        uncertain.remove(a.id());
      }
    }
  }

  /**
   * Once the load stopped: moves the clock past every claim and host delay, hands out everything
   * left (claimed for an hour, acknowledging each) and checks every promise. A cluster may still be
   * recovering from the chaos: a call of the drain that fails is made again, and a hand-out that
   * failed moves the clock past the claims it may have taken without answering.
   */
  void drainAndCheck(String context) throws Exception {
    clock.advance(3_600_000L);
    List<UrlInfo> drained = new ArrayList<>();
    HandOutRequest request = HandOutRequest.of(crawl, 0, 50).withDelayRequestable(3600);
    for (int empty = 0; empty < 2; ) {
      long startNanos = System.nanoTime();
      long startMs = clock.millis();
      // A hand-out that failed may have claimed URLs unanswered: the clock passes those claims.
      boolean[] tried = {false};
      List<UrlInfo> out =
          ChaosLoad.afterRecovery(
              () -> {
                if (tried[0]) {
                  clock.advance(7_200_000L);
                }
                tried[0] = true;
                return frontier.getUrls(request);
              });
      Given g = new Given(startMs, clock.millis(), startNanos, 3_600_000L);
      for (UrlInfo u : out) {
        given.computeIfAbsent(u.url(), k -> Collections.synchronizedList(new ArrayList<>())).add(g);
      }
      drained.addAll(out);
      acknowledgeUntilTaken(out.stream().map(u -> UrlItem.known(u, 0)).toList());
      empty = out.isEmpty() ? empty + 1 : 0;
    }
    Set<String> drainedUrls = new HashSet<>();
    drained.forEach(u -> drainedUrls.add(u.url()));
    assertThat(drained).as("each URL once in the drain" + context).hasSameSizeAs(drainedUrls);

    List<String> lost = new ArrayList<>();
    for (String url : stored) {
      if (!ackedAtNanos.containsKey(url)
          && !uncertain.contains(url)
          && !drainedUrls.contains(url)) {
        lost.add(url);
      }
    }
    assertThat(lost).as("queued URLs never handed out again" + context).isEmpty();

    checkHandOuts(given, ackedAtNanos, context);
    checkCounters(context);
  }

  /**
   * No URL of {@code given} (its hand-outs) was handed out again within a claim, nor after its
   * acknowledgement as fetched returned OK ({@code ackedAtNanos}).
   */
  static void checkHandOuts(
      Map<String, List<Given>> given, Map<String, Long> ackedAtNanos, String context) {
    List<String> twice = new ArrayList<>();
    List<String> afterAck = new ArrayList<>();
    given.forEach(
        (url, list) -> {
          List<Given> sorted;
          synchronized (list) {
            sorted = new ArrayList<>(list);
          }
          sorted.sort(java.util.Comparator.comparingLong(Given::startNanos));
          for (int i = 1; i < sorted.size(); i++) {
            Given a = sorted.get(i - 1);
            Given b = sorted.get(i);
            if (b.endMs() < a.startMs() + a.claimMs()) {
              twice.add(url + " " + a + " " + b);
            }
          }
          Long acked = ackedAtNanos.get(url);
          if (acked != null && sorted.stream().anyMatch(g -> g.startNanos() > acked)) {
            afterAck.add(url);
          }
        });
    assertThat(twice).as("handed out again within a claim" + context).isEmpty();
    assertThat(afterAck).as("handed out after acknowledged as fetched" + context).isEmpty();
  }

  /** Acknowledges {@code done} as fetched, sending again what failed until every one is taken. */
  private void acknowledgeUntilTaken(List<UrlItem> done) throws Exception {
    List<UrlItem> left = done;
    for (int attempt = 0; !left.isEmpty(); attempt++) {
      if (attempt > 0) {
        Thread.sleep(1000);
      }
      done.forEach(d -> uncertain.add(d.info().url()));
      List<UrlItem> sent = left;
      List<PutAck> acks = ChaosLoad.afterRecovery(() -> frontier.put(sent));
      long at = System.nanoTime();
      Set<String> failed = new HashSet<>();
      for (PutAck a : acks) {
        if (a.status() == PutStatus.OK) {
          ackedAtNanos.putIfAbsent(a.id(), at);
          uncertain.remove(a.id());
        } else {
          failed.add(a.id());
        }
      }
      left = sent.stream().filter(d -> failed.contains(d.info().url())).toList();
      if (attempt > ACK_ATTEMPTS) {
        throw new AssertionError("acknowledgements still failing: " + failed);
      }
    }
  }

  /**
   * The running counters of the crawl and of each queue equal the known rows stored, once the
   * counter writes left to the settlement are settled.
   */
  void checkCounters(String context) throws Exception {
    FrontierCountersIT.awaitSettled(frontier);
    Map<String, long[]> rows = new HashMap<>();
    long[] total = new long[2];
    List<KnownUrl> known =
        ChaosLoad.afterRecovery(() -> frontier.listUrls(crawl, "", 0, 1_000_000, "", false));
    for (KnownUrl u : known) {
      int done = u.refetchableFromDate() == 0 ? 1 : 0;
      rows.computeIfAbsent(u.info().key(), k -> new long[2])[done]++;
      total[done]++;
    }
    QueueStats all = ChaosLoad.afterRecovery(() -> frontier.stats(crawl, ""));
    assertThat(new long[] {all.queued(), all.completed()})
        .as("crawl counters (queued, completed) against the rows" + context)
        .containsExactly(total);
    assertThat(all.inFlight()).as("in flight after the drain acknowledged all" + context).isZero();
    for (int h = 0; h < hosts; h++) {
      String host = key(h);
      QueueStats s = ChaosLoad.afterRecovery(() -> frontier.stats(crawl, host));
      long[] r = rows.getOrDefault(key(h), new long[2]);
      assertThat(new long[] {s.queued(), s.completed()})
          .as("counters of " + key(h) + " against its rows" + context)
          .containsExactly(r);
    }
    assertThat(total[0]).as("nothing left queued after the drain" + context).isZero();
  }

  long stored() {
    return stored.size();
  }

  long handOuts() {
    return given.values().stream().mapToLong(List::size).sum();
  }
}
