package org.casebook.bench;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.ResultFiles;
import org.casebook.core.schema.SchemaManager;
import org.casebook.server.Session;
import picocli.CommandLine.Option;

/**
 * {@code bench frontier}: the same URLFrontier workload over gRPC against Casebook (in this JVM,
 * started as {@code serve} starts it with its setting {@code frontier.namespace} naming a namespace
 * of its own, its gRPC listener on a free loopback port) and, with {@code --reference-jar}, the
 * URLFrontier reference service (RocksDB) in a child JVM — PutURLs rate, the crawl loop (GetURLs,
 * then every URL acknowledged as known and done) with 1 and 10 URLs per queue, politeness (the
 * shortest gap between two hand-outs of one host against its 1 s delay), and GetURLs latency once
 * every URL is done (an emptied frontier). The HBase floor ({@link FrontierStorageFloor}) is
 * measured in the same run: the least storage work any frontier on this HBase does for the same
 * URLs.
 */
final class FrontierBenchmark {
  private static final String CRAWL = "bench";
  private static final String NAMESPACE = "frontier_bench";
  private static final long DELAY_SECONDS = 1;
  private static final int IN_FLIGHT_PUTS = 20_000;

  /** HTTP threads of the served frontier: the benchmark speaks gRPC only. */
  private static final int HTTP_THREADS = 2;

  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--urls",
        defaultValue = "1000000",
        description = "URLs put (default ${DEFAULT-VALUE}).")
    int urls;

    @Option(
        paramLabel = "N",
        names = "--hosts",
        defaultValue = "10000",
        description = "Hosts (queues) they are spread over (default ${DEFAULT-VALUE}).")
    int hosts;

    @Option(
        paramLabel = "SECONDS",
        names = "--loop-seconds",
        defaultValue = "20",
        description = "Length of each crawl loop (default ${DEFAULT-VALUE}).")
    int loopSeconds;

    @Option(
        paramLabel = "N",
        names = "--streams",
        defaultValue = "4",
        description = "Concurrent PutURLs streams (default ${DEFAULT-VALUE}).")
    int streams;

    @Option(
        paramLabel = "PATH",
        names = "--reference-jar",
        description =
            "The URLFrontier reference service's runnable jar (service/target/"
                + "urlfrontier-service-2.5.jar of crawler-commons/url-frontier 2.5): measured side"
                + " by side when given.")
    Path referenceJar;
  }

  private final Session session;
  private final SystemContext context;
  private final Options options;

  FrontierBenchmark(Session session, Options options) {
    this.session = session;
    this.context = session.context("bench");
    this.options = options;
  }

  /** What one frontier measured. */
  private record Result(
      String name,
      double putRate,
      double loop1Rate,
      double loop10Rate,
      long minGapMs,
      long hostsTooFast,
      Latency emptied,
      double emptiedSeconds,
      double completeRate) {}

  Map<String, Object> run() throws Exception {
    System.out.printf(
        Locale.ROOT,
        "bench frontier: %,d URLs over %,d hosts, crawl loops of %d s, delay %d s per host%n",
        options.urls,
        options.hosts,
        options.loopSeconds,
        DELAY_SECONDS);
    SchemaManager schemas = new SchemaManager(context.connection());
    schemas.dropNamespace(NAMESPACE);
    // The floor first, on an HBase no earlier step left flushing or compacting.
    System.out.printf(Locale.ROOT, "HBase floor: putting and completing %,d URLs%n", options.urls);
    FrontierStorageFloor.Rates floor =
        FrontierStorageFloor.measure(
            context.connection(),
            NAMESPACE,
            CRAWL,
            options.urls,
            options.streams,
            i -> url(i, options.hosts));
    List<Result> results = new ArrayList<>();
    // Stopped before the reference runs, so its upkeep and flushes take nothing from that side.
    try (Session.Served served =
        session.serve(
            List.of(session.system("frontier")),
            HTTP_THREADS,
            Map.of("frontier.namespace", NAMESPACE))) {
      results.add(measure("casebook", served.listener("frontier", "grpc").getPort()));
    }
    if (options.referenceJar != null) {
      Path work =
          ResultFiles.directory().resolve("frontier-reference-" + System.currentTimeMillis());
      try (FrontierReferencePeer peer = FrontierReferencePeer.start(options.referenceJar, work)) {
        results.add(measure("reference (RocksDB)", peer.port));
      }
    }
    BenchTable table = new BenchTable("bench frontier");
    for (Result r : results) {
      table.add(r.name() + ": PutURLs", options.urls, "URLs", options.urls / r.putRate(), null, "");
      table.add(
          r.name() + ": crawl loop, 1 URL/queue",
          (long) (r.loop1Rate() * options.loopSeconds),
          "URLs",
          options.loopSeconds,
          null,
          "");
      table.add(
          r.name() + ": crawl loop, 10 URLs/queue",
          (long) (r.loop10Rate() * options.loopSeconds),
          "URLs",
          options.loopSeconds,
          null,
          "");
      table.add(
          r.name() + ": complete every URL",
          options.urls,
          "URLs",
          options.urls / r.completeRate(),
          null,
          "PutURLs known, no refetch; URLs the loops completed are completed again");
      table.add(
          r.name() + ": GetURLs on the emptied frontier",
          r.emptied().count(),
          "calls",
          r.emptiedSeconds(),
          r.emptied(),
          "");
    }
    table.add(
        "HBase floor: put",
        options.urls,
        "URLs",
        options.urls / floor.put(),
        null,
        "1 read + 2 writes per URL, nothing else; measured first");
    table.add(
        "HBase floor: complete",
        options.urls,
        "URLs",
        options.urls / floor.complete(),
        null,
        "1 read + 2 writes per URL, nothing else");
    System.out.println(table.render());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("urls", options.urls);
    json.put("hosts", options.hosts);
    json.put("delaySeconds", DELAY_SECONDS);
    json.put("steps", table.toJson());
    List<Map<String, Object>> politeness = new ArrayList<>();
    for (Result r : results) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("system", r.name());
      p.put("shortestGapMs", r.minGapMs());
      p.put("hostsFasterThanRate", r.hostsTooFast());
      politeness.add(p);
      System.out.printf(
          Locale.ROOT,
          "%s: politeness: shortest gap between two hand-outs of a host %d ms (delay %d ms), hosts"
              + " faster than their rate: %d; emptied GetURLs p50 %.1f ms, max %.1f ms%n",
          r.name(),
          r.minGapMs(),
          DELAY_SECONDS * 1000,
          r.hostsTooFast(),
          r.emptied().millis(50),
          r.emptied().maxMillis());
    }
    json.put("politeness", politeness);
    json.put("casebookOverHBaseFloor", overFloor(results.get(0), floor, ""));
    if (results.size() == 2) {
      Result c = results.get(0);
      Result ref = results.get(1);
      Map<String, Object> ratios = new LinkedHashMap<>();
      ratios.put("putURLs", c.putRate() / ref.putRate());
      ratios.put("crawlLoop1", c.loop1Rate() / ref.loop1Rate());
      ratios.put("crawlLoop10", c.loop10Rate() / ref.loop10Rate());
      ratios.put("completeEveryUrl", c.completeRate() / ref.completeRate());
      ratios.put("emptiedGetURLsP50", c.emptied().millis(50) / ref.emptied().millis(50));
      json.put("casebookOverReference", ratios);
      json.put(
          "referenceOverHBaseFloor",
          overFloor(
              ref,
              floor,
              " (near or above 1: a frontier with this key layout, holding nothing in memory,"
                  + " would have to do nothing but the floor's storage work to match the reference"
                  + " there)"));
      System.out.printf(
          Locale.ROOT,
          "Casebook / reference: PutURLs %.2fx, crawl loop 1/queue %.2fx, 10/queue %.2fx%n",
          c.putRate() / ref.putRate(),
          c.loop1Rate() / ref.loop1Rate(),
          c.loop10Rate() / ref.loop10Rate());
    }
    return json;
  }

  /**
   * One side's PutURLs rate over the floor's put, and its 10-per-queue crawl loop over the floor's
   * completion (a loop completes every URL it hands out), printed with {@code remark}. The
   * "complete every URL" step is not compared: URLs the loops completed are completed again there.
   */
  private static Map<String, Object> overFloor(
      Result r, FrontierStorageFloor.Rates floor, String remark) {
    Map<String, Object> ratios = new LinkedHashMap<>();
    ratios.put("putURLs", r.putRate() / floor.put());
    ratios.put("crawlLoop10OverFloorComplete", r.loop10Rate() / floor.complete());
    System.out.printf(
        Locale.ROOT,
        "%s / HBase floor: PutURLs %.2fx, crawl loop 10/queue over the floor's completion %.2fx%s%n",
        r.name(),
        r.putRate() / floor.put(),
        r.loop10Rate() / floor.complete(),
        remark);
    return ratios;
  }

  /** The benchmark's i-th URL, spread over {@code hosts} hosts ({@code bench console} too). */
  static String url(int i, int hosts) {
    int host = (int) ((i * 7919L) % hosts);
    return "http://h" + host + ".example.com/p" + i;
  }

  private Result measure(String name, int port) throws Exception {
    ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    try {
      URLFrontierGrpc.URLFrontierBlockingStub blocking = URLFrontierGrpc.newBlockingStub(ch);
      URLFrontierGrpc.URLFrontierStub async = URLFrontierGrpc.newStub(ch);
      blocking.setDelay(
          Urlfrontier.QueueDelayParams.newBuilder()
              .setCrawlID(CRAWL)
              .setDelayRequestable((int) DELAY_SECONDS)
              .build());
      System.out.printf(Locale.ROOT, "%s: putting %,d URLs%n", name, options.urls);
      long t0 = System.nanoTime();
      putAll(async, options.urls, i -> discovered(url(i, options.hosts)));
      double putRate = options.urls / seconds(t0);
      System.out.printf(Locale.ROOT, "%s: PutURLs %.0f URLs/s%n", name, putRate);
      Map<String, long[]> gaps = new HashMap<>();
      double loop1 = crawlLoop(blocking, async, 1, gaps);
      System.out.printf(Locale.ROOT, "%s: crawl loop 1/queue %.0f URLs/s%n", name, loop1);
      double loop10 = crawlLoop(blocking, async, 10, gaps);
      System.out.printf(Locale.ROOT, "%s: crawl loop 10/queue %.0f URLs/s%n", name, loop10);
      long t1 = System.nanoTime();
      putAll(async, options.urls, i -> known(url(i, options.hosts)));
      double completeRate = options.urls / seconds(t1);
      Latency emptied = new Latency();
      GetParams all =
          GetParams.newBuilder().setCrawlID(CRAWL).setMaxQueues(1000).setMaxUrlsPerQueue(1).build();
      long handedWhenEmpty = 0;
      long te = System.nanoTime();
      // 50 calls, or fewer if they are slow (the reference service walks every queue each call)
      long emptiedEnd = te + TimeUnit.SECONDS.toNanos(30);
      for (int i = 0; i < 50 && System.nanoTime() < emptiedEnd; i++) {
        long s = System.nanoTime();
        Iterator<URLInfo> it = blocking.getURLs(all);
        while (it.hasNext()) {
          it.next();
          handedWhenEmpty++;
        }
        emptied.recordNanos(System.nanoTime() - s);
      }
      double emptiedSeconds = seconds(te);
      if (handedWhenEmpty > 0) {
        System.out.printf(
            Locale.ROOT,
            "%s: %d URLs handed out after every URL was done%n",
            name,
            handedWhenEmpty);
      }
      long minGap = Long.MAX_VALUE;
      long tooFast = 0;
      for (long[] g : gaps.values()) {
        if (g[1] != Long.MAX_VALUE) {
          minGap = Math.min(minGap, g[1]);
          if (g[1] < DELAY_SECONDS * 1000) {
            tooFast++;
          }
        }
      }
      return new Result(
          name,
          putRate,
          loop1,
          loop10,
          minGap == Long.MAX_VALUE ? -1 : minGap,
          tooFast,
          emptied,
          emptiedSeconds,
          completeRate);
    } finally {
      ch.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /**
   * GetURLs from up to 1000 queues, then every URL handed out put back as known and done, for
   * {@code --loop-seconds}; per host the hand-out times (when the GetURLs call started) give the
   * shortest gap.
   */
  private double crawlLoop(
      URLFrontierGrpc.URLFrontierBlockingStub blocking,
      URLFrontierGrpc.URLFrontierStub async,
      int perQueue,
      Map<String, long[]> gaps)
      throws InterruptedException {
    GetParams p =
        GetParams.newBuilder()
            .setCrawlID(CRAWL)
            .setMaxQueues(1000)
            .setMaxUrlsPerQueue(perQueue)
            .setDelayRequestable(3600)
            .build();
    long t0 = System.nanoTime();
    long end = t0 + TimeUnit.SECONDS.toNanos(options.loopSeconds);
    long done = 0;
    while (System.nanoTime() < end) {
      long callMs = System.currentTimeMillis();
      List<String> urls = new ArrayList<>();
      Map<String, Boolean> hostsThisCall = new HashMap<>();
      Iterator<URLInfo> it = blocking.getURLs(p);
      while (it.hasNext()) {
        URLInfo u = it.next();
        urls.add(u.getUrl());
        hostsThisCall.put(u.getKey(), true);
      }
      for (String h : hostsThisCall.keySet()) {
        long[] g = gaps.computeIfAbsent(h, k -> new long[] {-1, Long.MAX_VALUE});
        if (g[0] >= 0) {
          g[1] = Math.min(g[1], callMs - g[0]);
        }
        g[0] = callMs;
      }
      if (urls.isEmpty()) {
        Thread.sleep(20);
        continue;
      }
      putAll(async, urls.size(), i -> known(urls.get(i)));
      done += urls.size();
    }
    return done / seconds(t0);
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static URLItem discovered(String url) {
    return URLItem.newBuilder()
        .setDiscovered(
            DiscoveredURLItem.newBuilder()
                .setInfo(URLInfo.newBuilder().setUrl(url).setCrawlID(CRAWL)))
        .build();
  }

  private static URLItem known(String url) {
    return URLItem.newBuilder()
        .setKnown(
            KnownURLItem.newBuilder()
                .setInfo(URLInfo.newBuilder().setUrl(url).setCrawlID(CRAWL))
                .setRefetchableFromDate(0))
        .build();
  }

  /** Streams {@code n} items over {@code --streams} PutURLs streams; waits for every ack. */
  private void putAll(
      URLFrontierGrpc.URLFrontierStub async, int n, java.util.function.IntFunction<URLItem> item)
      throws InterruptedException {
    int streams = n < 1000 ? 1 : Math.max(1, options.streams);
    List<Thread> threads = new ArrayList<>();
    AtomicLong failed = new AtomicLong();
    List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int s = 0; s < streams; s++) {
      int first = s;
      Thread t =
          new Thread(
              () -> {
                Semaphore window = new Semaphore(IN_FLIGHT_PUTS / streams);
                CompletableFuture<Void> done = new CompletableFuture<>();
                StreamObserver<URLItem> in =
                    async.putURLs(
                        new StreamObserver<>() {
                          @Override
                          public void onNext(AckMessage a) {
                            if (a.getStatus() != AckMessage.Status.OK
                                && a.getStatus() != AckMessage.Status.SKIPPED) {
                              failed.incrementAndGet();
                            }
                            window.release();
                          }

                          @Override
                          public void onError(Throwable e) {
                            done.completeExceptionally(e);
                          }

                          @Override
                          public void onCompleted() {
                            done.complete(null);
                          }
                        });
                try {
                  for (int i = first; i < n; i += streams) {
                    window.acquire();
                    in.onNext(item.apply(i));
                  }
                  in.onCompleted();
                  done.get(10, TimeUnit.MINUTES);
                } catch (Exception e) {
                  errors.add(e);
                }
              },
              "bench-frontier-put-" + s);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!errors.isEmpty() || failed.get() > 0) {
      throw StorageException.of(
          "put URLs", new java.io.IOException(failed.get() + " failed acks; " + errors));
    }
  }
}
