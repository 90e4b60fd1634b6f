package org.casebook.frontier.wire.testing;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** PutURLs for tests: one stream, every item sent, every acknowledgement once it completed. */
public final class PutStreams {
  private PutStreams() {}

  public static List<AckMessage> putAll(URLFrontierGrpc.URLFrontierStub stub, URLItem... items) {
    List<AckMessage> acks = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    StreamObserver<URLItem> in =
        stub.putURLs(
            new StreamObserver<>() {
              @Override
              public void onNext(AckMessage value) {
                synchronized (acks) {
                  acks.add(value);
                }
              }

              @Override
              public void onError(Throwable t) {
                done.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {
                done.complete(null);
              }
            });
    for (URLItem it : items) {
      in.onNext(it);
    }
    in.onCompleted();
    done.orTimeout(60, TimeUnit.SECONDS).join();
    synchronized (acks) {
      return List.copyOf(acks);
    }
  }
}
