package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.api.SoftAssertions;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #33: the frontier keeps its promises while HBase splits, merges, flushes and compacts its
 * regions. Crawlers put discovered URLs, claim URLs (GetURLs, held in flight for a few seconds) and
 * acknowledge some as fetched, while region chaos acts on every table of the frontier; once the
 * regions settled, from the service's API: no acknowledged URL lost, no URL handed out twice within
 * its claim, none handed out after it was acknowledged as fetched, the counters equal the rows
 * stored, and every URL still queued is handed out again.
 */
// Disabled because it cannot run here, not because it fails: in this module's test JVM protobuf 3
// (for the URLFrontier classes) is on the class path unrelocated, and HBase's legacy protocol
// classes (hbase-protocol's ByteStringer) need protobuf 2.5's LiteralByteString; the embedded
// master's first split stops in SPLIT_TABLE_REGION_UPDATE_META with NoClassDefFoundError, retried
// for good with the parent region offline (see the failsafe note in this module's pom).
@Disabled(
    "HBase cannot record a split in hbase:meta with protobuf 3 unrelocated on this class path")
@ExtendWith(EmbeddedHBase.class)
class FrontierChaosIT {
  private static final long SEED = 33;
  private static final Duration DURATION = Duration.ofSeconds(8);
  private static final Duration PAUSE = Duration.ofMillis(300);
  private static final int WORKERS = 4;

  private static final String CRAWL = "chaos";
  private static final int HOSTS = 16;

  /** Distinct URLs put at most; then puts only repeat URLs put before (duplicates). */
  private static final int MAX_URLS = 2_000;

  private static final int PUT_BATCH = 10;

  /** The delay between two hand-outs of one host (the channel's default politeness). */
  private static final long HOST_DELAY_MS = 1_000;

  /** How long a URL handed out stays in flight (GetURLs' delay_requestable). */
  private static final int CLAIM_SECONDS = 2;

  private static final long CLAIM_MS = CLAIM_SECONDS * 1000L;

  /** One URL handed out: the call's start and end (the claim was made in between). */
  private record HandOut(String url, long before, long after) {}

  private FrontierService frontier;
  private final AtomicLong nextUrl = new AtomicLong();

  /** Every URL put, acknowledged or not. */
  private final Set<String> attempted = ConcurrentHashMap.newKeySet();

  /** Discovered URLs acknowledged as stored: new (OK) or already known (SKIPPED). */
  private final Set<String> stored = ConcurrentHashMap.newKeySet();

  /** Puts that failed (FAIL or thrown): their URLs may or may not be stored. */
  private final AtomicLong failedPuts = new AtomicLong();

  private final ConcurrentLinkedQueue<HandOut> handOuts = new ConcurrentLinkedQueue<>();

  /** When the last GetURLs call ended, answered or not (its claims expire after it). */
  private final AtomicLong lastClaimCall = new AtomicLong();

  /** URLs acknowledged as fetched (done), with the time the first acknowledgement returned. */
  private final Map<String, Long> done = new ConcurrentHashMap<>();

  /** URLs whose acknowledgement failed: done or still queued. */
  private final Set<String> maybeDone = ConcurrentHashMap.newKeySet();

  @Test
  void putsClaimsAndAcknowledgementsKeepTheirPromisesWhileRegionsSplitAndMerge(HBaseRuntime runtime)
      throws InterruptedException {
    // A namespace of its own: the chaos splits and merges only this test's tables.
    String namespace = TestIds.unique("frontier_chaos").replace('-', '_');
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      frontier = new FrontierService(platform.contextFor("frontier"), namespace);
      frontier.createChannel(CRAWL, ChannelKind.FIFO, HOST_DELAY_MS);
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              FrontierSchema.in(namespace).tables().stream().map(TableSpec::name).toList(),
              SEED,
              DURATION,
              PAUSE,
              WORKERS,
              (worker, iteration) -> {
                // Half the steps put, half crawl: every worker does both.
                if ((worker + iteration) % 2 == 0) {
                  putSome();
                } else {
                  claimAndAcknowledge();
                }
              });
      String context = "\n" + failedPuts.get() + " puts failed\n" + report;
      assertThat(report.done(ChaosAction.SPLIT)).as(report.toString()).isPositive();
      assertThat(handOuts).as("URLs handed out" + context).isNotEmpty();
      assertThat(done).as("URLs acknowledged as fetched" + context).isNotEmpty();

