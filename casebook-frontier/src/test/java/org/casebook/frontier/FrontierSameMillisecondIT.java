package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writes that undo one another within one millisecond, with HBase's clock held still: a delete
 * marker hides every write of its millisecond, even one sent after it, so what the last write says
 * must not hide behind what an earlier one removed.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierSameMillisecondIT {
  private static final String URL = "http://a.example/1";

  /** A URL of a priority channel with metadata priority {@code priority}. */
  private static UrlInfo info(String crawl, long priority) {
    return new UrlInfo(URL, "", crawl, Map.of("priority", List.of(Long.toString(priority))));
  }

  /** A refetch date already passed, in seconds: the URL is due at once. */
  private static long passed() {
    return System.currentTimeMillis() / 1000 - 60;
  }

  private static List<String> handOut(FrontierService s, String crawl) {
    return s.getUrls(HandOutRequest.of(crawl, 0, 0)).stream().map(UrlInfo::url).toList();
  }

  private static List<PutStatus> statuses(List<PutAck> acks) {
    return acks.stream().map(PutAck::status).toList();
  }

  @Test
  void aUrlQueuedAgainInOneBatchOnTheRowItLeftIsHandedOut(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns());
      String crawl = TestIds.unique("again");
      s.createChannel(crawl, ChannelKind.PRIORITY, 0);
      EmbeddedHBase.withClockHeldStill(
          () ->
              // Priority 0, then 5 (its row at 0 goes), then 0 again: the batch's last word.
              assertThat(
                      statuses(
                          s.put(
                              List.of(
                                  UrlItem.discovered(info(crawl, 0)),
                                  UrlItem.known(info(crawl, 5), passed()),
                                  UrlItem.known(info(crawl, 0), passed())))))
                  .containsOnly(PutStatus.OK));
      assertThat(s.stats(crawl, "").queued()).isEqualTo(1);
      assertThat(handOut(s, crawl)).as("handed out from its queued row").containsExactly(URL);
    }
  }

  @Test
  void aUrlDoneThenQueuedAgainInOneBatchStaysQueued(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns());
      String crawl = TestIds.unique("redo");
      s.createChannel(crawl, ChannelKind.PRIORITY, 0);
      long due = passed();
      EmbeddedHBase.withClockHeldStill(
          () ->
              assertThat(
                      statuses(
                          s.put(
                              List.of(
                                  UrlItem.discovered(info(crawl, 0)),
                                  UrlItem.known(info(crawl, 0), 0),
                                  UrlItem.known(info(crawl, 5), due)))))
                  .containsOnly(PutStatus.OK));
      assertThat(s.urlStatus(crawl, "", URL).refetchableFromDate())
          .as("queued, as the batch's last item put it")
          .isEqualTo(due);
      QueueStats st = s.stats(crawl, "");
      assertThat(st.queued()).isEqualTo(1);
      assertThat(st.completed()).isZero();
      assertThat(handOut(s, crawl)).containsExactly(URL);
    }
  }

  @Test
  void inactiveSetRightAfterActiveStopsHandOuts(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns());
      String crawl = TestIds.unique("off");
      s.put(List.of(UrlItem.discovered(UrlInfo.of(URL, crawl))));
      EmbeddedHBase.withClockHeldStill(
          () -> {
            s.setActive(false);
            s.setActive(true);
            assertThat(s.active()).isTrue();
            s.setActive(false);
          });
      assertThat(s.active()).as("the last SetActive holds").isFalse();
      assertThat(handOut(s, crawl)).isEmpty();
      s.setActive(true);
      assertThat(handOut(s, crawl)).containsExactly(URL);
    }
  }

  @Test
  void aQueueSettingClearedThenSetAgainIsKept(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns());
      String crawl = TestIds.unique("settings");
      String key = "a.example";
      s.put(List.of(UrlItem.discovered(UrlInfo.of(URL, crawl))));
      long until = System.currentTimeMillis() / 1000 + 3600;
      EmbeddedHBase.withClockHeldStill(
          () -> {
            s.setCrawlLimit(crawl, key, 3);
            s.setCrawlLimit(crawl, key, 0);
            s.setCrawlLimit(crawl, key, 3);
            s.setHostDelay(crawl, key, 7_000L);
            s.setHostDelay(crawl, key, null);
            s.setHostDelay(crawl, key, 7_000L);
            s.blockQueueUntil(crawl, key, until);
            s.blockQueueUntil(crawl, key, 0);
            s.blockQueueUntil(crawl, key, until);
          });
      HostInfo h = s.host(crawl, key);
      assertThat(h.crawlLimit()).as("crawl limit").isEqualTo(3);
      assertThat(h.ownDelayMs()).as("own delay").isEqualTo(7_000L);
      assertThat(h.blockedUntil()).as("blocked until").isEqualTo(until * 1000);
      assertThat(handOut(s, crawl)).as("blocked").isEmpty();
      s.setCrawlLimit(crawl, key, 0);
      s.setHostDelay(crawl, key, null);
      s.blockQueueUntil(crawl, key, 0);
      h = s.host(crawl, key);
      assertThat(h.crawlLimit()).isZero();
      assertThat(h.ownDelayMs()).isNull();
      assertThat(h.blockedUntil()).isZero();
      assertThat(handOut(s, crawl)).containsExactly(URL);
    }
  }

  @Test
  void aCrawlDeletedThenPutAgainStartsAgain(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns());
      String crawl = TestIds.unique("anew");
      String again = "http://a.example/2";
      s.put(List.of(UrlItem.discovered(UrlInfo.of(URL, crawl))));
      EmbeddedHBase.withClockHeldStill(
          () -> {
            assertThat(s.deleteCrawl(crawl)).isEqualTo(1);
            assertThat(statuses(s.put(List.of(UrlItem.discovered(UrlInfo.of(again, crawl))))))
                .containsExactly(PutStatus.OK);
          });
      assertThat(s.listCrawls()).contains(crawl);
      assertThat(s.channel(crawl).queued()).isEqualTo(1);
      assertThat(s.countUrls(crawl, "", null, false)).isEqualTo(1);
      assertThat(handOut(s, crawl)).containsExactly(again);
      assertThat(s.deleteCrawl(crawl)).isEqualTo(1);
      assertThat(s.listCrawls()).doesNotContain(crawl);
    }
  }

  private static String ns() {
    return TestIds.unique("fms").replace('-', '_');
  }
}
