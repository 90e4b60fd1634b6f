package org.casebook.frontier.wire;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.util.ArrayList;
import java.util.List;
import org.casebook.frontier.HandOutRequest;
import org.casebook.frontier.KnownUrl;
import org.casebook.frontier.PutAck;
import org.casebook.frontier.PutStatus;
import org.casebook.frontier.QueueListing;
import org.casebook.frontier.QueueStats;
import org.casebook.frontier.UrlInfo;
import org.casebook.frontier.UrlInfoCodec;
import org.casebook.frontier.UrlItem;

/** URLFrontier 2.6's messages to the frontier's records and back. */
final class UrlFrontierMessages {
  private UrlFrontierMessages() {}

  static UrlInfo urlInfo(URLInfo m) {
    return UrlInfoCodec.info(m);
  }

  static URLInfo urlInfo(UrlInfo info) {
    return UrlInfoCodec.message(info);
  }

  /** A PutURLs item: discovered, known, or neither (refused when put). */
  static UrlItem item(URLItem m) {
    if (m.hasDiscovered()) {
      return new UrlItem(
          m.getID(), UrlItem.Kind.DISCOVERED, urlInfo(m.getDiscovered().getInfo()), 0);
    }
    UrlItem.Kind kind = m.hasKnown() ? UrlItem.Kind.KNOWN : UrlItem.Kind.NEITHER;
    KnownURLItem known = m.getKnown();
    return new UrlItem(m.getID(), kind, urlInfo(known.getInfo()), known.getRefetchableFromDate());
  }

  static AckMessage ack(PutAck ack) {
    return AckMessage.newBuilder().setID(ack.id()).setStatus(status(ack.status())).build();
  }

  /** A PutDiscovered batch's URLs as discovered items. */
  static List<UrlItem> discovered(DiscoveredBatch batch) {
    List<UrlItem> items = new ArrayList<>(batch.getItemsCount());
    batch.getItemsList().forEach(i -> items.add(UrlItem.discovered(urlInfo(i))));
    return items;
  }

  /** A PutDiscovered batch's acknowledgement: its id and one status per URL, in order. */
  static BatchAck batchAck(String id, List<PutAck> acks) {
    BatchAck.Builder b = BatchAck.newBuilder().setID(id);
    acks.forEach(a -> b.addStatuses(status(a.status())));
    return b.build();
  }

  /** A batch that could not be put at all: every URL FAIL (send again). */
  static BatchAck batchFailed(DiscoveredBatch batch) {
    BatchAck.Builder b = BatchAck.newBuilder().setID(batch.getID());
    batch.getItemsList().forEach(i -> b.addStatuses(AckMessage.Status.FAIL));
    return b.build();
  }

  private static AckMessage.Status status(PutStatus s) {
    return switch (s) {
      case OK -> AckMessage.Status.OK;
      case SKIPPED -> AckMessage.Status.SKIPPED;
      case FAIL -> AckMessage.Status.FAIL;
    };
  }

  /** The item's failure when its batch could not be put at all. */
  static AckMessage failed(URLItem m) {
    return AckMessage.newBuilder().setID(m.getID()).setStatus(AckMessage.Status.FAIL).build();
  }

  /**
   * GetParams: a crawl ID (empty: {@code DEFAULT}) or, when none is set, any crawl. Negative
   * numbers (a {@code uint32} of 2³¹ or more, as Java reads it) are refused.
   */
  static HandOutRequest request(GetParams p) {
    return new HandOutRequest(
        p.getItemCase() == GetParams.ItemCase.CRAWLID ? p.getCrawlID() : null,
        p.getKey(),
        p.getMaxQueues(),
        p.getMaxUrlsPerQueue(),
        p.getDelayRequestable());
  }

  static URLItem known(KnownUrl url) {
    return URLItem.newBuilder()
        .setKnown(
            KnownURLItem.newBuilder()
                .setInfo(urlInfo(url.info()))
                .setRefetchableFromDate(url.refetchableFromDate()))
        .setCreationDate(url.creationDate())
        .build();
  }

  static QueueList queues(QueueListing l) {
    return QueueList.newBuilder()
        .setCrawlID(l.crawlId())
        .setStart(l.start())
        .addAllValues(l.keys())
        .setTotal(l.total())
        .setSize(l.keys().size())
        .build();
  }

  static Stats stats(QueueStats s) {
    return Stats.newBuilder()
        .setCrawlID(s.crawlId())
        .setNumberOfQueues(s.queues())
        .setSize(s.queued())
        .setInProcess((int) Math.min(Integer.MAX_VALUE, s.inFlight()))
        .putCounts("completed", s.completed())
        .putCounts("active_queues", s.activeQueues())
        .build();
  }
}
