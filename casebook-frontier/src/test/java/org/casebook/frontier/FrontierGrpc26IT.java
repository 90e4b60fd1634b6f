package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.frontier.FrontierFixture.discovered;
import static org.casebook.frontier.FrontierFixture.known;

import crawlercommons.urlfrontier.Urlfrontier;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.PurgeUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.frontier.wire.testing.PutStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What URLFrontier 2.6 adds, over gRPC: PurgeURLs, PutDiscovered, creation_date and
 * CrawlLimitParams.local; 2.5's calls are FrontierGrpcIT's, on the same stubs.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierGrpc26IT {
  private FrontierFixture f;
  private String crawl;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    f = new FrontierFixture(runtime);
    crawl = TestIds.unique("crawl26");
  }

  @AfterEach
  void stop() throws InterruptedException {
    f.close();
  }

  private PurgeUrlParams purge(String key, int days) {
    return PurgeUrlParams.newBuilder().setCrawlID(crawl).setKey(key).setDays(days).build();
  }

  private Urlfrontier.Stats stats(String key) {
    return f.blocking.getStats(
        QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).setKey(key).build());
  }

  private URLItem status(String url) {
    return f.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setCrawlID(crawl).setUrl(url).build());
  }

  private static Status.Code code(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
    return Status.Code.OK;
  }

  private static URLInfo info(String crawl, String url) {
    return URLInfo.newBuilder().setCrawlID(crawl).setUrl(url).build();
  }

  /** PutDiscovered: every batch sent on one stream, every ack once the stream completed. */
  private List<BatchAck> putDiscovered(DiscoveredBatch... batches) {
    return PutStreams.stream(f.async::putDiscovered, List.of(batches));
  }

  @Test
  void purgeUrlsRemovesWhatIsOlderAndAnswersHowMany() throws InterruptedException {
    f.put(
        discovered(crawl, "http://a.example/1", null),
        discovered(crawl, "http://a.example/2", null),
        known(crawl, "http://a.example/3", null, 0),
        discovered(crawl, "http://b.example/1", null));
    assertThat(f.blocking.purgeURLs(purge("", 1)).getValue()).as("nothing a day old").isZero();
    assertThat(stats("").getSize()).isEqualTo(3);
    // creation dates are whole seconds: 0 days takes what was stored before this second
    Thread.sleep(1100);
    assertThat(f.blocking.purgeURLs(purge("a.example", 0)).getValue()).isEqualTo(3);
    assertThat(stats("a.example").getSize()).isZero();
    assertThat(stats("a.example").getCountsOrThrow("completed")).isZero();
    assertThat(stats("").getSize()).isEqualTo(1);
    assertThat(stats("").getNumberOfQueues()).as("the queue stays").isEqualTo(2);
    assertThat(f.blocking.purgeURLs(purge("a.example", 0)).getValue()).as("a rerun").isZero();
    assertThat(f.blocking.purgeURLs(purge("", 0)).getValue()).isEqualTo(1);
    assertThat(
            f.blocking
                .countURLs(Urlfrontier.CountUrlParams.newBuilder().setCrawlID(crawl).build())
                .getValue())
        .isZero();
    assertThat(
            f.blocking
                .purgeURLs(PurgeUrlParams.newBuilder().setCrawlID(TestIds.unique("none")).build())
                .getValue())
        .as("an unknown crawl")
        .isZero();
    StatusRuntimeException e = null;
    try {
      f.blocking.purgeURLs(purge("", -1));
    } catch (StatusRuntimeException thrown) {
      e = thrown;
    }
    assertThat(e).as("days 2^32-1, negative for Java").isNotNull();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(e.getStatus().getDescription()).startsWith("days");
    assertThat(
            code(
                () ->
                    f.blocking.purgeURLs(
                        PurgeUrlParams.newBuilder().setCrawlID("a\u0001b").build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
  }

  @Test
  void creationDateIsSetWhenAUrlIsFirstStoredAndKept() {
    long before = System.currentTimeMillis() / 1000;
    URLItem withDate =
        discovered(crawl, "http://c.example/1", null).toBuilder().setCreationDate(5).build();
    f.put(withDate, known(crawl, "http://c.example/2", null, 0));
    long after = System.currentTimeMillis() / 1000;
    long created = status("http://c.example/1").getCreationDate();
    assertThat(created).as("the client's value is ignored").isBetween(before, after);
    assertThat(status("http://c.example/2").getCreationDate()).isBetween(before, after);
    f.put(known(crawl, "http://c.example/1", null, 0));
    assertThat(status("http://c.example/1").getCreationDate()).as("kept").isEqualTo(created);
    List<URLItem> listed = new ArrayList<>();
    f.blocking
        .listURLs(Urlfrontier.ListUrlParams.newBuilder().setCrawlID(crawl).build())
        .forEachRemaining(listed::add);
    assertThat(listed).hasSize(2).allSatisfy(i -> assertThat(i.getCreationDate()).isPositive());
  }

  @Test
  void putDiscoveredAcknowledgesEachBatchWithAStatusPerUrl() {
    List<BatchAck> acks =
        putDiscovered(
            DiscoveredBatch.newBuilder()
                .setID("page-1")
                .addItems(info(crawl, "http://d.example/1"))
                .addItems(info(crawl, "http://d.example/2"))
                .addItems(info(crawl, "http://d.example/1"))
                .addItems(info(crawl, "not a url"))
                .build(),
            DiscoveredBatch.newBuilder()
                .setID("page-2")
                .addItems(info(crawl, "http://d.example/2"))
                .addItems(info(crawl, "http://e.example/1"))
                .build(),
            DiscoveredBatch.newBuilder().setID("empty").build());
    assertThat(acks).extracting(BatchAck::getID).containsExactly("page-1", "page-2", "empty");
    assertThat(acks.get(0).getStatusesList())
        .containsExactly(
            AckMessage.Status.OK,
            AckMessage.Status.OK,
            AckMessage.Status.SKIPPED,
            AckMessage.Status.SKIPPED);
    assertThat(acks.get(1).getStatusesList())
        .as("already known: ignored")
        .containsExactly(AckMessage.Status.SKIPPED, AckMessage.Status.OK);
    assertThat(acks.get(2).getStatusesList()).isEmpty();
    assertThat(stats("").getSize()).isEqualTo(3);
    assertThat(f.urls(Urlfrontier.GetParams.newBuilder().setCrawlID(crawl).build()))
        .containsExactlyInAnyOrder(
            "http://d.example/1", "http://d.example/2", "http://e.example/1");
  }

  @Test
  void crawlLimitLocalOrNotSetsTheSharedLimit() {
    f.put(discovered(crawl, "http://g.example/1", null));
    for (boolean local : new boolean[] {true, false}) {
      f.blocking.setCrawlLimit(
          Urlfrontier.CrawlLimitParams.newBuilder()
              .setCrawlID(crawl)
              .setKey("g.example")
              .setLimit(local ? 3 : 4)
              .setLocal(local)
              .build());
      assertThat(f.service.host(crawl, "g.example").crawlLimit()).isEqualTo(local ? 3 : 4);
    }
  }
}
