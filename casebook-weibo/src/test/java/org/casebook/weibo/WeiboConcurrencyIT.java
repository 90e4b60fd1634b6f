package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.casebook.core.Futures;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Follow, unfollow and publish from many threads on a few users, then every invariant: both sides
 * of each relation agree, counters equal the edges, each timeline holds exactly the posts of the
 * accounts followed; and a crash between a relation change and its effects is repaired.
 */
@ExtendWith(EmbeddedHBase.class)
class WeiboConcurrencyIT {
  private static final int USERS = 8;
  private static final int THREADS = 16;
  private static final int OPERATIONS = 1_200;
  private static final int MAX_POSTS_PER_USER = 150;

  private Platform platform;
  private WeiboService weibo;
  private FeedLoad.SlowClock clock;
  private List<String> users;
  private FeedLoad load;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(WeiboService.schemas("weibo"));
    clock = new FeedLoad.SlowClock();
    platform = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build();
    // Fan-out on write for everyone; back-fill covers every post a user publishes here.
    weibo = new WeiboService(platform.contextFor("weibo"), new WeiboConfig(10_000, 1_000));
    users = FeedLoad.users(TestIds.unique("c"), USERS);
    load = new FeedLoad(weibo, users, THREADS, MAX_POSTS_PER_USER, 7);
  }

  @AfterEach
  void tearDown() {
    weibo.close();
    platform.close();
  }

  @Test
  void randomFollowsUnfollowsAndPublishesKeepEveryInvariant() {
    runConcurrently(OPERATIONS);
    load.assertInvariants();
  }

  @Test
  void aCrashBetweenARelationChangeAndItsEffectsIsRepaired() {
    runConcurrently(OPERATIONS / 5);
    String a = users.get(0);
    String b = users.get(1);
    String c = users.get(2);
    // a does not follow b; b then publishes a post that is in no inbox of a.
    load.unfollow(a, b);
    load.follow(a, c);
    load.publish(b);
    // The process dies right after each relation change: no follower row, counters or back-fill.
    assertThat(weibo.changeRelationOnly(a, b, true)).isPositive();
    load.record(a, b, 1);
    assertThat(weibo.changeRelationOnly(a, c, false)).isPositive();
    load.record(a, c, -1);
    assertThat(load.all(p -> weibo.followers(b, p))).doesNotContain(a);
    assertThat(load.all(p -> weibo.followers(c, p))).contains(a);
    // Too young to be told from a change still running: left alone.
    assertThat(weibo.repair()).isZero();
    clock.advance(2 * WeiboService.REPAIR_MIN_AGE_MILLIS);
    assertThat(weibo.repair()).isEqualTo(2);
    assertThat(weibo.repair()).isZero();
    load.assertInvariants();
    // Timelines read with the clock moved on also clean up entries of accounts unfollowed; the
    // invariants hold while and after they do.
    load.assertInvariants();
  }

  /**
   * Repairs run in a loop while many threads follow, unfollow and publish on the users whose
   * changes they repair: a recount never overwrites a concurrent change's counter update, and a
   * user with a change in flight is left for a later run.
   */
  @Test
  void aRepairRacingConcurrentChangesKeepsCountersEqualToEdges() {
    for (int i = 0; i < USERS; i++) {
      String a = users.get(i);
      String b = users.get((i + 1) % USERS);
      assertThat(weibo.changeRelationOnly(a, b, true)).isPositive();
      load.record(a, b, 1);
    }
    clock.advance(2 * WeiboService.REPAIR_MIN_AGE_MILLIS);
    ExecutorService repairer = Executors.newSingleThreadExecutor();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger runs = new AtomicInteger();
    Future<?> repairs =
        repairer.submit(
            () -> {
              while (!stop.get()) {
                weibo.repair();
                runs.incrementAndGet();
              }
            });
    try {
      runConcurrently(OPERATIONS / 2);
    } finally {
      stop.set(true);
      repairer.shutdown();
    }
    Futures.await(repairs);
    assertThat(runs.get()).isPositive();
    // Users whose changes were in flight were skipped: a run once everything is old finishes them.
    clock.advance(2 * WeiboService.REPAIR_MIN_AGE_MILLIS);
    weibo.repair();
    assertThat(weibo.repair()).isZero();
    load.assertInvariants();
  }

  private void runConcurrently(int operations) {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      workers.add(
          pool.submit(
              () -> {
                for (int i = next.getAndIncrement(); i < operations; i = next.getAndIncrement()) {
                  load.operation(i);
                }
              }));
    }
    pool.shutdown();
    for (Future<?> w : workers) {
      Futures.await(w);
    }
    try {
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
