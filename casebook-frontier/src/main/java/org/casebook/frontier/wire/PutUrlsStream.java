package org.casebook.frontier.wire;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.PutAck;
import org.casebook.frontier.UrlItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PutURLs stream: items wait in a batch, written when {@value #PUT_BATCH} items wait (on the
 * caller's thread, which holds the stream back meanwhile) or {@value #PUT_LINGER_MS} ms after its
 * first — so a long-lived stream of a few URLs is acknowledged at once and a bulk stream is written
 * in large batches — and every item is acknowledged. The stream completes after its last batch is
 * acknowledged.
 */
final class PutUrlsStream implements StreamObserver<URLItem> {
  private static final Logger LOG = LoggerFactory.getLogger(PutUrlsStream.class);

  static final int PUT_BATCH = 2000;
  static final long PUT_LINGER_MS = 5;

  private final FrontierService service;
  private final ScheduledExecutorService flusher;
  private final StreamObserver<AckMessage> out;
  private final Object writeLock = new Object();
  private List<URLItem> batch = new ArrayList<>();
  private boolean lingering;
  private boolean failed;

  PutUrlsStream(
      FrontierService service, ScheduledExecutorService flusher, StreamObserver<AckMessage> out) {
    this.service = Objects.requireNonNull(service, "service is null");
    this.flusher = Objects.requireNonNull(flusher, "flusher is null");
    this.out = Objects.requireNonNull(out, "out is null");
  }

  @Override
  public void onNext(URLItem item) {
    boolean full;
    synchronized (this) {
      batch.add(item);
      full = batch.size() >= PUT_BATCH;
      if (!full && !lingering) {
        lingering = true;
        flusher.schedule(this::flushLingering, PUT_LINGER_MS, TimeUnit.MILLISECONDS);
      }
    }
    if (full) {
      flush();
    }
  }

  private void flushLingering() {
    synchronized (this) {
      lingering = false;
    }
    flush();
  }

  private void flush() {
    synchronized (writeLock) {
      List<URLItem> items;
      synchronized (this) {
        if (batch.isEmpty() || failed) {
          return;
        }
        items = batch;
        batch = new ArrayList<>();
      }
      List<AckMessage> acks = new ArrayList<>(items.size());
      try {
        List<UrlItem> put = new ArrayList<>(items.size());
        items.forEach(it -> put.add(UrlFrontierMessages.item(it)));
        for (PutAck a : service.put(put)) {
          acks.add(UrlFrontierMessages.ack(a));
        }
      } catch (RuntimeException e) {
        // put acknowledges per item and fails items, not calls: anything else is a bug
        LOG.error("frontier: PutURLs batch failed", e);
        acks.clear();
        items.forEach(it -> acks.add(UrlFrontierMessages.failed(it)));
      }
      synchronized (out) {
        acks.forEach(out::onNext);
      }
    }
  }

  @Override
  public void onError(Throwable t) {
    synchronized (this) {
      failed = true;
      batch.clear();
    }
    if (!(t instanceof StatusRuntimeException s
        && s.getStatus().getCode() == Status.Code.CANCELLED)) {
      LOG.warn("frontier: PutURLs stream ended by the client: {}", t.toString());
    }
  }

  @Override
  public void onCompleted() {
    flush();
    synchronized (writeLock) {
      synchronized (out) {
        out.onCompleted();
      }
    }
  }
}
