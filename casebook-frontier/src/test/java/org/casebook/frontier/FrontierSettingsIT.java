package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.casebook.frontier.wire.testing.PutStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The frontier's setting: a namespace of its own, as a benchmark or a second frontier sets it. */
@ExtendWith(EmbeddedHBase.class)
class FrontierSettingsIT {
  @Test
  void aFrontierStartedInItsOwnNamespaceKeepsItsTablesThere(HBaseRuntime runtime) throws Exception {
    String ns = TestIds.unique("fn").replace('-', '_');
    String crawl = TestIds.unique("own");
    try (ServedSystem served =
        ServedSystem.start(
            runtime, new FrontierSystem(), AccessRule.open(), Map.of("frontier.namespace", ns))) {
      assertThat(served.context().settings().get(FrontierSystem.NAMESPACE)).isEqualTo(ns);
      int port = served.listeners().get(0).address().getPort();
      ManagedChannel ch =
          ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      try {
        List<AckMessage> acks =
            PutStreams.putAll(
                URLFrontierGrpc.newStub(ch),
                FrontierFixture.discovered(crawl, "http://own.example/1", null));
        assertThat(acks).extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK);
      } finally {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      try (Admin admin = runtime.connection().getAdmin()) {
        assertThat(admin.tableExists(TableName.valueOf(ns, "known"))).isTrue();
      }
      assertThat(new FrontierService(served.context(), ns).countUrls(crawl, null, null, false))
          .isEqualTo(1);
      assertThat(new FrontierService(served.context()).listCrawls())
          .as("nothing in the default namespace")
          .doesNotContain(crawl);
    }
  }

  @Test
  void aNamespaceHBaseWouldRefuseIsRefusedAtStart(HBaseRuntime runtime) {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      assertThatThrownBy(
              () ->
                  p.contextFor(
                      new FrontierSystem().descriptor(), Map.of("frontier.namespace", "no-dash")))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("frontier.namespace");
    }
  }

  @Test
  void aNodeHeartbeatOutOfRangeIsRefusedAtStart(HBaseRuntime runtime) {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      for (String seconds : List.of("0", "301")) {
        assertThatThrownBy(
                () ->
                    p.contextFor(
                        new FrontierSystem().descriptor(),
                        Map.of("frontier.node-heartbeat-seconds", seconds)))
            .isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("frontier.node-heartbeat-seconds");
      }
      assertThat(
              p.contextFor(
                      new FrontierSystem().descriptor(),
                      Map.of("frontier.node-heartbeat-seconds", "1"))
                  .settings()
                  .get(FrontierSystem.NODE_HEARTBEAT))
          .isEqualTo(1);
    }
  }
}
