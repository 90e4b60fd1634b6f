package org.casebook.frontier.wire;

import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Objects;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.PutAck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PutDiscovered stream (URLFrontier 2.6): each batch is put as it arrives, as one put of
 * discovered URLs (a URL already known, or twice in the batch, is SKIPPED), and acknowledged as a
 * whole with a status per URL in order; the stream completes after its last batch's ack. gRPC
 * delivers a stream's messages one at a time, so batches are put and acknowledged in order.
 */
final class PutDiscoveredStream implements StreamObserver<DiscoveredBatch> {
  private static final Logger LOG = LoggerFactory.getLogger(PutDiscoveredStream.class);

  private final FrontierService service;
  private final StreamObserver<BatchAck> out;

  PutDiscoveredStream(FrontierService service, StreamObserver<BatchAck> out) {
    this.service = Objects.requireNonNull(service, "service is null");
    this.out = Objects.requireNonNull(out, "out is null");
  }

  @Override
  public void onNext(DiscoveredBatch batch) {
    BatchAck ack;
    try {
      List<PutAck> acks = service.put(UrlFrontierMessages.discovered(batch));
      ack = UrlFrontierMessages.batchAck(batch.getID(), acks);
    } catch (RuntimeException e) {
      // put acknowledges per item and fails items, not calls: anything else is a bug
      LOG.error("frontier: PutDiscovered batch failed", e);
      ack = UrlFrontierMessages.batchFailed(batch);
    }
    out.onNext(ack);
  }

  @Override
  public void onError(Throwable t) {
    if (!(t instanceof StatusRuntimeException s
        && s.getStatus().getCode() == Status.Code.CANCELLED)) {
      LOG.warn("frontier: PutDiscovered stream ended by the client: {}", t.toString());
    }
  }

  @Override
  public void onCompleted() {
    out.onCompleted();
  }
}
