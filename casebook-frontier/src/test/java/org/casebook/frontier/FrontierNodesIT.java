package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.frontier.FrontierServiceIT.MovableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several frontier nodes on one namespace: each lists the live ones (ListNodes over gRPC), a node
 * stopped cleanly goes at once, one that stops renewing its row goes after its expiry and its row a
 * day later. Time moves by a clock the nodes share, not by waiting.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierNodesIT {
  /** The address of a node that never listens: it only has a row. */
  private static final String KILLED = "127.0.0.1:1";

  private static String namespace() {
    return TestIds.unique("nodes").replace('-', '_');
  }

  private static FrontierFixture node(HBaseRuntime runtime, MovableClock clock, String namespace) {
    return new FrontierFixture(runtime, clock, Map.of("frontier.namespace", namespace));
  }

  private static List<String> listNodes(FrontierFixture f) {
    return f.blocking.listNodes(Urlfrontier.Empty.getDefaultInstance()).getValuesList();
  }

  private static String address(FrontierFixture f) {
    return "127.0.0.1:" + f.port;
  }

  @Test
  void twoNodesListEachOtherAndOneStoppedCleanlyGoesAtOnce(HBaseRuntime runtime) {
    MovableClock clock = new MovableClock();
    String ns = namespace();
    try (FrontierFixture a = node(runtime, clock, ns)) {
      try (FrontierFixture b = node(runtime, clock, ns)) {
        assertThat(listNodes(a)).as("itself first").containsExactly(address(a), address(b));
        assertThat(listNodes(b)).containsExactly(address(b), address(a));
        assertThat(a.service.listNodes())
            .as("a service that is no node lists the rows")
            .containsExactlyInAnyOrder(address(a), address(b));
      }
      assertThat(listNodes(a)).containsExactly(address(a));
      assertThat(a.service.listNodes()).containsExactly(address(a));
    }
  }

  @Test
  void aNodeThatStopsRenewingGoesAfterItsExpiryAndItsRowADayLater(HBaseRuntime runtime) {
    MovableClock clock = new MovableClock();
    String ns = namespace();
    try (FrontierFixture a = node(runtime, clock, ns)) {
      NodeStore store = new NodeStore(runtime.connection(), FrontierSchema.in(ns));
      // A node killed after it joined: its row is never renewed nor deleted.
      NodeHeartbeat killed = NodeHeartbeat.join(store, clock, KILLED, Duration.ofSeconds(5));
      // A process killed before a restart on the same port: listed once.
      NodeHeartbeat predecessor =
          NodeHeartbeat.join(store, clock, address(a), Duration.ofSeconds(5));
      assertThat(listNodes(a)).containsExactly(address(a), KILLED);

      clock.millis.addAndGet(killed.self().expiryMillis() - 1);
      assertThat(listNodes(a)).as("just before its expiry").containsExactly(address(a), KILLED);
      clock.millis.addAndGet(1);
      assertThat(listNodes(a)).as("at its expiry").containsExactly(address(a));
      assertThat(ids(store)).as("its row stays a while").contains(killed.self().id());

      clock.millis.addAndGet(FrontierNodes.FORGET_AFTER.toMillis());
      assertThat(listNodes(a)).containsExactly(address(a));
      assertThat(ids(store))
          .as("rows of nodes silent for over a day are deleted by the listing")
          .doesNotContain(killed.self().id(), predecessor.self().id());
    }
  }

  @Test
  void aNodeWhoseHeartbeatFailsIsUnhealthyOnceItWouldExpire(HBaseRuntime runtime) {
    MovableClock clock = new MovableClock();
    // No tables in this namespace: every write fails at once.
    NodeStore missing = new NodeStore(runtime.connection(), FrontierSchema.in(namespace()));
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try (NodeHeartbeat node = NodeHeartbeat.join(missing, clock, KILLED, Duration.ofSeconds(5))) {
      node.startOn(scheduler);
      assertThat(node.beat()).as("a failed write is logged, not thrown").isFalse();
      assertThat(node.healthy()).as("within its expiry").isTrue();
      clock.millis.addAndGet(node.self().expiryMillis() + 1);
      assertThat(node.healthy()).isFalse();
    } finally {
      scheduler.shutdownNow();
    }
  }

  private static List<Long> ids(NodeStore store) {
    return store.nodes(FrontierNodes.MAX_ROWS).stream().map(NodeRow::id).toList();
  }
}
