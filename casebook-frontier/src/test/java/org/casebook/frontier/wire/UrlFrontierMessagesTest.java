package org.casebook.frontier.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.AnyCrawlID;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.casebook.frontier.HandOutRequest;
import org.casebook.frontier.KnownUrl;
import org.casebook.frontier.PutAck;
import org.casebook.frontier.PutStatus;
import org.casebook.frontier.QueueListing;
import org.casebook.frontier.QueueStats;
import org.casebook.frontier.UrlInfo;
import org.casebook.frontier.UrlItem;
import org.junit.jupiter.api.Test;

/** URLFrontier's messages to the frontier's records and back, field by field. */
class UrlFrontierMessagesTest {
  private static final URLInfo INFO =
      URLInfo.newBuilder()
          .setUrl("http://a.example/x")
          .setKey("a.example")
          .setCrawlID("news")
          .putMetadata("priority", StringList.newBuilder().addValues("5").addValues("6").build())
          .build();

  @Test
  void urlInfoBothWays() {
    UrlInfo info = UrlFrontierMessages.urlInfo(INFO);
    assertThat(info)
        .isEqualTo(
            new UrlInfo(
                "http://a.example/x", "a.example", "news", Map.of("priority", List.of("5", "6"))));
    assertThat(UrlFrontierMessages.urlInfo(info)).isEqualTo(INFO);
  }

  @Test
  void putItemsAreDiscoveredKnownOrNeither() {
    UrlItem discovered =
        UrlFrontierMessages.item(
            URLItem.newBuilder()
                .setID("d1")
                .setDiscovered(DiscoveredURLItem.newBuilder().setInfo(INFO))
                .build());
    assertThat(discovered.kind()).isEqualTo(UrlItem.Kind.DISCOVERED);
    assertThat(discovered.ackId()).isEqualTo("d1");
    UrlItem known =
        UrlFrontierMessages.item(
            URLItem.newBuilder()
                .setKnown(KnownURLItem.newBuilder().setInfo(INFO).setRefetchableFromDate(42))
                .build());
    assertThat(known.kind()).isEqualTo(UrlItem.Kind.KNOWN);
    assertThat(known.refetchableFromDate()).isEqualTo(42);
    assertThat(known.ackId()).as("no id: the URL").isEqualTo("http://a.example/x");
    UrlItem neither = UrlFrontierMessages.item(URLItem.newBuilder().setID("e").build());
    assertThat(neither.kind()).isEqualTo(UrlItem.Kind.NEITHER);
    assertThat(neither.info().crawlId()).as("the DEFAULT crawl's, once normalised").isEmpty();
  }

  @Test
  void acksKeepIdAndStatus() {
    for (PutStatus s : PutStatus.values()) {
      AckMessage a = UrlFrontierMessages.ack(new PutAck("id", s));
      assertThat(a.getID()).isEqualTo("id");
      assertThat(a.getStatus().name()).isEqualTo(s.name());
    }
  }

  @Test
  void getParamsNameACrawlOrAny() {
    HandOutRequest unset = UrlFrontierMessages.request(GetParams.newBuilder().build());
    assertThat(unset.anyCrawlId()).as("no crawl ID set: any crawl").isTrue();
    HandOutRequest any =
        UrlFrontierMessages.request(
            GetParams.newBuilder().setAnyCrawlID(AnyCrawlID.getDefaultInstance()).build());
    assertThat(any.anyCrawlId()).isTrue();
    HandOutRequest empty =
        UrlFrontierMessages.request(
            GetParams.newBuilder()
                .setCrawlID("")
                .setKey("k")
                .setMaxQueues(3)
                .setMaxUrlsPerQueue(4)
                .setDelayRequestable(5)
                .build());
    assertThat(empty).isEqualTo(new HandOutRequest("", "k", 3, 4, 5));
    assertThatThrownBy(
            () -> UrlFrontierMessages.request(GetParams.newBuilder().setMaxQueues(-1).build()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("must not be negative");
  }

  @Test
  void statusListingsAndStats() {
    URLItem item = UrlFrontierMessages.known(new KnownUrl(UrlFrontierMessages.urlInfo(INFO), 9, 0));
    assertThat(item.getKnown().getInfo()).isEqualTo(INFO);
    assertThat(item.getKnown().getRefetchableFromDate()).isEqualTo(9);
    var queues = UrlFrontierMessages.queues(new QueueListing("c", List.of("a", "b"), 2, 10));
    assertThat(queues.getValuesList()).containsExactly("a", "b");
    assertThat(queues.getSize()).isEqualTo(2);
    assertThat(queues.getStart()).isEqualTo(2);
    assertThat(queues.getTotal()).isEqualTo(10);
    assertThat(queues.getCrawlID()).isEqualTo("c");
    var stats = UrlFrontierMessages.stats(new QueueStats("c", 4, 3, 20, 2, 7));
    assertThat(stats.getNumberOfQueues()).isEqualTo(4);
    assertThat(stats.getSize()).isEqualTo(20);
    assertThat(stats.getInProcess()).isEqualTo(2);
    assertThat(stats.getCountsMap())
        .containsExactlyInAnyOrderEntriesOf(Map.of("completed", 7L, "active_queues", 3L));
  }
}
