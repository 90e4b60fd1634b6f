package org.casebook.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * StormCrawler's URLFrontier status updater ({@code StatusUpdaterBolt}), as a test needs it: one
 * PutURLs stream for the whole crawl, each item's ID its URL, and the statuses waiting for their
 * acknowledgement kept by URL. A discovered URL already waiting is not sent again (it is
 * acknowledged at once); a fetched one is sent regardless. The first acknowledgement of a URL
 * settles every status waiting for it; FAIL fails them (StormCrawler's spout then forgets the URL
 * and the frontier hands it out again once {@code delay_requestable} has passed), OK and SKIPPED
 * succeed. StormCrawler's cache of discovered URLs is off ({@code status.updater.use.cache:
 * false}), so every outlink reaches the frontier and the frontier alone tells new from known.
 */
final class TestStatusUpdater implements StreamObserver<AckMessage>, AutoCloseable {
  /** The statuses a crawl sends (StormCrawler's {@code Status}, those this crawl has). */
  enum Status {
    DISCOVERED,
    FETCHED,
    FETCH_ERROR
  }

  private final String crawlId;
  private final Object lock = new Object();
  private final Map<String, List<Status>> waitAck = new HashMap<>();
  private final Map<Status, Long> sent = new EnumMap<>(Status.class);
  private final Map<AckMessage.Status, Long> acks = new EnumMap<>(AckMessage.Status.class);
  private final List<String> failed = new ArrayList<>();
  private long unmatchedAcks;
  private long answeredAtOnce;
  private final CompletableFuture<Void> streamEnded = new CompletableFuture<>();
  private final StreamObserver<URLItem> requests;

  TestStatusUpdater(URLFrontierGrpc.URLFrontierStub frontier, String crawlId) {
    this.crawlId = crawlId;
    requests = frontier.withWaitForReady().putURLs(this);
  }

  /**
   * Stores a URL's status: {@code refetchableFromSeconds} (seconds since the epoch) for a fetched
   * URL or a fetch error, 0 for never again, as StormCrawler sends when its scheduler answers none.
   */
  void store(
      String url, String key, Status status, Map<String, String> metadata, long refetchSeconds) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(crawlId);
    metadata.forEach((k, v) -> info.putMetadata(k, StringList.newBuilder().addValues(v).build()));
    URLItem.Builder item = URLItem.newBuilder().setID(url);
    if (status == Status.DISCOVERED) {
      item.setDiscovered(DiscoveredURLItem.newBuilder().setInfo(info));
    } else {
      item.setKnown(KnownURLItem.newBuilder().setInfo(info).setRefetchableFromDate(refetchSeconds));
    }
    synchronized (lock) {
      List<Status> waiting = waitAck.computeIfAbsent(url, u -> new ArrayList<>());
      if (status == Status.DISCOVERED && !waiting.isEmpty()) {
        answeredAtOnce++;
        return;
      }
      waiting.add(status);
      sent.merge(status, 1L, Long::sum);
      // A gRPC stream takes one message at a time.
      requests.onNext(item.build());
    }
  }

  @Override
  public void onNext(AckMessage ack) {
    synchronized (lock) {
      acks.merge(ack.getStatus(), 1L, Long::sum);
      List<Status> settled = waitAck.remove(ack.getID());
      if (settled == null) {
        unmatchedAcks++;
      } else if (ack.getStatus() == AckMessage.Status.FAIL) {
        failed.add(ack.getID());
      }
    }
  }

  @Override
  public void onError(Throwable t) {
    streamEnded.completeExceptionally(t);
  }

  @Override
  public void onCompleted() {
    streamEnded.complete(null);
  }

  /** URLs with a status sent and not yet acknowledged. */
  int waitingForAcks() {
    synchronized (lock) {
      return waitAck.size();
    }
  }

  /** Whether the stream ended in an error: nothing sent afterwards would be answered. */
  boolean broken() {
    return streamEnded.isCompletedExceptionally();
  }

  /** Items sent on the stream, by status. */
  Map<Status, Long> sent() {
    synchronized (lock) {
      return Map.copyOf(sent);
    }
  }

  /** Acknowledgements received, by their status. */
  Map<AckMessage.Status, Long> acks() {
    synchronized (lock) {
      return Map.copyOf(acks);
    }
  }

  /** Acknowledgements of a URL whose statuses an earlier acknowledgement had settled. */
  long unmatchedAcks() {
    synchronized (lock) {
      return unmatchedAcks;
    }
  }

  /** Discovered URLs not sent because a status of theirs was already waiting. */
  long answeredAtOnce() {
    synchronized (lock) {
      return answeredAtOnce;
    }
  }

  /** URLs whose statuses a FAIL settled. */
  List<String> failed() {
    synchronized (lock) {
      return List.copyOf(failed);
    }
  }

  /** Ends the stream and waits for the frontier to end it too (every item answered). */
  @Override
  public void close() {
    synchronized (lock) {
      requests.onCompleted();
    }
    streamEnded.orTimeout(30, TimeUnit.SECONDS).join();
  }
}
