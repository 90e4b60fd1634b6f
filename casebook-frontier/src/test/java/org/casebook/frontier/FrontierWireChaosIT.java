package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Crawlers' wire under region chaos: the frontier served as {@code serve} serves it (URLFrontier
 * gRPC on a free port), four gRPC clients putting discovered URLs (PutURLs), claiming URLs (GetURLs
 * with a short delay_requestable; some held in flight) and acknowledging the rest as fetched
 * (PutURLs of known URLs), while HBase splits, merges, flushes and compacts every table of the
 * frontier. Every call ends OK, or UNAVAILABLE or DEADLINE_EXCEEDED (in doubt): any other status to
 * these good requests is a defect. Once the regions settled and every claim expired, the rest is
 * handed out over the wire and: no URL whose PutURLs AckMessage said it was stored is lost, none
 * was handed out twice within its claim nor after its acknowledgement as fetched said OK, every
 * queued URL is handed out again, and GetStats answers what the clients know where they can tell,
 * and the rows ListURLs answers everywhere. {@link FrontierChaosIT} is its twin on the Java API.
 *
 * <p>Runs in the module's {@code chaos} failsafe execution, on the packaged jar (protobuf 3
 * relocated): splits need HBase's protobuf 2.5 on the class path (see the module's pom).
 */
@ExtendWith(EmbeddedHBase.class)
@EnabledIfSystemProperty(
    named = "casebook.frontier.relocated",
    matches = "true",
    disabledReason = "runs in the chaos execution, on the relocated jar")
class FrontierWireChaosIT {
  private static final long SEED = 53;
  private static final Duration DURATION = Duration.ofSeconds(7);
  private static final Duration PAUSE = Duration.ofMillis(300);
  private static final int CLIENTS = 4;
  private static final int HOSTS = 6;
  private static final int CLAIM_SECONDS = 2;

  @Test
  void grpcClientsKeepEveryPromiseWhileRegionsSplitAndMerge(HBaseRuntime runtime) throws Exception {
    // The class path this runs on: the frontier's protobuf relocated, HBase's own beside it.
    Class.forName("org.casebook.frontier.internal.protobuf.GeneratedMessageV3");
    Class.forName("com.google.protobuf.LiteralByteString");
    // A namespace of its own: the chaos splits and merges only this test's tables.
    String namespace = TestIds.unique("frontier_wire").replace('-', '_');
    SchemaManager schemas = new SchemaManager(runtime.connection());
    List<TableSpec> tables = FrontierSchema.in(namespace).tables();
    // On a cluster another test's runner may be killing the master meanwhile.
    ChaosLoad.afterRecovery(() -> schemas.ensureAll(tables));
    FrontierLoad.FlowingClock clock = new FrontierLoad.FlowingClock();
    try (FrontierFixture served =
            new FrontierFixture(runtime, clock, Map.of("frontier.namespace", namespace));
        FrontierWireLoad load =
            new FrontierWireLoad(served.port, CLIENTS, clock, "wire", HOSTS, CLAIM_SECONDS)) {
      load.noHostDelay();
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              tables.stream().map(TableSpec::name).toList(),
              SEED,
              DURATION,
              PAUSE,
              CLIENTS,
              load::step);
      System.out.println("frontier over gRPC under chaos: " + load.summary());

      String context = "\n" + report + load.summary();
      assertThat(report.done(ChaosAction.SPLIT)).as(context).isPositive();
      assertThat(load.stored()).as(context).isPositive();
      assertThat(load.handOuts()).as(context).isPositive();
      assertThat(load.codes())
          .as("gRPC statuses other than OK and in doubt, to good requests" + context)
          .isSubsetOf(Status.Code.OK, Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED);
      assertThat(load.itemStatuses())
          .as("AckMessage statuses: a good acknowledgement is never SKIPPED" + context)
          .isSubsetOf(
              "discovered OK", "discovered SKIPPED", "discovered FAIL", "known OK", "known FAIL");
      load.drainAndCheck(context, served::unsettledCounterWrites);
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), namespace);
    }
  }
}
