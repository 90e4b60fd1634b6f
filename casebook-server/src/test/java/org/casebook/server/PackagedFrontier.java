package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.casebook.frontier.wire.testing.PutStreams;

/**
 * URLFrontier gRPC against the packaged server ({@link ServeIT}): PutURLs, GetURLs, and after a
 * restart on the same data, GetStats still counts the URLs.
 */
final class PackagedFrontier {
  private PackagedFrontier() {}

  /** Puts two URLs (plus a duplicate and a malformed one, both skipped) and takes one. */
  static void putTwoUrlsAndTakeOne(Process server, int grpc) throws InterruptedException {
    ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", grpc).usePlaintext().build();
    try {
      URLFrontierGrpc.URLFrontierBlockingStub stub = awaitGrpc(server, ch);
      assertThat(stub.listNodes(Urlfrontier.Empty.getDefaultInstance()).getValuesList())
          .containsExactly("127.0.0.1:" + grpc);
      List<AckMessage> acks =
          PutStreams.putAll(
              URLFrontierGrpc.newStub(ch),
              discovered("http://packaged.example/1"),
              discovered("http://packaged.example/2"),
              discovered("http://packaged.example/1"),
              discovered("not a url"));
      assertThat(acks)
          .extracting(AckMessage::getStatus)
          .containsExactlyInAnyOrder(
              AckMessage.Status.OK,
              AckMessage.Status.OK,
              AckMessage.Status.SKIPPED,
              AckMessage.Status.SKIPPED);
      List<String> got = new ArrayList<>();
      // Held in flight for an hour, so it is still in process after the restart however slow.
      stub.getURLs(
              GetParams.newBuilder()
                  .setCrawlID("packaged")
                  .setMaxUrlsPerQueue(1)
                  .setDelayRequestable(3600)
                  .build())
          .forEachRemaining(u -> got.add(u.getUrl()));
      assertThat(got).hasSize(1).allMatch(u -> u.startsWith("http://packaged.example/"));
    } finally {
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** After a restart: both URLs are stored, the one handed out is still in process. */
  static void assertTwoUrlsOneInProcess(Process server, int grpc) throws InterruptedException {
    ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", grpc).usePlaintext().build();
    try {
      Urlfrontier.Stats stats =
          awaitGrpc(server, ch)
              .getStats(
                  Urlfrontier.QueueWithinCrawlParams.newBuilder().setCrawlID("packaged").build());
      assertThat(stats.getSize()).isEqualTo(2);
      assertThat(stats.getInProcess()).isEqualTo(1);
      assertThat(stats.getNumberOfQueues()).isEqualTo(1);
    } finally {
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static URLItem discovered(String url) {
    return URLItem.newBuilder()
        .setDiscovered(
            DiscoveredURLItem.newBuilder()
                .setInfo(URLInfo.newBuilder().setUrl(url).setCrawlID("packaged")))
        .build();
  }

  private static URLFrontierGrpc.URLFrontierBlockingStub awaitGrpc(Process p, ManagedChannel ch)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 120_000;
    URLFrontierGrpc.URLFrontierBlockingStub stub = URLFrontierGrpc.newBlockingStub(ch);
    while (System.currentTimeMillis() < deadline) {
      assertThat(p.isAlive()).as("server exited early; see target/scratch/serve.log").isTrue();
      try {
        stub.withDeadlineAfter(2, TimeUnit.SECONDS)
            .getActive(Urlfrontier.Local.getDefaultInstance());
        return stub;
      } catch (StatusRuntimeException notYet) {
        Thread.sleep(250);
      }
    }
    throw new AssertionError("frontier gRPC not up within 120 s");
  }
}