      // Every claim made during the load has expired, and every host may be claimed again.
      long wait = lastClaimCall.get() + CLAIM_MS + HOST_DELAY_MS + 100 - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      Map<String, KnownUrl> rows = new HashMap<>();
      for (KnownUrl u : frontier.listUrls(CRAWL, null, 0, 1_000_000, null, false)) {
        assertThat(rows.put(u.info().url(), u)).as("URL listed twice" + context).isNull();
      }
      SoftAssertions softly = new SoftAssertions();
      assertUrlsKept(softly, rows, context);
      assertClaimsHeld(softly, context);
      assertCountersEqualRows(softly, rows, context);
      softly.assertAll();
      assertQueuedUrlsAreHandedOutAgain(rows, context);
    } finally {
      new SchemaManager(runtime.connection()).dropNamespace(namespace);
    }
  }

  /** A step: a batch of new URLs (while under the cap) and two put before, as discovered. */
  private void putSome() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < PUT_BATCH; i++) {
      long n = nextUrl.getAndIncrement();
      if (n < MAX_URLS) {
        urls.add(url(n));
      }
    }
    // Duplicates, possibly racing the first put of the same URL in another worker.
    long known = Math.min(nextUrl.get(), MAX_URLS);
    for (int i = 0; i < 2; i++) {
      String again = url(random.nextLong(known));
      if (!urls.contains(again)) {
        urls.add(again);
      }
    }
    attempted.addAll(urls);
    List<UrlItem> items = urls.stream().map(u -> UrlItem.discovered(UrlInfo.of(u, CRAWL))).toList();
    List<PutAck> acks;
    try {
      acks = frontier.put(items);
    } catch (RuntimeException e) {
      failedPuts.incrementAndGet();
      throw e;
    }
    for (int i = 0; i < acks.size(); i++) {
      if (acks.get(i).status() == PutStatus.FAIL) {
        failedPuts.incrementAndGet();
      } else {
        stored.add(urls.get(i));
      }
    }
  }

  /** A step: GetURLs, every URL recorded with the call's times; every other one acknowledged. */
  private void claimAndAcknowledge() throws InterruptedException {
    long before = System.currentTimeMillis();
    List<UrlInfo> got;
    try {
      got = frontier.getUrls(HandOutRequest.of(CRAWL, 4, 5).withDelayRequestable(CLAIM_SECONDS));
    } finally {
      lastClaimCall.accumulateAndGet(System.currentTimeMillis(), Math::max);
    }
    long after = System.currentTimeMillis();
    if (got.isEmpty()) {
      // Nothing due: every host claimed within its delay. Not a busy loop on the due index.
      Thread.sleep(20);
      return;
    }
    List<String> fetched = new ArrayList<>();
    for (int i = 0; i < got.size(); i++) {
      handOuts.add(new HandOut(got.get(i).url(), before, after));
      if (i % 2 == 0) {
        fetched.add(got.get(i).url());
      }
    }
    List<PutAck> acks;
    try {
      acks =
          frontier.put(fetched.stream().map(u -> UrlItem.known(UrlInfo.of(u, CRAWL), 0)).toList());
    } catch (RuntimeException e) {
      failedPuts.incrementAndGet();
      maybeDone.addAll(fetched);
      throw e;
    }
    long acknowledged = System.currentTimeMillis();
    for (int i = 0; i < acks.size(); i++) {
      if (acks.get(i).status() == PutStatus.OK) {
        done.merge(fetched.get(i), acknowledged, Math::min);
      } else {
        failedPuts.incrementAndGet();
        maybeDone.add(fetched.get(i));
      }
    }
  }

  private void assertUrlsKept(SoftAssertions softly, Map<String, KnownUrl> rows, String context) {
    softly
        .assertThat(rows.keySet())
        .as("every URL acknowledged as stored is known" + context)
        .containsAll(stored);
    softly.assertThat(attempted).as("every URL known was put" + context).containsAll(rows.keySet());
    for (String url : done.keySet()) {
      softly
          .assertThat(rows.containsKey(url) ? rows.get(url).refetchableFromDate() : -1L)
          .as("%s, acknowledged as fetched, is done%s", url, context)
          .isZero();
    }
    for (KnownUrl row : rows.values()) {
      String url = row.info().url();
      if (row.refetchableFromDate() == 0) {
        softly
            .assertThat(done.containsKey(url) || maybeDone.contains(url))
            .as("%s is done only if acknowledged as fetched%s", url, context)
            .isTrue();
      }
    }
  }

  /**
   * No URL twice within its claim: two hand-outs of one URL are at least the claim apart unless
   * even their calls' extremes are closer. None after its acknowledgement as fetched returned.
   */
  private void assertClaimsHeld(SoftAssertions softly, String context) {
    Map<String, List<HandOut>> byUrl = new HashMap<>();
    handOuts.forEach(h -> byUrl.computeIfAbsent(h.url(), k -> new ArrayList<>()).add(h));
    List<String> early = new ArrayList<>();
    List<String> afterDone = new ArrayList<>();
    for (Map.Entry<String, List<HandOut>> e : byUrl.entrySet()) {
      List<HandOut> hs = e.getValue();
      for (int i = 0; i < hs.size(); i++) {
        for (int j = i + 1; j < hs.size(); j++) {
          HandOut a = hs.get(i);
          HandOut b = hs.get(j);
          long widest = Math.max(b.after() - a.before(), a.after() - b.before());
          if (widest < CLAIM_MS) {
            early.add(e.getKey() + ": " + a + " and " + b);
          }
        }
      }
      Long doneAt = done.get(e.getKey());
      for (HandOut h : hs) {
        if (doneAt != null && h.before() > doneAt) {
          afterDone.add(h + ", acknowledged as fetched at " + doneAt);
        }
      }
    }
    softly.assertThat(early).as("URLs handed out again within their claim" + context).isEmpty();
    softly.assertThat(afterDone).as("URLs handed out once done" + context).isEmpty();
  }

  private void assertCountersEqualRows(
      SoftAssertions softly, Map<String, KnownUrl> rows, String context) {
    Map<String, long[]> byHost = new HashMap<>();
    long queued = 0;
    for (KnownUrl row : rows.values()) {
      boolean isDone = row.refetchableFromDate() == 0;
      queued += isDone ? 0 : 1;
      byHost.computeIfAbsent(row.info().key(), k -> new long[2])[isDone ? 1 : 0]++;
    }
    long completed = rows.size() - queued;
    softly
        .assertThat(frontier.countUrls(CRAWL, null, null, false))
        .as("URLs counted = rows" + context)
        .isEqualTo(rows.size());
    softly
        .assertThat(frontier.countUrls(CRAWL, null, "example", false))
        .as("URLs counted by a scan = rows" + context)
        .isEqualTo(rows.size());
    QueueStats stats = frontier.stats(CRAWL, null);
    softly.assertThat(stats.queued()).as("queued counter = rows" + context).isEqualTo(queued);
    softly
        .assertThat(stats.completed())
        .as("completed counter = rows" + context)
        .isEqualTo(completed);
    softly
        .assertThat(stats.queues())
        .as("queues = hosts of the rows" + context)
        .isEqualTo(byHost.size());
    Map<String, long[]> counted = new HashMap<>();
    for (HostInfo h : frontier.hosts(CRAWL, PageRequest.first(PageRequest.MAX_LIMIT)).items()) {
      counted.put(h.key(), new long[] {h.queued(), h.completed()});
    }
    softly.assertThat(counted.keySet()).as("hosts" + context).isEqualTo(byHost.keySet());
    for (Map.Entry<String, long[]> e : byHost.entrySet()) {
      softly
          .assertThat(counted.getOrDefault(e.getKey(), new long[2]))
          .as("queued and completed counters of %s = rows%s", e.getKey(), context)
          .containsExactly(e.getValue());
    }
  }

  /**
   * Every URL still queued is reachable: once every claim has expired, GetURLs hands each out (the
   * due index lost no host), and the crawl counts them in flight.
   */
  private void assertQueuedUrlsAreHandedOutAgain(Map<String, KnownUrl> rows, String context)
      throws InterruptedException {
    Set<String> queued = new HashSet<>();
    rows.values().stream()
        .filter(u -> u.refetchableFromDate() != 0)
        .forEach(u -> queued.add(u.info().url()));
    Set<String> drained = new HashSet<>();
    List<String> twice = new ArrayList<>();
    // A host served by one call is not claimed again before its delay: a few calls apart.
    for (int call = 0; call < 4 && !drained.containsAll(queued); call++) {
      if (call > 0) {
        Thread.sleep(HOST_DELAY_MS + 100);
      }
      for (UrlInfo u : frontier.getUrls(HandOutRequest.of(CRAWL, 0, 0).withDelayRequestable(600))) {
        if (!drained.add(u.url())) {
          twice.add(u.url());
        }
      }
    }
    assertThat(drained).as("queued URLs handed out after the chaos" + context).isEqualTo(queued);
    assertThat(twice).as("URLs handed out twice after the chaos" + context).isEmpty();
    assertThat(frontier.stats(CRAWL, null).inFlight())
        .as("URLs in flight after the chaos" + context)
        .isEqualTo(drained.size());
  }

  private static String url(long n) {
    return "http://h" + (n % HOSTS) + ".example/" + n;
  }
}
