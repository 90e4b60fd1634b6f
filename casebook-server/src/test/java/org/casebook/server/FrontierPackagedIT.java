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
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.frontier.testing.PutStreams;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar serves URLFrontier gRPC: gRPC and protobuf 3 live in its one lib/ beside Hadoop
 * and HBase. {@code java -jar casebook.jar serve --frontier-port N}, then PutURLs, GetURLs,
 * GetStats, and after a restart on the same data the URLs are still there.
 */
class FrontierPackagedIT {
  @Test
  void thePackagedServerSpeaksUrlFrontier() throws Exception {
    Path jar = Path.of("target", "casebook", "casebook.jar");
    assertThat(jar).exists();
    Path data = EmbeddedHBase.scratchDir("frontier-serve");
    int http = freePort();
    int grpc = freePort();
    Process first =
        PackagedServer.start(
            jar, data, http, "frontier-serve.log", "--frontier-port", Integer.toString(grpc));
    ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", grpc).usePlaintext().build();
    try {
      URLFrontierGrpc.URLFrontierBlockingStub stub = awaitGrpc(first, ch);
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
      stub.getURLs(GetParams.newBuilder().setCrawlID("packaged").setMaxUrlsPerQueue(1).build())
          .forEachRemaining(u -> got.add(u.getUrl()));
      assertThat(got).hasSize(1).allMatch(u -> u.startsWith("http://packaged.example/"));
    } finally {
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      PackagedServer.stop(first);
    }
    Process second =
        PackagedServer.start(
            jar, data, http, "frontier-serve.log", "--frontier-port", Integer.toString(grpc));
    ManagedChannel ch2 = ManagedChannelBuilder.forAddress("127.0.0.1", grpc).usePlaintext().build();
    try {
      URLFrontierGrpc.URLFrontierBlockingStub stub = awaitGrpc(second, ch2);
      Urlfrontier.Stats stats =
          stub.getStats(
              Urlfrontier.QueueWithinCrawlParams.newBuilder().setCrawlID("packaged").build());
      assertThat(stats.getSize()).isEqualTo(2);
      assertThat(stats.getInProcess()).isEqualTo(1);
      assertThat(stats.getNumberOfQueues()).isEqualTo(1);
    } finally {
      ch2.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      PackagedServer.stop(second);
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

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
