package org.casebook.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A crawler making StormCrawler's URLFrontier calls, with the frontier as its only store of URLs.
 *
 * <ul>
 *   <li>Spout (StormCrawler's URLFrontier {@code Spout}): one GetURLs at a time with {@code
 *       max_urls_per_queue}, {@code max_queues}, {@code delay_requestable} and {@code crawlID}, a
 *       new one a short time after the last was sent; every URL answered goes to the fetcher, with
 *       no check of its own whether it was seen before.
 *   <li>Fetcher (StormCrawler's {@code FetcherBolt}): a queue per URL key, a few threads, one fetch
 *       at a time per queue and the next no sooner than {@code fetcher.server.delay} after the last
 *       ended; a page's links are its outlinks.
 *   <li>Status updater ({@link TestStatusUpdater}): outlinks as discovered URLs keyed by their host
 *       ({@code partition.url.mode: byHost}), the fetched page as known with {@code
 *       refetchable_from_date} 0 ({@code fetchInterval.default: -1}, never again).
 * </ul>
 */
final class TestCrawler implements AutoCloseable {
  /** StormCrawler's settings that shape the calls, under their StormCrawler names. */
  record Settings(
      int maxUrlsPerBucket,
      int maxBuckets,
      int delayRequestableSeconds,
      Duration minDelayBetweenQueries,
      int fetcherThreads,
      Duration fetcherServerDelay) {}

  /**
   * One GetURLs call: when it was sent and when its answer was in ({@link System#nanoTime}), and
   * the URLs it answered.
   */
  record HandOut(long sentNanos, long receivedNanos, List<URLInfo> urls) {}

  /** How a crawl ended. */
  record Outcome(boolean frontierEmptied, Stats finalStats, Duration took) {}

  private static final Pattern HREF = Pattern.compile("href=\"([^\"]+)\"");

  private final String crawlId;
  private final Settings settings;
  private final ManagedChannel spoutChannel;
  private final ManagedChannel updaterChannel;
  private final URLFrontierGrpc.URLFrontierBlockingStub spout;
  private final TestStatusUpdater updater;
  private final HttpClient http;
  private final FetchQueues queues;
  private final List<Thread> fetchers = new ArrayList<>();
  private final List<HandOut> handOuts = new ArrayList<>();
  private final ConcurrentLinkedQueue<String> fetchErrors = new ConcurrentLinkedQueue<>();
  private final AtomicLong outstanding = new AtomicLong();
  private volatile boolean stopped;

  /** A crawler of {@code crawlId} talking to the frontier at {@code host:port}, as StormCrawler. */
  TestCrawler(String host, int port, String crawlId, Settings settings) {
    this.crawlId = crawlId;
    this.settings = settings;
    // The spout and the status updater each open a channel of their own, as StormCrawler's do.
    spoutChannel = ManagedChannelBuilder.forTarget(host + ":" + port).usePlaintext().build();
    updaterChannel = ManagedChannelBuilder.forTarget(host + ":" + port).usePlaintext().build();
    spout = URLFrontierGrpc.newBlockingStub(spoutChannel).withWaitForReady();
    updater = new TestStatusUpdater(URLFrontierGrpc.newStub(updaterChannel), crawlId);
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    queues = new FetchQueues(settings.fetcherServerDelay().toNanos());
  }

  /**
   * Crawls until the frontier has nothing queued or in flight for the crawl and nothing is being
   * fetched or waiting for an acknowledgement, or until {@code deadline} (then the crawl stops
   * where it is, for the checks to show what is missing).
   */
  Outcome crawl(Duration deadline) throws InterruptedException {
    long start = System.nanoTime();
    long end = start + deadline.toNanos();
    for (int i = 0; i < settings.fetcherThreads(); i++) {
      Thread fetcher = new Thread(this::fetchLoop, "fetcher-" + i);
      fetcher.start();
      fetchers.add(fetcher);
    }
    GetParams params =
        GetParams.newBuilder()
            .setMaxUrlsPerQueue(settings.maxUrlsPerBucket())
            .setMaxQueues(settings.maxBuckets())
            .setDelayRequestable(settings.delayRequestableSeconds())
            .setCrawlID(crawlId)
            .build();
    boolean emptied = false;
    Stats last = null;
    while (System.nanoTime() < end && !updater.broken()) {
      long sent = System.nanoTime();
      List<URLInfo> urls = new ArrayList<>();
      Iterator<URLInfo> answer = spout.withDeadlineAfter(30, TimeUnit.SECONDS).getURLs(params);
      answer.forEachRemaining(urls::add);
      long received = System.nanoTime();
      handOuts.add(new HandOut(sent, received, List.copyOf(urls)));
      outstanding.addAndGet(urls.size());
      queues.addAll(urls);
      if (urls.isEmpty() && outstanding.get() == 0 && updater.waitingForAcks() == 0) {
        last = stats();
        if (last.getSize() == 0 && last.getInProcess() == 0) {
          emptied = true;
          break;
        }
      }
      long next = sent + settings.minDelayBetweenQueries().toNanos();
      long wait = next - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
    }
    stopped = true;
    queues.wake();
    for (Thread fetcher : fetchers) {
      fetcher.join();
    }
    return new Outcome(
        emptied, last == null ? stats() : last, Duration.ofNanos(System.nanoTime() - start));
  }

  private Stats stats() {
    return spout.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawlId).build());
  }

  private void fetchLoop() {
    try {
      while (!stopped) {
        FetchQueues.Item item = queues.take();
        if (item == null) {
          continue;
        }
        try {
          fetch(item.url());
        } finally {
          queues.finished(item.key(), System.nanoTime());
          outstanding.decrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void fetch(URLInfo info) throws InterruptedException {
    String url = info.getUrl();
    Map<String, String> metadata = new HashMap<>();
    StringList depthValues = info.getMetadataMap().get("depth");
    int depth =
        depthValues == null || depthValues.getValuesCount() == 0
            ? 0
            : Integer.parseInt(depthValues.getValues(0));
    metadata.put("depth", Integer.toString(depth));
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      fetchErrors.add(url + ": " + e);
      updater.store(
          url, info.getKey(), TestStatusUpdater.Status.FETCH_ERROR, metadata, inTwoHours());
      return;
    }
    if (response.statusCode() != 200) {
      fetchErrors.add(url + ": HTTP " + response.statusCode());
      updater.store(
          url, info.getKey(), TestStatusUpdater.Status.FETCH_ERROR, metadata, inTwoHours());
      return;
    }
    Map<String, String> outlinkMetadata = Map.of("depth", Integer.toString(depth + 1));
    for (String outlink : outlinks(response.body())) {
      updater.store(
          outlink,
          URI.create(outlink).getHost(),
          TestStatusUpdater.Status.DISCOVERED,
          outlinkMetadata,
          0);
    }
    updater.store(url, info.getKey(), TestStatusUpdater.Status.FETCHED, metadata, 0);
  }

  /** StormCrawler's {@code fetchInterval.fetch.error}: two hours. */
  private static long inTwoHours() {
    return Instant.now().plus(Duration.ofHours(2)).getEpochSecond();
  }

  /** A page's links, each once, in page order (StormCrawler's parser dedupes outlinks too). */
  static Set<String> outlinks(String html) {
    Set<String> links = new LinkedHashSet<>();
    Matcher m = HREF.matcher(html);
    while (m.find()) {
      links.add(m.group(1));
    }
    return links;
  }

  /** Every GetURLs call of the crawl, in order. */
  List<HandOut> handOuts() {
    return List.copyOf(handOuts);
  }

  List<String> fetchErrors() {
    return List.copyOf(fetchErrors);
  }

  TestStatusUpdater updater() {
    return updater;
  }

  /**
   * URLs that reached the fetcher before their queue's delay since its last fetch had passed (or
   * while that fetch ran), and so waited for it.
   */
  long politenessWaits() {
    return queues.politenessWaits();
  }

  @Override
  public void close() {
    stopped = true;
    queues.wake();
    try {
      for (Thread fetcher : fetchers) {
        fetcher.join();
      }
      updater.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the crawler stopped", e);
    } finally {
      spoutChannel.shutdownNow();
      updaterChannel.shutdownNow();
    }
  }

  /**
   * FetcherBolt's queues: one per URL key, one fetch at a time each, the next no sooner than the
   * delay after the last one ended.
   */
  private static final class FetchQueues {
    record Item(String key, URLInfo url) {}

    private record Waiting(URLInfo url, long sinceNanos) {}

    private static final class Queue {
      final ArrayDeque<Waiting> urls = new ArrayDeque<>();
      boolean fetching;
      long nextFetchNanos;

      Queue(long openedNanos) {
        nextFetchNanos = openedNanos;
      }
    }

    private final long delayNanos;
    private final Map<String, Queue> queues = new HashMap<>();
    private long politenessWaits;
    private boolean woken;

    FetchQueues(long delayNanos) {
      this.delayNanos = delayNanos;
    }

    synchronized void addAll(List<URLInfo> urls) {
      long now = System.nanoTime();
      for (URLInfo url : urls) {
        queues.computeIfAbsent(url.getKey(), k -> new Queue(now)).urls.add(new Waiting(url, now));
      }
      notifyAll();
    }

    /** The next URL a queue may fetch now, waiting a little for one; null if none came. */
    synchronized Item take() throws InterruptedException {
      long now = System.nanoTime();
      long soonest = now + TimeUnit.MILLISECONDS.toNanos(50);
      for (Map.Entry<String, Queue> e : queues.entrySet()) {
        Queue q = e.getValue();
        if (q.fetching || q.urls.isEmpty()) {
          continue;
        }
        if (q.nextFetchNanos - now <= 0) {
          q.fetching = true;
          Waiting next = q.urls.poll();
          if (q.nextFetchNanos - next.sinceNanos() > 0) {
            politenessWaits++;
          }
          return new Item(e.getKey(), next.url());
        }
        soonest = Math.min(soonest, q.nextFetchNanos);
      }
      if (!woken) {
        TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, soonest - now));
      }
      return null;
    }

    synchronized void finished(String key, long endNanos) {
      Queue q = queues.get(key);
      q.fetching = false;
      q.nextFetchNanos = endNanos + delayNanos;
      notifyAll();
    }

    synchronized void wake() {
      woken = true;
      notifyAll();
    }

    synchronized long politenessWaits() {
      return politenessWaits;
    }
  }
}
