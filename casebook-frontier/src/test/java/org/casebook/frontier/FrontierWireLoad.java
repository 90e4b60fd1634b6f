package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.frontier.FrontierLoad.FlowingClock;
import org.casebook.frontier.FrontierLoad.Given;

/**
 * {@link FrontierLoad}'s crawl over URLFrontier gRPC: each worker is a client with a connection of
 * its own that puts discovered URLs (PutURLs), claims URLs (GetURLs; some held in flight) and
 * acknowledges the rest as fetched (PutURLs of known URLs, refetchable_from_date 0). Every call's
 * gRPC status and every item's AckMessage status is counted. An AckMessage OK is a promise (for a
 * discovered URL SKIPPED too: already stored); an item answered FAIL, or left unanswered by a call
 * that ended UNAVAILABLE or DEADLINE_EXCEEDED, is in doubt and held to no promise that depends on
 * it. The wire types appear only through methods that name no protobuf class, so this runs on the
 * module's relocated jar too.
 */
final class FrontierWireLoad implements AutoCloseable {
  /** Statuses that leave a call in doubt; any other but OK, to a good request, is a defect. */
  private static final Set<Status.Code> IN_DOUBT =
      Set.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED);

  /**
   * Each call's deadline: a call still running then ends DEADLINE_EXCEEDED, in doubt, and its work
   * may still be landing. Long next to the server's own HBase requests (10 s deadlines on a
   * cluster), so an abandoned put is rare and has long finished when the drain begins.
   */
  private static final long CALL_SECONDS = 120;

  /** Sends of a drain's acknowledgement before it counts as failing for good. */
  private static final int ACK_ATTEMPTS = 120;

  /** One client: a connection of its own, and its stubs. */
  private record Client(
      ManagedChannel channel,
      URLFrontierGrpc.URLFrontierBlockingStub blocking,
      URLFrontierGrpc.URLFrontierStub async) {}

  /** A call's answers as far as they came, and its status ({@code OK} when it completed). */
  private record Answer<T>(List<T> values, Status status) {
    boolean inDoubt() {
      return IN_DOUBT.contains(status.getCode());
    }

    /** Throws the call's failure, if it failed. */
    void orThrow() {
      if (!status.isOk()) {
        throw status.asRuntimeException();
      }
    }
  }

  private final List<Client> clients = new ArrayList<>();
  private final FlowingClock clock;
  private final String crawl;
  private final int hosts;
  private final int claimSeconds;
  private final AtomicLong next = new AtomicLong();
  private final Set<String> sent = ConcurrentHashMap.newKeySet();
  private final Set<String> stored = ConcurrentHashMap.newKeySet();
  private final Set<String> uncertain = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> ackedAtNanos = new ConcurrentHashMap<>();
  private final Map<String, List<Given>> given = new ConcurrentHashMap<>();
  private final Map<String, Long> calls = new ConcurrentHashMap<>();
  private final Map<String, Long> itemStatuses = new ConcurrentHashMap<>();
  private final List<String> defects = Collections.synchronizedList(new ArrayList<>());

  /** {@code clients} clients of the frontier listening on {@code port}. */
  FrontierWireLoad(
      int port, int clients, FlowingClock clock, String crawl, int hosts, int claimSeconds) {
    this.clock = clock;
    this.crawl = crawl;
    this.hosts = hosts;
    this.claimSeconds = claimSeconds;
    for (int i = 0; i < clients; i++) {
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      this.clients.add(
          new Client(
              channel, URLFrontierGrpc.newBlockingStub(channel), URLFrontierGrpc.newStub(channel)));
    }
  }

  /** No delay between two hand-outs of a host: claims of one queue race as closely as they can. */
  void noHostDelay() throws Exception {
    Client c = clients.get(0);
    QueueDelayParams p =
        QueueDelayParams.newBuilder().setCrawlID(crawl).setDelayRequestable(0).build();
    recovered(
        "SetDelay",
        () -> c.blocking().withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS).setDelay(p));
  }

  /** One step of client {@code worker}: a put, a hand-out from the crawl or from one queue. */
  void step(int worker, long iteration) {
    Client c = clients.get(worker);
    SplittableRandom random = new SplittableRandom(worker * 1_000_003L + iteration);
    GetParams.Builder get =
        GetParams.newBuilder().setCrawlID(crawl).setDelayRequestable(claimSeconds);
    switch ((int) (iteration % 4)) {
      case 0 -> discover(c, 10);
      case 3 ->
          handOut(
              c,
              get.setKey(FrontierLoad.key(worker % hosts)).setMaxQueues(1).setMaxUrlsPerQueue(4),
              random);
      default -> handOut(c, get.setMaxQueues(3).setMaxUrlsPerQueue(4), random);
    }
  }

  /** Puts {@code n} new URLs spread over the hosts. */
  private void discover(Client c, int n) {
    List<URLItem> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long id = next.getAndIncrement();
      String key = FrontierLoad.key((int) (id % hosts));
      String url = "http://" + key + "/" + id;
      URLInfo info = URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(crawl).build();
      items.add(
          URLItem.newBuilder().setDiscovered(DiscoveredURLItem.newBuilder().setInfo(info)).build());
      sent.add(url);
      uncertain.add(url);
    }
    Answer<AckMessage> answer = put(c, "discovered", items);
    for (AckMessage a : answer.values()) {
      // SKIPPED: the URL's row was there already (its write made, its answer lost and retried).
      if (a.getStatus() != AckMessage.Status.FAIL) {
        stored.add(a.getID());
        uncertain.remove(a.getID());
      }
    }
    answer.orThrow();
  }

  /** Claims URLs; acknowledges about two thirds as fetched and holds the rest in flight. */
  private void handOut(Client c, GetParams.Builder request, SplittableRandom random) {
    GetParams params = request.build();
    long startNanos = System.nanoTime();
    long startMs = clock.millis();
    Answer<URLInfo> answer = get(c, params);
    Given g = new Given(startMs, clock.millis(), startNanos, 1000L * params.getDelayRequestable());
    List<URLInfo> done = new ArrayList<>();
    for (URLInfo u : answer.values()) {
      handedOut(u, g);
      if (random.nextInt(3) > 0) {
        done.add(u);
      }
    }
    acknowledge(c, done).orThrow();
    answer.orThrow();
  }

  private void handedOut(URLInfo u, Given g) {
    if (!sent.contains(u.getUrl()) || !u.getCrawlID().equals(crawl)) {
      defects.add("handed out what was never put: " + u.getCrawlID() + " " + u.getUrl());
    }
    given.computeIfAbsent(u.getUrl(), k -> Collections.synchronizedList(new ArrayList<>())).add(g);
  }

  /** PutURLs of {@code done} as fetched (done, never to be refetched). */
  private Answer<AckMessage> acknowledge(Client c, List<URLInfo> done) {
    if (done.isEmpty()) {
      return new Answer<>(List.of(), Status.OK);
    }
    List<URLItem> items = new ArrayList<>(done.size());
    for (URLInfo u : done) {
      uncertain.add(u.getUrl());
      items.add(
          URLItem.newBuilder()
              .setKnown(KnownURLItem.newBuilder().setInfo(u).setRefetchableFromDate(0))
              .build());
    }
    Answer<AckMessage> answer = put(c, "known", items);
    long at = System.nanoTime();
    for (AckMessage a : answer.values()) {
      if (a.getStatus() == AckMessage.Status.OK) {
        ackedAtNanos.putIfAbsent(a.getID(), at);
        uncertain.remove(a.getID());
      }
    }
    return answer;
  }

  /**
   * One PutURLs stream carrying {@code items} (of {@code kind}, discovered or known): every
   * acknowledgement that came, and how the stream ended. A stream that completed answers each item
   * once, under its URL.
   */
  private Answer<AckMessage> put(Client c, String kind, List<URLItem> items) {
    List<AckMessage> acks = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Status> ended = new CompletableFuture<>();
    StreamObserver<URLItem> in =
        c.async()
            .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS)
            .putURLs(
                new StreamObserver<>() {
                  @Override
                  public void onNext(AckMessage value) {
                    acks.add(value);
                  }

                  @Override
                  public void onError(Throwable t) {
                    ended.complete(Status.fromThrowable(t));
                  }

                  @Override
                  public void onCompleted() {
                    ended.complete(Status.OK);
                  }
                });
    items.forEach(in::onNext);
    in.onCompleted();
    Status status = ended.orTimeout(CALL_SECONDS + 30, TimeUnit.SECONDS).join();
    List<AckMessage> answered;
    synchronized (acks) {
      answered = List.copyOf(acks);
    }
    count("PutURLs", status);
    List<String> ids = new ArrayList<>();
    for (AckMessage a : answered) {
      itemStatuses.merge(kind + " " + a.getStatus(), 1L, Long::sum);
      ids.add(a.getID());
    }
    List<String> urls = new ArrayList<>();
    items.forEach(
        it ->
            urls.add(
                it.hasDiscovered()
                    ? it.getDiscovered().getInfo().getUrl()
                    : it.getKnown().getInfo().getUrl()));
    if (status.isOk() && !new TreeMap<>(tally(ids)).equals(new TreeMap<>(tally(urls)))) {
      defects.add("PutURLs answered " + ids + " to " + urls);
    }
    return new Answer<>(answered, status);
  }

  private static Map<String, Long> tally(List<String> values) {
    Map<String, Long> out = new HashMap<>();
    values.forEach(v -> out.merge(v, 1L, Long::sum));
    return out;
  }

  /** One GetURLs call: the URLs that came, and how the call ended. */
  private Answer<URLInfo> get(Client c, GetParams params) {
    List<URLInfo> out = new ArrayList<>();
    Status status = Status.OK;
    try {
      Iterator<URLInfo> it =
          c.blocking().withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS).getURLs(params);
      it.forEachRemaining(out::add);
    } catch (StatusRuntimeException e) {
      status = e.getStatus();
    }
    count("GetURLs", status);
    return new Answer<>(out, status);
  }

  private void count(String rpc, Status status) {
    calls.merge(rpc + " " + status.getCode(), 1L, Long::sum);
  }

  /**
   * A unary call's answer, its status counted, called again while it is in doubt (as {@link
   * ChaosLoad#afterRecovery} does for storage errors): the cluster may still be recovering.
   */
  private <T> T recovered(String rpc, Supplier<T> call) throws Exception {
    return ChaosLoad.afterRecovery(
        () -> {
          try {
            T value = call.get();
            count(rpc, Status.OK);
            return value;
          } catch (StatusRuntimeException e) {
            count(rpc, e.getStatus());
            throw inDoubt(rpc, e.getStatus());
          }
        });
  }

  /** An in-doubt status as the storage error {@link ChaosLoad#afterRecovery} waits out. */
  private static RuntimeException inDoubt(String rpc, Status status) {
    if (IN_DOUBT.contains(status.getCode())) {
      return new UncheckedIOException(new IOException(rpc + " in doubt: " + status));
    }
    return status.asRuntimeException();
  }

  /** The gRPC statuses the calls ended with. */
  Set<Status.Code> codes() {
    Set<Status.Code> out = new TreeSet<>();
    calls.keySet().forEach(k -> out.add(Status.Code.valueOf(k.substring(k.indexOf(' ') + 1))));
    return out;
  }

  /** The AckMessage statuses of the items put, each after its kind (discovered, known). */
  Set<String> itemStatuses() {
    return new TreeSet<>(itemStatuses.keySet());
  }

  /** Answers that break the protocol: an item answered twice or not at all, a URL never put. */
  List<String> defects() {
    synchronized (defects) {
      return List.copyOf(defects);
    }
  }

  long stored() {
    return stored.size();
  }

  long handOuts() {
    return given.values().stream().mapToLong(List::size).sum();
  }

  /** Calls by RPC and status, items by kind and AckMessage status. */
  String summary() {
    return "calls "
        + new TreeMap<>(calls)
        + ", items "
        + new TreeMap<>(itemStatuses)
        + ", URLs put "
        + sent.size()
        + " (stored "
        + stored.size()
        + "), hand-outs "
        + handOuts()
        + ", acknowledged as fetched "
        + ackedAtNanos.size();
  }

  /**
   * Once the load stopped: moves the clock past every claim and host delay, hands out everything
   * left over the wire (claimed for an hour, acknowledging each until it is taken) and checks every
   * promise, then the counters GetStats answers against what the clients know and against the rows
   * ListURLs answers. A call of the drain that ends in doubt is made again; a hand-out that did
   * moves the clock past the claims it may have taken without answering.
   */
  void drainAndCheck(String context, IntSupplier unsettledCounterWrites) throws Exception {
    clock.advance(3_600_000L);
    Client c = clients.get(0);
    GetParams request =
        GetParams.newBuilder()
            .setCrawlID(crawl)
            .setMaxUrlsPerQueue(50)
            .setDelayRequestable(3600)
            .build();
    List<URLInfo> drained = new ArrayList<>();
    for (int empty = 0; empty < 2; ) {
      long startNanos = System.nanoTime();
      long startMs = clock.millis();
      boolean[] tried = {false};
      List<URLInfo> out =
          ChaosLoad.afterRecovery(
              () -> {
                if (tried[0]) {
                  clock.advance(7_200_000L);
                }
                tried[0] = true;
                Answer<URLInfo> answer = get(c, request);
                if (!answer.status().isOk()) {
                  Given g = new Given(startMs, clock.millis(), startNanos, 3_600_000L);
                  answer.values().forEach(u -> handedOut(u, g));
                  throw inDoubt("GetURLs", answer.status());
                }
                return answer.values();
              });
      Given g = new Given(startMs, clock.millis(), startNanos, 3_600_000L);
      out.forEach(u -> handedOut(u, g));
      drained.addAll(out);
      acknowledgeUntilTaken(c, out);
      empty = out.isEmpty() ? empty + 1 : 0;
    }
    Set<String> drainedUrls = new HashSet<>();
    drained.forEach(u -> drainedUrls.add(u.getUrl()));
    assertThat(drained).as("each URL once in the drain" + context).hasSameSizeAs(drainedUrls);
    assertThat(defects()).as("answers breaking the protocol" + context).isEmpty();

    List<String> lost = new ArrayList<>();
    for (String url : stored) {
      if (!ackedAtNanos.containsKey(url)
          && !uncertain.contains(url)
          && !drainedUrls.contains(url)) {
        lost.add(url);
      }
    }
    assertThat(lost).as("queued URLs never handed out again" + context).isEmpty();
    FrontierLoad.checkHandOuts(given, ackedAtNanos, context);
    checkRowsAndCounters(context, unsettledCounterWrites);
  }

  /** Acknowledges {@code done} as fetched, sending again what is not taken until all is. */
  private void acknowledgeUntilTaken(Client c, List<URLInfo> done) throws Exception {
    List<URLInfo> left = done;
    for (int attempt = 0; !left.isEmpty(); attempt++) {
      if (attempt > ACK_ATTEMPTS) {
        throw new AssertionError("acknowledgements still not taken: " + urls(left));
      }
      if (attempt > 0) {
        Thread.sleep(1000);
      }
      Answer<AckMessage> answer = acknowledge(c, left);
      if (!answer.status().isOk() && !answer.inDoubt()) {
        answer.orThrow();
      }
      left = left.stream().filter(u -> !ackedAtNanos.containsKey(u.getUrl())).toList();
    }
  }

  private static List<String> urls(List<URLInfo> infos) {
    return infos.stream().map(URLInfo::getUrl).toList();
  }

  /** A known URL as ListURLs answers it: its queue, and whether it is done. */
  private record Row(String key, boolean done) {}

  /**
   * Every URL acknowledged as stored or handed out is among the rows ListURLs answers, and done;
   * the rows hold nothing never put. GetStats answers, for the crawl and each queue, nothing in
   * flight and the rows' counts; and where the clients can tell (no URL of the queue whose put or
   * acknowledgement was left in doubt without a later OK), what they know: every URL they put,
   * completed.
   */
  private void checkRowsAndCounters(String context, IntSupplier unsettledCounterWrites)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (unsettledCounterWrites.getAsInt() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(unsettledCounterWrites.getAsInt())
        .as("counter writes settled within 60 s" + context)
        .isZero();
    Client c = clients.get(0);
    ListUrlParams all =
        ListUrlParams.newBuilder().setCrawlID(crawl).setStart(0).setSize(1_000_000).build();
    Map<String, Row> rows =
        recovered(
            "ListURLs",
            () -> {
              Map<String, Row> out = new HashMap<>();
              c.blocking()
                  .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS)
                  .listURLs(all)
                  .forEachRemaining(
                      it ->
                          out.put(
                              it.getKnown().getInfo().getUrl(),
                              new Row(
                                  it.getKnown().getInfo().getKey(),
                                  it.getKnown().getRefetchableFromDate() == 0)));
              return out;
            });

    Set<String> missing = new TreeSet<>(stored);
    missing.addAll(ackedAtNanos.keySet());
    missing.addAll(given.keySet());
    missing.removeAll(rows.keySet());
    assertThat(missing)
        .as("URLs acknowledged as stored or handed out, not among the rows" + context)
        .isEmpty();
    Set<String> unsent = new TreeSet<>(rows.keySet());
    unsent.removeAll(sent);
    assertThat(unsent).as("rows of URLs never put" + context).isEmpty();
    Set<String> queued = new TreeSet<>();
    rows.forEach(
        (url, r) -> {
          if (!r.done()) {
            queued.add(url);
          }
        });
    assertThat(queued).as("URLs still queued after the drain" + context).isEmpty();

    // What the clients know: URLs they never saw acknowledged as fetched are undecided.
    Map<String, long[]> byKey = new HashMap<>();
    long[] total = new long[2];
    rows.forEach(
        (url, r) -> {
          int done = r.done() ? 1 : 0;
          byKey.computeIfAbsent(r.key(), k -> new long[2])[done]++;
          total[done]++;
        });
    Map<String, Long> known = new HashMap<>();
    Set<String> undecidedKeys = new TreeSet<>();
    for (String url : sent) {
      String key = url.substring("http://".length(), url.indexOf('/', "http://".length()));
      if (ackedAtNanos.containsKey(url)) {
        known.merge(key, 1L, Long::sum);
      } else {
        undecidedKeys.add(key);
      }
    }
    System.out.println(
        "frontier over gRPC: rows "
            + rows.size()
            + ", completed as the clients know "
            + ackedAtNanos.size()
            + ", queues with URLs in doubt "
            + undecidedKeys);

    Stats crawlStats = recovered("GetStats", () -> stats(c, ""));
    assertThat(crawlStats.getInProcess()).as("in flight after the drain" + context).isZero();
    assertThat(new long[] {crawlStats.getSize(), crawlStats.getCountsOrDefault("completed", -1)})
        .as("crawl counters (queued, completed) against the rows" + context)
        .containsExactly(total);
    if (undecidedKeys.isEmpty()) {
      assertThat(crawlStats.getCountsOrDefault("completed", -1))
          .as("crawl's completed against the URLs acknowledged as fetched" + context)
          .isEqualTo(ackedAtNanos.size());
    }
    for (int h = 0; h < hosts; h++) {
      String key = FrontierLoad.key(h);
      Stats s = recovered("GetStats", () -> stats(c, key));
      long completed = s.getCountsOrDefault("completed", -1);
      assertThat(s.getInProcess()).as("%s in flight after the drain%s", key, context).isZero();
      if (!undecidedKeys.contains(key)) {
        assertThat(new long[] {s.getSize(), completed})
            .as("counters of %s against what the clients know%s", key, context)
            .containsExactly(0L, known.getOrDefault(key, 0L));
      }
      assertThat(new long[] {s.getSize(), completed})
          .as("counters of %s against its rows%s", key, context)
          .containsExactly(byKey.getOrDefault(key, new long[2]));
    }
  }

  private Stats stats(Client c, String key) {
    return c.blocking()
        .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS)
        .getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).setKey(key).build());
  }

  @Override
  public void close() {
    clients.forEach(c -> c.channel().shutdownNow());
  }
}
