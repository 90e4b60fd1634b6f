package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.api.SoftAssertions;
import org.casebook.core.Futures;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
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
  private static final int OPERATIONS = 2_000;
  private static final int MAX_POSTS_PER_USER = 150;

  private Platform platform;
  private WeiboService weibo;
  private SlowClock clock;
  private List<String> users;

  /** Posts published by this test, by id. */
  private final Map<String, Post> published = new ConcurrentHashMap<>();

  /** Per ordered pair "a\nb": successful follows minus successful unfollows. */
  private final Map<String, AtomicInteger> netChanges = new ConcurrentHashMap<>();

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(WeiboService.schemas("weibo"));
    clock = new SlowClock();
    platform = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build();
    // Fan-out on write for everyone; back-fill covers every post a user publishes here.
    weibo = new WeiboService(platform.contextFor("weibo"), new WeiboConfig(10_000, 1_000));
    String run = TestIds.unique("c");
    users = new ArrayList<>();
    for (int i = 0; i < USERS; i++) {
      users.add(run + ":u" + i);
    }
  }

  @AfterEach
  void tearDown() {
    weibo.close();
    platform.close();
  }

  @Test
  void randomFollowsUnfollowsAndPublishesKeepEveryInvariant() {
    runConcurrently(OPERATIONS);
    assertInvariants();
  }

  @Test
  void aCrashBetweenARelationChangeAndItsEffectsIsRepaired() {
    runConcurrently(OPERATIONS / 5);
    String a = users.get(0);
    String b = users.get(1);
    String c = users.get(2);
    // a does not follow b; b then publishes a post that is in no inbox of a.
    record(a, b, weibo.unfollow(a, b) ? -1 : 0);
    record(a, c, weibo.follow(a, c) ? 1 : 0);
    publish(b);
    // The process dies right after each relation change: no follower row, counters or back-fill.
    assertThat(weibo.changeRelationOnly(a, b, true)).isPositive();
    record(a, b, 1);
    assertThat(weibo.changeRelationOnly(a, c, false)).isPositive();
    record(a, c, -1);
    assertThat(all(p -> weibo.followers(b, p))).doesNotContain(a);
    assertThat(all(p -> weibo.followers(c, p))).contains(a);
    // Too young to be told from a change still running: left alone.
    assertThat(weibo.repair()).isZero();
    clock.advance(2 * WeiboService.REPAIR_MIN_AGE_MILLIS);
    assertThat(weibo.repair()).isEqualTo(2);
    assertThat(weibo.repair()).isZero();
    assertInvariants();
    // Timelines read with the clock moved on also clean up entries of accounts unfollowed; the
    // invariants hold while and after they do.
    assertInvariants();
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
      record(a, b, 1);
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
    assertInvariants();
  }

  private void runConcurrently(int operations) {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      workers.add(
          pool.submit(
              () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = next.getAndIncrement(); i < operations; i = next.getAndIncrement()) {
                  // Operations taken about together work on one pair in every other window, so
                  // that changes of one pair really race; the other windows pick pairs at random.
                  int window = i / THREADS;
                  int a = random.nextInt(USERS);
                  int b = random.nextInt(USERS);
                  if (window % 2 == 0) {
                    a = window / 2 % USERS;
                    b = (a + 1 + window / 2 / USERS % (USERS - 1)) % USERS;
                  }
                  int op = random.nextInt(10);
                  if (op < 3) {
                    publish(users.get(random.nextBoolean() ? a : b));
                  } else if (a != b) {
                    change(users.get(a), users.get(b), op);
                  }
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

  private void change(String a, String b, int op) {
    if (op < 6) {
      record(a, b, weibo.follow(a, b) ? 1 : 0);
    } else if (op < 8) {
      record(a, b, weibo.unfollow(a, b) ? -1 : 0);
    } else {
      // A burst on one pair: several changes within one clock millisecond.
      for (int i = 0; i < 3; i++) {
        record(a, b, weibo.follow(a, b) ? 1 : 0);
        record(a, b, weibo.unfollow(a, b) ? -1 : 0);
      }
      record(a, b, weibo.follow(a, b) ? 1 : 0);
    }
  }

  private void publish(String author) {
    long mine = published.values().stream().filter(p -> p.uid().equals(author)).count();
    if (mine < MAX_POSTS_PER_USER) {
      Post p = weibo.publish(author, "post by " + author);
      published.put(p.id() + "/" + author, p);
    }
  }

  private void record(String a, String b, int change) {
    netChanges.computeIfAbsent(a + "\n" + b, k -> new AtomicInteger()).addAndGet(change);
  }

  /** Checks every invariant and reports every violation, not only the first. */
  private void assertInvariants() {
    SoftAssertions softly = new SoftAssertions();
    for (String a : users) {
      Set<String> following = new HashSet<>(all(p -> weibo.following(a, p)));
      Set<String> followers = new HashSet<>(all(p -> weibo.followers(a, p)));
      UserStats stats = weibo.stats(a);
      softly
          .assertThat(stats.following())
          .as("following counter of %s", a)
          .isEqualTo(following.size());
      softly
          .assertThat(stats.followers())
          .as("followers counter of %s", a)
          .isEqualTo(followers.size());
      for (String b : users) {
        if (a.equals(b)) {
          continue;
        }
        boolean follows = following.contains(b);
        boolean listedAsFollower = all(p -> weibo.followers(b, p)).contains(a);
        softly
            .assertThat(listedAsFollower)
            .as("%s follows %s on both sides", a, b)
            .isEqualTo(follows);
        int net = netChanges.getOrDefault(a + "\n" + b, new AtomicInteger()).get();
        softly
            .assertThat(net)
            .as("successful follows minus unfollows of %s -> %s", a, b)
            .isEqualTo(follows ? 1 : 0);
      }
      List<Post> timeline = all(p -> weibo.timeline(a, p));
      List<String> expected =
          published.values().stream()
              .filter(p -> following.contains(p.uid()))
              .map(p -> p.id() + "/" + p.uid())
              .toList();
      List<String> seen = timeline.stream().map(p -> p.id() + "/" + p.uid()).toList();
      softly.assertThat(seen).as("timeline of %s", a).containsExactlyInAnyOrderElementsOf(expected);
      softly.assertThat(seen).as("timeline of %s, no repeats", a).doesNotHaveDuplicates();
      softly
          .assertThat(timeline)
          .as("timeline of %s, newest first", a)
          .extracting(p -> Long.parseLong(p.id()))
          .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    }
    softly.assertAll();
  }

  /** Every page of a listing, with a small page size so that paging is exercised. */
  private static <T> List<T> all(java.util.function.Function<PageRequest, Page<T>> listing) {
    List<T> out = new ArrayList<>();
    String cursor = null;
    do {
      Page<T> page = listing.apply(new PageRequest(7, Optional.ofNullable(cursor)));
      out.addAll(page.items());
      cursor = page.next().orElse(null);
    } while (cursor != null);
    return out;
  }

  /**
   * The system clock slowed fifty-fold (so many relation changes share a millisecond), plus an
   * offset the test can advance.
   */
  private static final class SlowClock extends Clock {
    private final long startNanos = System.nanoTime();
    private final long startMillis = System.currentTimeMillis();
    private final AtomicLong offset = new AtomicLong();

    void advance(long millis) {
      offset.addAndGet(millis);
    }

    @Override
    public long millis() {
      return startMillis + (System.nanoTime() - startNanos) / 50_000_000L + offset.get();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("fixed to UTC");
    }
  }
}
