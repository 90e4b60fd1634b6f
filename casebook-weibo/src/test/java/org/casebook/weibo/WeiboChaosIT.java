package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The feed keeps its promises while HBase splits, merges, flushes and compacts its regions. Follow,
 * unfollow and publish from several threads (the load of {@link WeiboConcurrencyIT}) while region
 * chaos acts on every table of the feed; once the regions settled, every invariant: both sides of
 * each relation agree, counters equal the edges, each timeline holds exactly the posts of the
 * accounts followed.
 */
@ExtendWith(EmbeddedHBase.class)
class WeiboChaosIT {
  private static final long SEED = 33;
  private static final Duration DURATION = Duration.ofSeconds(6);
  private static final Duration PAUSE = Duration.ofMillis(300);
  private static final int WORKERS = 4;
  private static final int USERS = 8;
  private static final int MAX_POSTS_PER_USER = 100;

  @Test
  void followsUnfollowsAndPublishesKeepEveryInvariantWhileRegionsSplitAndMerge(HBaseRuntime runtime)
      throws Exception {
    // A namespace of its own: the chaos splits and merges only this test's tables.
    String namespace = TestIds.unique("weibo_chaos").replace('-', '_');
    SchemaManager schemas = new SchemaManager(runtime.connection());
    List<TableSpec> tables = WeiboService.schemas(namespace);
    // On a cluster another test's runner may be killing the master meanwhile.
    ChaosLoad.afterRecovery(() -> schemas.ensureAll(tables));
    FeedLoad.SlowClock clock = new FeedLoad.SlowClock();
    try (Platform platform =
        Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build()) {
      // Fan-out on write for everyone; back-fill covers every post a user publishes here.
      WeiboService weibo =
          new WeiboService(platform.contextFor("weibo"), new WeiboConfig(10_000, 1_000), namespace);
      FeedLoad load =
          new FeedLoad(
              weibo, FeedLoad.users(TestIds.unique("x"), USERS), WORKERS, MAX_POSTS_PER_USER, 50);
      AtomicInteger next = new AtomicInteger();
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              tables.stream().map(TableSpec::name).toList(),
              SEED,
              DURATION,
              PAUSE,
              WORKERS,
              (worker, iteration) -> load.operation(next.getAndIncrement()));

      assertThat(report.done(ChaosAction.SPLIT)).as(report.toString()).isPositive();
      assertThat(report.steps()).as(report.toString()).isPositive();
      String context = "\n" + report;
      if (!load.uncertainPairs().isEmpty()) {
        // A follow or unfollow that threw may have stopped after its transition: the system's
        // repair finishes such changes once they are old enough not to be running still.
        clock.advance(2 * WeiboService.REPAIR_MIN_AGE_MILLIS);
        weibo.repair();
        assertThat(weibo.repair()).as("a second repair finds nothing" + context).isZero();
        context += "\nrepaired after failed changes of " + load.uncertainPairs().size() + " pairs";
      }
      String checked = context;
      ChaosLoad.afterRecovery(
          () -> {
            load.assertInvariants(checked);
            return null;
          });
      weibo.close();
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), namespace);
    }
  }
}
