package org.casebook.frontier.wire.testing;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** PutURLs for tests: one stream, every item sent, every acknowledgement once it completed. */
public final class PutStreams {
  private PutStreams() {}

  public static List<AckMessage> putAll(URLFrontierGrpc.URLFrontierStub stub, URLItem... items) {
    return stream(stub::putURLs, List.of(items));
  }

  /**
   * Any client stream: opens it with {@code open}, sends every item, and answers every reply once
   * the server completed the stream.
   */
  public static <I, A> List<A> stream(
      Function<StreamObserver<A>, StreamObserver<I>> open, List<I> items) {
    List<A> acks = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    StreamObserver<I> in =
        open.apply(
            new StreamObserver<>() {
              @Override
              public void onNext(A value) {
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
    for (I it : items) {
      in.onNext(it);
    }
    in.onCompleted();
    done.orTimeout(60, TimeUnit.SECONDS).join();
    synchronized (acks) {
      return List.copyOf(acks);
    }
  }
}
