package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.casebook.frontier.FrontierFixture.discovered;
import static org.casebook.frontier.FrontierFixture.known;

import crawlercommons.urlfrontier.Urlfrontier;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Instant;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every URLFrontier RPC over gRPC, including the behaviours the URLFrontier conformance suite
 * checks (duplicates, order, in-flight, queue names, crawl IDs), in crawls of their own.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierGrpcIT {
  private FrontierFixture f;
  private String crawl;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    f = new FrontierFixture(runtime);
    crawl = TestIds.unique("crawl");
  }

  @AfterEach
  void stop() throws InterruptedException {
    f.close();
  }

  private GetParams.Builder get() {
    return GetParams.newBuilder().setCrawlID(crawl);
  }

  private QueueWithinCrawlParams queue(String key) {
    return QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).setKey(key).build();
  }

  private static Status.Code code(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
    return Status.Code.OK;
  }

  @Test
  void aKnownUrlWithoutRefetchDateIsNeverHandedOut() {
    assertThat(f.put(known(crawl, "http://key1.com/", "key1.com", 0))).hasSize(1);
    assertThat(f.get(get().setKey("key1.com").setMaxUrlsPerQueue(1).build())).isEmpty();
    URLItem status =
        f.blocking.getURLStatus(
            Urlfrontier.URLStatusRequest.newBuilder()
                .setCrawlID(crawl)
                .setUrl("http://key1.com/")
                .build());
    assertThat(status.getKnown().getRefetchableFromDate()).isZero();
  }

  @Test
  void knownUrlsComeOutInRefetchDateOrder() {
    long now = Instant.now().getEpochSecond();
    f.put(
        known(crawl, "http://key1.com/later", "key1.com", now),
        known(crawl, "http://key1.com/sooner", "key1.com", now - 10_000));
    assertThat(f.urls(get().setKey("key1.com").setMaxUrlsPerQueue(2).build()))
        .containsExactly("http://key1.com/sooner", "http://key1.com/later");
  }

  @Test
  void duplicatesInFlightExpiryStatsAndDeleteQueue() throws InterruptedException {
    List<AckMessage> acks =
        f.put(
            discovered(crawl, "http://key1.com/", "key1.com"),
            discovered(crawl, "http://key1.com/", "key1.com"));
    assertThat(acks)
        .extracting(AckMessage::getStatus)
        .containsExactlyInAnyOrder(AckMessage.Status.OK, AckMessage.Status.SKIPPED);
    assertThat(acks).extracting(AckMessage::getID).containsOnly("http://key1.com/");
    Urlfrontier.QueueList queues =
        f.blocking.listQueues(Urlfrontier.Pagination.newBuilder().setCrawlID(crawl).build());
    assertThat(queues.getValuesList()).containsExactly("key1.com");
    GetParams one = get().setKey("key1.com").setMaxUrlsPerQueue(1).setDelayRequestable(2).build();
    assertThat(f.urls(one)).containsExactly("http://key1.com/");
    Urlfrontier.Stats stats = f.blocking.getStats(queue("key1.com"));
    assertThat(stats.getNumberOfQueues()).isEqualTo(1);
    assertThat(stats.getInProcess()).isEqualTo(1);
    assertThat(stats.getSize()).isEqualTo(1);
    assertThat(f.urls(one)).as("in flight").isEmpty();
    Thread.sleep(2_100);
    stats = f.blocking.getStats(queue("key1.com"));
    assertThat(stats.getInProcess()).isZero();
    assertThat(f.urls(one)).as("in flight expired").containsExactly("http://key1.com/");
    assertThat(f.blocking.deleteQueue(queue("key1.com")).getValue()).isEqualTo(1);
    assertThat(f.blocking.getStats(queue("key1.com")).getNumberOfQueues()).isZero();
    assertThat(f.blocking.countURLs(count(null)).getValue()).isZero();
  }

  private Urlfrontier.CountUrlParams count(String filter) {
    Urlfrontier.CountUrlParams.Builder b =
        Urlfrontier.CountUrlParams.newBuilder().setCrawlID(crawl);
    if (filter != null) {
      b.setFilter(filter).setIgnoreCase(true);
    }
    return b.build();
  }

  @Test
  void aUrlWithoutKeyIsQueuedUnderItsHost() {
    f.put(discovered(crawl, "http://gac.icann.org?language_id=9", null));
    assertThat(f.blocking.getStats(queue("gac.icann.org")).getSize()).isEqualTo(1);
    assertThat(f.blocking.deleteQueue(queue("gac.icann.org")).getValue()).isEqualTo(1);
  }

  @Test
  void crawlIdsTheDefaultCrawlAndDeleteCrawl() {
    String bespoke = crawl + "-bespoke";
    f.put(discovered(bespoke, "http://urlfrontier.net/", null));
    f.put(discovered(crawl, "http://urlfrontier.net/", null));
    f.put(discovered(crawl, "http://urlfrontier.net/", null));
    StringList crawls = f.blocking.listCrawls(Urlfrontier.Local.getDefaultInstance());
    assertThat(crawls.getValuesList()).contains(crawl, bespoke);
    Urlfrontier.Stats stats =
        f.blocking.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).build());
    assertThat(stats.getSize()).isEqualTo(1);
    assertThat(stats.getCrawlID()).isEqualTo(crawl);
    assertThat(stats.getNumberOfQueues()).isEqualTo(1);
    assertThat(
            f.blocking
                .deleteCrawl(Urlfrontier.DeleteCrawlMessage.newBuilder().setValue(bespoke).build())
                .getValue())
        .isEqualTo(1);
    stats = f.blocking.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(bespoke).build());
    assertThat(stats.getCrawlID()).isEqualTo(bespoke);
    assertThat(stats.getSize()).isZero();
    assertThat(f.blocking.listCrawls(Urlfrontier.Local.getDefaultInstance()).getValuesList())
        .doesNotContain(bespoke);
    // An empty crawl ID is URLFrontier's DEFAULT crawl.
    f.put(discovered("", "http://" + crawl + ".example/", null));
    assertThat(
            f.blocking
                .getStats(QueueWithinCrawlParams.newBuilder().setCrawlID("DEFAULT").build())
                .getCrawlID())
        .isEqualTo("DEFAULT");
    assertThat(
            f.blocking
                .countURLs(
                    Urlfrontier.CountUrlParams.newBuilder()
                        .setCrawlID("")
                        .setKey(crawl + ".example")
                        .build())
                .getValue())
        .isEqualTo(1);
    f.blocking.deleteQueue(
        QueueWithinCrawlParams.newBuilder().setCrawlID("").setKey(crawl + ".example").build());
  }

  @Test
  void politenessSetDelayBlockQueueUntilAndCrawlLimit() throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      f.put(discovered(crawl, "http://polite.example/" + i, null));
    }
    f.blocking.setDelay(
        Urlfrontier.QueueDelayParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("polite.example")
            .setDelayRequestable(1)
            .build());
    GetParams one = get().setMaxUrlsPerQueue(1).setMaxQueues(10).build();
    assertThat(f.urls(one)).containsExactly("http://polite.example/0");
    // Done: a queue with max_urls_per_queue URLs in flight is skipped (as the reference does).
    f.put(known(crawl, "http://polite.example/0", null, 0));
    assertThat(f.urls(one)).as("within the host's delay").isEmpty();
    Thread.sleep(1_100);
    assertThat(f.urls(one)).containsExactly("http://polite.example/1");
    f.put(known(crawl, "http://polite.example/1", null, 0));
    long until = Instant.now().getEpochSecond() + 3600;
    f.blocking.blockQueueUntil(
        Urlfrontier.BlockQueueParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("polite.example")
            .setTime(until)
            .build());
    Thread.sleep(1_100);
    assertThat(f.urls(one)).as("blocked").isEmpty();
    assertThat(
            f.blocking
                .listQueues(Urlfrontier.Pagination.newBuilder().setCrawlID(crawl).build())
                .getValuesList())
        .as("a blocked queue is inactive")
        .isEmpty();
    assertThat(
            f.blocking
                .listQueues(
                    Urlfrontier.Pagination.newBuilder()
                        .setCrawlID(crawl)
                        .setIncludeInactive(true)
                        .build())
                .getValuesList())
        .containsExactly("polite.example");
    f.blocking.blockQueueUntil(
        Urlfrontier.BlockQueueParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("polite.example")
            .build());
    // Two completed URLs reach a crawl limit of 1: nothing more is handed out.
    f.blocking.setCrawlLimit(
        Urlfrontier.CrawlLimitParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("polite.example")
            .setLimit(1)
            .build());
    assertThat(f.urls(one)).as("crawl limit reached").isEmpty();
    f.blocking.setCrawlLimit(
        Urlfrontier.CrawlLimitParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("polite.example")
            .setLimit(0)
            .build());
    assertThat(f.urls(one)).containsExactly("http://polite.example/2");
    assertThat(
            code(
                () ->
                    f.blocking.setCrawlLimit(
                        Urlfrontier.CrawlLimitParams.newBuilder()
                            .setCrawlID(crawl)
                            .setKey("nowhere.example")
                            .setLimit(3)
                            .build())))
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void channelDefaultDelayComesFromSetDelayWithoutKey() {
    f.blocking.setDelay(
        Urlfrontier.QueueDelayParams.newBuilder()
            .setCrawlID(crawl)
            .setDelayRequestable(3600)
            .build());
    f.put(
        discovered(crawl, "http://a.example/1", null),
        discovered(crawl, "http://a.example/2", null));
    GetParams one = get().setMaxUrlsPerQueue(1).build();
    assertThat(f.urls(one)).hasSize(1);
    assertThat(f.urls(one)).isEmpty();
    assertThat(f.service.channel(crawl).delayMs()).isEqualTo(3_600_000);
  }

  @Test
  void getUrlsFromAnyCrawlAndFromManyQueues() {
    for (int h = 0; h < 5; h++) {
      for (int i = 0; i < 3; i++) {
        f.put(discovered(crawl, "http://h" + h + ".example/" + i, null));
      }
    }
    List<URLInfo> got = f.get(get().setMaxQueues(3).setMaxUrlsPerQueue(2).build());
    assertThat(got).hasSize(6);
    assertThat(got.stream().map(URLInfo::getKey).distinct()).hasSize(3);
    assertThat(got).allSatisfy(u -> assertThat(u.getCrawlID()).isEqualTo(crawl));
    List<URLInfo> any =
        f.get(
            GetParams.newBuilder()
                .setAnyCrawlID(Urlfrontier.AnyCrawlID.getDefaultInstance())
                .setMaxQueues(1000)
                .setMaxUrlsPerQueue(5)
                .build());
    // the three queues served are within their delay: the other two give all three URLs each
    assertThat(any.stream().filter(u -> u.getCrawlID().equals(crawl))).hasSize(2 * 3);
  }

  @Test
  void statusListAndCount() {
    long later = Instant.now().getEpochSecond() + 3600;
    f.put(
        discovered(crawl, "http://s.example/A", null),
        discovered(crawl, "http://s.example/b", null),
        known(crawl, "http://s.example/c", null, later),
        known(crawl, "http://t.example/d", null, 0));
    URLItem c =
        f.blocking.getURLStatus(
            Urlfrontier.URLStatusRequest.newBuilder()
                .setCrawlID(crawl)
                .setUrl("http://s.example/c")
                .build());
    assertThat(c.getKnown().getRefetchableFromDate()).isEqualTo(later);
    assertThat(c.getKnown().getInfo().getKey()).isEqualTo("s.example");
    assertThat(
            code(
                () ->
                    f.blocking.getURLStatus(
                        Urlfrontier.URLStatusRequest.newBuilder()
                            .setCrawlID(crawl)
                            .setUrl("http://s.example/none")
                            .build())))
        .isEqualTo(Status.Code.NOT_FOUND);
    assertThat(f.blocking.countURLs(count(null)).getValue()).isEqualTo(4);
    assertThat(f.blocking.countURLs(count("/a")).getValue()).isEqualTo(1);
    List<URLItem> all = list(0, 0, null);
    assertThat(all).hasSize(4);
    assertThat(list(1, 2, null)).containsExactlyElementsOf(all.subList(1, 3));
    assertThat(list(0, 0, "T.EXAMPLE")).hasSize(1);
  }

  private List<URLItem> list(int start, int size, String filter) {
    Urlfrontier.ListUrlParams.Builder b =
        Urlfrontier.ListUrlParams.newBuilder().setCrawlID(crawl).setStart(start).setSize(size);
    if (filter != null) {
      b.setFilter(filter).setIgnoreCase(true);
    }
    List<URLItem> out = new java.util.ArrayList<>();
    f.blocking.listURLs(b.build()).forEachRemaining(out::add);
    return out;
  }

  @Test
  void activeNodesAndLogLevel() {
    assertThat(f.blocking.listNodes(Urlfrontier.Empty.getDefaultInstance()).getValuesList())
        .containsExactly("127.0.0.1:" + f.port);
    f.put(discovered(crawl, "http://active.example/", null));
    try {
      f.blocking.setActive(Urlfrontier.Active.newBuilder().setState(false).build());
      assertThat(f.blocking.getActive(Urlfrontier.Local.getDefaultInstance()).getState()).isFalse();
      assertThat(f.urls(get().build())).isEmpty();
    } finally {
      f.blocking.setActive(Urlfrontier.Active.newBuilder().setState(true).build());
    }
    assertThat(f.blocking.getActive(Urlfrontier.Local.getDefaultInstance()).getState()).isTrue();
    assertThat(f.urls(get().build())).containsExactly("http://active.example/");
    f.blocking.setLogLevel(
        Urlfrontier.LogLevelParams.newBuilder()
            .setPackage("org.casebook.frontier")
            .setLevel(Urlfrontier.LogLevelParams.Level.DEBUG)
            .build());
    f.blocking.setLogLevel(
        Urlfrontier.LogLevelParams.newBuilder()
            .setPackage("org.casebook.frontier")
            .setLevel(Urlfrontier.LogLevelParams.Level.INFO)
            .build());
  }

  @Test
  void badInputIsRefusedAndNothingIsHalfWritten() {
    List<AckMessage> acks =
        f.put(
            discovered(crawl, "not a url", null),
            discovered(crawl, "", null),
            discovered(crawl, "mailto:someone@example.com", null),
            discovered(crawl, "http://x.example/" + "a".repeat(9000), null),
            known(crawl, "http://x.example/neg", null, -1),
            URLItem.newBuilder().setID("empty-item").build(),
            discovered(crawl, "http://ok.example/", null));
    assertThat(acks).hasSize(7);
    assertThat(acks.stream().filter(a -> a.getStatus() == AckMessage.Status.OK)).hasSize(1);
    assertThat(acks.stream().filter(a -> a.getStatus() == AckMessage.Status.SKIPPED)).hasSize(6);
    assertThat(f.blocking.countURLs(count(null)).getValue()).isEqualTo(1);
    assertThat(f.service.dailyStats(crawl, null).get(0).failed())
        .as("the empty item is DEFAULT's")
        .isEqualTo(5);
    assertThat(code(() -> f.blocking.deleteQueue(queue(""))))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(code(() -> f.get(GetParams.newBuilder().setKey("ok.example").build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(code(() -> f.get(get().setDelayRequestable(-1).build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(code(() -> f.get(get().setMaxQueues(-5).build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    f.blocking.setDelay(
                        Urlfrontier.QueueDelayParams.newBuilder()
                            .setCrawlID(crawl)
                            .setKey("ok.example")
                            .setDelayRequestable(-1)
                            .build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    f.blocking.setCrawlLimit(
                        Urlfrontier.CrawlLimitParams.newBuilder()
                            .setCrawlID(crawl)
                            .setKey("ok.example")
                            .setLimit(-1)
                            .build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    f.blocking.blockQueueUntil(
                        Urlfrontier.BlockQueueParams.newBuilder()
                            .setCrawlID(crawl)
                            .setKey("ok.example")
                            .setTime(-1)
                            .build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    f.blocking.getURLStatus(
                        Urlfrontier.URLStatusRequest.newBuilder()
                            .setCrawlID(crawl)
                            .setUrl("::nope")
                            .build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    f.blocking.setLogLevel(
                        Urlfrontier.LogLevelParams.newBuilder().setPackage(" ").build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    f.blocking.listQueues(
                        Urlfrontier.Pagination.newBuilder().setCrawlID("a\u0001b").build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(f.urls(get().build())).containsExactly("http://ok.example/");
  }

  @Test
  void priorityChannelsHandOutHighestFirst() {
    f.service.createChannel(crawl, ChannelKind.PRIORITY, 1000);
    f.put(
        withPriority("http://p.example/low", "1"),
        withPriority("http://p.example/high", "100"),
        withPriority("http://p.example/none", null),
        withPriority("http://p.example/urgent", "1000"));
    List<AckMessage> bad = f.put(withPriority("http://p.example/bad", "soon"));
    assertThat(bad.get(0).getStatus()).isEqualTo(AckMessage.Status.SKIPPED);
    assertThat(f.urls(get().setMaxUrlsPerQueue(10).build()))
        .containsExactly(
            "http://p.example/urgent",
            "http://p.example/high",
            "http://p.example/low",
            "http://p.example/none");
  }

  private URLItem withPriority(String url, String priority) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url).setCrawlID(crawl);
    if (priority != null) {
      info.putMetadata(Intake.PRIORITY_KEY, StringList.newBuilder().addValues(priority).build());
    }
    return URLItem.newBuilder()
        .setDiscovered(Urlfrontier.DiscoveredURLItem.newBuilder().setInfo(info))
        .build();
  }

  @Test
  void fifoChannelsHandOutInPutOrderAndAcksReschedule() throws InterruptedException {
    for (int i = 0; i < 5; i++) {
      f.put(discovered(crawl, "http://fifo.example/" + i, null));
      Thread.sleep(3);
    }
    List<String> first = f.urls(get().setMaxUrlsPerQueue(3).build());
    assertThat(first)
        .containsExactly("http://fifo.example/0", "http://fifo.example/1", "http://fifo.example/2");
    long soon = Instant.now().getEpochSecond() - 1;
    f.put(
        known(crawl, "http://fifo.example/0", null, soon),
        known(crawl, "http://fifo.example/1", null, 0));
    assertThat(f.blocking.countURLs(count(null)).getValue()).isEqualTo(5);
    Urlfrontier.Stats s = f.blocking.getStats(queue("fifo.example"));
    assertThat(s.getSize()).isEqualTo(4);
    assertThat(s.getCountsMap()).containsEntry("completed", 1L);
    Thread.sleep(1_100);
    assertThat(f.urls(get().setMaxUrlsPerQueue(3).build()))
        .as("0 was acknowledged with a refetch date in the past: first again; 2 is in flight")
        .containsExactly("http://fifo.example/0", "http://fifo.example/3", "http://fifo.example/4");
    assertThatThrownBy(() -> f.service.createChannel(crawl, ChannelKind.PRIORITY, 5))
        .isInstanceOf(org.casebook.core.ConflictException.class);
  }
}
