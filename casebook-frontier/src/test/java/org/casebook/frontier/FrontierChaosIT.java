package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
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
 * The frontier keeps its promises while HBase splits, merges, flushes and compacts its regions.
 * Workers put discovered URLs, claim URLs (holding some in flight, acknowledging the rest as
 * fetched) while region chaos acts on every table of the frontier; once the regions settled and
 * every claim expired, the rest is handed out and: no URL put is lost, none was handed out twice
 * within its claim nor after it was acknowledged, every queued URL is handed out again, and the
 * counters equal the rows stored.
 *
 * <p>Runs in the module's {@code chaos} failsafe execution, on the packaged jar (protobuf 3
 * relocated): splits need HBase's protobuf 2.5 on the class path (see the module's pom).
 */
@ExtendWith(EmbeddedHBase.class)
@EnabledIfSystemProperty(
    named = "casebook.frontier.relocated",
    matches = "true",
    disabledReason = "runs in the chaos execution, on the relocated jar")
class FrontierChaosIT {
  private static final long SEED = 47;
  private static final Duration DURATION = Duration.ofSeconds(7);
  private static final Duration PAUSE = Duration.ofMillis(300);
  private static final int WORKERS = 4;
  private static final int HOSTS = 6;
  private static final int CLAIM_SECONDS = 2;

  @Test
  void putsClaimsAndAcknowledgementsKeepEveryPromiseWhileRegionsSplitAndMerge(HBaseRuntime runtime)
      throws Exception {
    // The class path this runs on: the frontier's protobuf relocated, HBase's own beside it.
    Class.forName("org.casebook.frontier.internal.protobuf.GeneratedMessageV3");
    Class.forName("com.google.protobuf.LiteralByteString");
    // A namespace of its own: the chaos splits and merges only this test's tables.
    String namespace = TestIds.unique("frontier_chaos").replace('-', '_');
    SchemaManager schemas = new SchemaManager(runtime.connection());
    List<TableSpec> tables = FrontierSchema.in(namespace).tables();
    // On a cluster another test's runner may be killing the master meanwhile.
    ChaosLoad.afterRecovery(() -> schemas.ensureAll(tables));
    FrontierLoad.FlowingClock clock = new FrontierLoad.FlowingClock();
    try (Platform platform =
        Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build()) {
      FrontierService frontier = new FrontierService(platform.contextFor("frontier"), namespace);
      String crawl = "chaos";
      // No delay between two hand-outs of a host: claims of one queue race as closely as they can.
      frontier.createChannel(crawl, ChannelKind.FIFO, 0);
      FrontierLoad load = new FrontierLoad(frontier, clock, crawl, HOSTS, CLAIM_SECONDS);
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              tables.stream().map(TableSpec::name).toList(),
              SEED,
              DURATION,
              PAUSE,
              WORKERS,
              load::step);

      String context = "\n" + report;
      assertThat(report.done(ChaosAction.SPLIT)).as(context).isPositive();
      assertThat(load.stored()).as(context).isPositive();
      assertThat(load.handOuts()).as(context).isPositive();
      load.drainAndCheck(context);
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), namespace);
    }
  }
}
