package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
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

@ExtendWith(EmbeddedHBase.class)
class WeiboServiceIT {
  private Platform platform;
  private WeiboService weibo;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(WeiboService.schemas("weibo"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    weibo = new WeiboService(platform.contextFor("weibo"), new WeiboConfig(5, 50));
    run = TestIds.unique("r");
  }

  @AfterEach
  void tearDown() {
    weibo.close();
    platform.close();
  }

  private static PageRequest first(int limit) {
    return PageRequest.first(limit);
  }

  private static PageRequest after(int limit, String cursor) {
    return new PageRequest(limit, Optional.ofNullable(cursor));
  }

  private String u(String name) {
    return run + ":" + name;
  }

  @Test
  void publishFansOutToFollowersNewestFirst() {
    String alice = u("alice");
    String bob = u("bob");
    String carol = u("carol");
    weibo.follow(bob, alice);
    weibo.follow(carol, alice);
    Post first = weibo.publish(alice, "first");
    Post second = weibo.publish(alice, "second 第二条 😀");
    assertThat(Long.parseLong(second.id())).isGreaterThan(Long.parseLong(first.id()));
    for (String reader : List.of(bob, carol)) {
      Page<Post> t = weibo.timeline(reader, first(20));
      assertThat(t.items()).extracting(Post::content).containsExactly("second 第二条 😀", "first");
      assertThat(t.items()).extracting(Post::uid).containsOnly(alice);
      assertThat(t.next()).isEmpty();
    }
    assertThat(weibo.timeline(alice, first(20)).items())
        .as("own posts are not in one's feed")
        .isEmpty();
    assertThat(weibo.posts(alice, first(20)).items())
        .extracting(Post::id)
        .containsExactly(second.id(), first.id());
    assertThat(weibo.stats(alice)).isEqualTo(new UserStats(alice, 2, 0, 2, false));
  }

  @Test
  void followBackfillsAndUnfollowRemovesTheFolloweesPosts() {
    String alice = u("alice");
    String bob = u("bob");
    String dave = u("dave");
    weibo.publish(alice, "a1");
    weibo.publish(alice, "a2");
    weibo.publish(dave, "d1");
    assertThat(weibo.follow(bob, alice)).isTrue();
    assertThat(weibo.follow(bob, dave)).isTrue();
    assertThat(weibo.timeline(bob, first(20)).items())
        .extracting(Post::content)
        .containsExactly("d1", "a2", "a1");
    assertThat(weibo.unfollow(bob, alice)).isTrue();
    assertThat(weibo.timeline(bob, first(20)).items())
        .extracting(Post::content)
        .containsExactly("d1");
    assertThat(weibo.following(bob, first(100)).items()).containsExactly(dave);
    assertThat(weibo.followers(alice, first(100)).items()).isEmpty();
    assertThat(weibo.stats(alice).followers()).isZero();
  }

  @Test
  void followingTwiceAndUnfollowingAStrangerAreHarmless() {
    String a = u("a");
    String b = u("b");
    assertThat(weibo.follow(a, b)).isTrue();
    assertThat(weibo.follow(a, b)).isFalse();
    assertThat(weibo.stats(b).followers()).isEqualTo(1);
    assertThat(weibo.stats(a).following()).isEqualTo(1);
    assertThat(weibo.unfollow(a, u("stranger"))).isFalse();
    assertThat(weibo.unfollow(a, b)).isTrue();
    assertThat(weibo.unfollow(a, b)).isFalse();
    assertThat(weibo.stats(b).followers()).isZero();
    assertThatThrownBy(() -> weibo.follow(a, a))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("target");
  }

  /** The seed's flaw: user "1" must not see or lose posts of "10001", "1_", "1,2" or "1/2". */
  @Test
  void idsThatArePrefixesOrContainSeparatorsStayApart() {
    String one = u("1");
    List<String> lookalikes =
        List.of(u("10001"), u("1_"), u("1_0"), u("1,2"), u("1/2"), u("1") + "\u0000x".substring(1));
    String reader = u("reader");
    weibo.follow(reader, one);
    weibo.publish(one, "from one");
    for (String other : lookalikes) {
      weibo.publish(other, "from " + other);
    }
    assertThat(weibo.posts(one, first(50)).items())
        .extracting(Post::content)
        .containsExactly("from one");
    assertThat(weibo.timeline(reader, first(50)).items())
        .extracting(Post::content)
        .containsExactly("from one");
    // Following a look-alike back-fills only its posts; unfollowing "1" leaves them alone.
    weibo.follow(reader, u("1_"));
    weibo.follow(reader, u("1/2"));
    weibo.unfollow(reader, one);
    assertThat(weibo.timeline(reader, first(50)).items())
        .extracting(Post::uid)
        .containsExactlyInAnyOrder(u("1_"), u("1/2"));
    assertThat(weibo.following(reader, first(50)).items())
        .containsExactlyInAnyOrder(u("1/2"), u("1_"));
  }

  @Test
  void timelinePagesWithACursorWithoutGapsOrRepeats() {
    String reader = u("reader");
    List<String> authors = List.of(u("x"), u("y"), u("z"));
    for (String a : authors) {
      weibo.follow(reader, a);
    }
    List<String> published = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      published.add(0, weibo.publish(authors.get(i % 3), "post " + i).content());
    }
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Page<Post> p = weibo.timeline(reader, after(7, cursor));
      p.items().forEach(post -> seen.add(post.content()));
      cursor = p.next().orElse(null);
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(4);
    assertThat(seen).containsExactlyElementsOf(published);
  }

  /**
   * Over the threshold (5 here) an account stops fanning out; its followers still see everything,
   * in order.
   */
  @Test
  void largeAccountsAreMergedAtReadTime() {
    String star = u("star");
    String small = u("small");
    List<String> fans = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      fans.add(u("fan" + i));
    }
    weibo.publish(star, "before promotion");
    for (String f : fans) {
      weibo.follow(f, star);
      weibo.follow(f, small);
    }
    weibo.awaitBackgroundWork();
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    assertThat(weibo.stats(small).fanOutOnRead()).isTrue();
    String late = u("late");
    weibo.follow(late, star);
    weibo.publish(star, "after promotion");
    weibo.publish(u("other"), "not followed");
    for (String reader : List.of(fans.get(0), fans.get(6), late)) {
      List<String> t =
          weibo.timeline(reader, first(20)).items().stream().map(Post::content).toList();
      assertThat(t).as(reader).containsExactly("after promotion", "before promotion");
    }
    // Unfollowing a read-merged account removes its posts from the timeline too.
    weibo.unfollow(late, star);
    assertThat(weibo.timeline(late, first(20)).items()).isEmpty();
  }

  /**
   * Paging with a cursor across inbox entries and read-merged outboxes: no gaps, no repeats, in
   * order.
   */
  @Test
  void pagingMixesReadMergedAndFannedOutPostsInOrder() {
    String star = u("star");
    String reader = u("reader");
    List<String> others = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      others.add(u("fan" + i));
      weibo.follow(others.get(i), star);
    }
    weibo.follow(reader, star);
    weibo.follow(reader, u("a"));
    weibo.follow(reader, u("b"));
    weibo.awaitBackgroundWork();
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    List<String> expected = new ArrayList<>();
    String[] authors = {star, u("a"), star, u("b"), u("a"), star, star, u("b")};
    for (int i = 0; i < 16; i++) {
      expected.add(0, weibo.publish(authors[i % authors.length], "m" + i).content());
    }
    for (int limit : new int[] {1, 3, 5, 16, 50}) {
      List<String> seen = new ArrayList<>();
      String cursor = null;
      do {
        Page<Post> p = weibo.timeline(reader, after(limit, cursor));
        assertThat(p.items().size()).isLessThanOrEqualTo(limit);
        p.items().forEach(post -> seen.add(post.content()));
        cursor = p.next().orElse(null);
      } while (cursor != null);
      assertThat(seen).as("limit %d", limit).containsExactlyElementsOf(expected);
    }
  }

  /** Six fans follow {@code star} (fan0..fan5), and promotions queued by that have finished. */
  private void followedBySixFans(String star) {
    for (int i = 0; i < 6; i++) {
      weibo.follow(u("fan" + i), star);
    }
    weibo.awaitBackgroundWork();
  }

  /**
   * Two servers, one clock, one id offset: the second publish collides with the first one's id. The
   * conditional insert refuses it, the post gets the next id (and only then goes to the outbox),
   * and both posts keep their own content everywhere.
   */
  @Test
  void postIdCollisionsBetweenServersLoseNothing(HBaseRuntime runtime) {
    Clock frozen = Clock.fixed(Instant.parse("2026-11-22T06:00:00Z"), ZoneOffset.UTC);
    WeiboConfig config = new WeiboConfig(5, 50);
    String star = u("star");
    String fan = u("fan0");
    followedBySixFans(star);
    try (Platform servers =
            Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(frozen).build();
        WeiboService a =
            new WeiboService(servers.contextFor("weibo-a"), config, "weibo", new PostIds(() -> 0));
        WeiboService b =
            new WeiboService(
                servers.contextFor("weibo-b"), config, "weibo", new PostIds(() -> 0))) {
      Post first = a.publish(star, "from server a");
      Post second = b.publish(star, "from server b");
      assertThat(Long.parseLong(second.id())).isEqualTo(Long.parseLong(first.id()) + 1);
      String small = u("small");
      Post third = a.publish(small, "small a");
      Post fourth = b.publish(small, "small b");
      assertThat(fourth.id()).isNotEqualTo(third.id());
    }
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    assertThat(weibo.timeline(fan, first(10)).items())
        .extracting(Post::content)
        .containsExactly("from server b", "from server a");
    assertThat(weibo.posts(star, first(10)).items())
        .extracting(Post::content)
        .containsExactly("from server b", "from server a");
    assertThat(weibo.posts(u("small"), first(10)).items())
        .extracting(Post::content)
        .containsExactlyInAnyOrder("small a", "small b");
    assertThat(weibo.stats(star).posts()).isEqualTo(2);
  }

  /**
   * A publish that fails (every post id it tries is taken) leaves no trace: the outbox of the
   * read-merged author holds the stored posts only, with their own content, and the post counter is
   * unchanged.
   */
  @Test
  void aFailedPublishLeavesNoOutboxEntryAndNoCount(HBaseRuntime runtime) {
    Clock frozen = Clock.fixed(Instant.parse("2026-11-23T06:00:00Z"), ZoneOffset.UTC);
    WeiboConfig config = new WeiboConfig(5, 50);
    String star = u("star");
    String fan = u("fan0");
    followedBySixFans(star);
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    List<String> stored = new ArrayList<>();
    try (Platform servers =
            Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(frozen).build();
        WeiboService a =
            new WeiboService(servers.contextFor("weibo-a"), config, "weibo", new PostIds(() -> 0));
        WeiboService b =
            new WeiboService(
                servers.contextFor("weibo-b"), config, "weibo", new PostIds(() -> 0))) {
      for (int i = 0; i < 5; i++) {
        stored.add(0, a.publish(star, "stored " + i).content());
      }
      // b's five attempts take the same five ids: all refused.
      assertThatThrownBy(() -> b.publish(star, "never stored"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("no free post id");
    }
    WeiboStore store = WeiboStore.open(runtime.connection(), WeiboSchema.in("weibo"));
    assertThat(store.inbox().outboxes(List.of(star), null, 20).get(0))
        .extracting(Post::content)
        .containsExactlyElementsOf(stored);
    assertThat(weibo.timeline(fan, first(20)).items())
        .extracting(Post::content)
        .containsExactlyElementsOf(stored);
    assertThat(weibo.stats(star).posts()).isEqualTo(5);
  }

  /**
   * A publisher reads its author's state (WRITE), then a promotion runs to the end — copying the
   * recent posts to the outbox — before the post is inserted: the publisher reads the state again
   * and puts the post in the outbox itself, so accounts that follow after the switch see it.
   */
  @Test
  void aPostInsertedAfterAPromotionCopiedTheOutboxReachesLaterFollowers(HBaseRuntime runtime) {
    String star = u("star");
    weibo.publish(star, "before");
    WeiboStore store = WeiboStore.open(runtime.connection(), WeiboSchema.in("weibo"));
    AtomicReference<Runnable> atNextTick = new AtomicReference<>();
    // publish reads the author's state, then the clock, then inserts: the hook runs in between.
    Clock hooked =
        new Clock() {
          @Override
          public long millis() {
            Runnable hook = atNextTick.getAndSet(null);
            if (hook != null) {
              hook.run();
            }
            return System.currentTimeMillis();
          }

          @Override
          public Instant instant() {
            return Instant.ofEpochMilli(millis());
          }

          @Override
          public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException("fixed to UTC");
          }
        };
    try (Platform server =
            Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(hooked).build();
        WeiboService publisher =
            new WeiboService(server.contextFor("weibo"), new WeiboConfig(5, 50))) {
      FanOutPromotion elsewhere =
          new FanOutPromotion(
              store,
              Clock.systemUTC(),
              server.contextFor("weibo-other").background("promotion"),
              server.contextFor("weibo-other").writes());
      atNextTick.set(() -> elsewhere.promote(star));
      publisher.publish(star, "racing");
      assertThat(atNextTick.get()).as("the promotion ran inside the publish").isNull();
    }
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    String late = u("late");
    assertThat(weibo.follow(late, star)).isTrue();
    assertThat(weibo.timeline(late, first(10)).items())
        .extracting(Post::content)
        .containsExactly("racing", "before");
  }

  /**
   * Unfollowed accounts leave the timeline at once; their entries are deleted later, exactly by
   * timestamp, once old enough; a re-follow brings the posts back.
   */
  @Test
  void entriesOfUnfollowedAccountsAreFilteredThenCleanedUp(HBaseRuntime runtime)
      throws InterruptedException {
    String alice = u("alice");
    String bob = u("bob");
    weibo.follow(bob, alice);
    weibo.publish(alice, "a1");
    weibo.publish(alice, "a2");
    assertThat(weibo.unfollow(bob, alice)).isTrue();
    WeiboStore store = WeiboStore.open(runtime.connection(), WeiboSchema.in("weibo"));
    assertThat(weibo.timeline(bob, first(20)).items()).isEmpty();
    assertThat(store.inbox().slice(bob, null, 20, false).entries())
        .as("too young to clean up: kept, filtered when read")
        .hasSize(2);
    // A server whose clock is two minutes on: the entries are old enough to delete.
    Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(2));
    try (Platform server = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(later).build();
        WeiboService other = new WeiboService(server.contextFor("weibo"), new WeiboConfig(5, 50))) {
      assertThat(other.timeline(bob, first(20)).items()).isEmpty();
      for (int i = 0;
          i < 100 && !store.inbox().slice(bob, null, 20, false).entries().isEmpty();
          i++) {
        Thread.sleep(50);
      }
      assertThat(store.inbox().slice(bob, null, 20, false).entries()).isEmpty();
    }
    assertThat(weibo.follow(bob, alice)).isTrue();
    assertThat(weibo.timeline(bob, first(20)).items())
        .extracting(Post::content)
        .containsExactly("a2", "a1");
  }

  /**
   * A deleted post leaves the author's posts, the post count, every follower's inbox and a
   * read-merged author's outbox; the other posts stay. A delete cut short after any step and run
   * again ends in the same state, counting the post once; a deleted post is a 404.
   */
  @Test
  void aDeletedPostLeavesEveryTimelineAndIsCountedOnceWhereverItStopped(HBaseRuntime runtime) {
    String alice = u("alice");
    String star = u("star");
    // Four followers fan alice out on write; six make star read-merged (its outbox).
    List<String> fans = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      fans.add(u("fan" + i));
      weibo.follow(fans.get(i), alice);
    }
    followedBySixFans(star);
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    assertThat(weibo.stats(alice).fanOutOnRead()).isFalse();
    Post keep = weibo.publish(alice, "keep");
    Post gone = weibo.publish(alice, "gone");
    Post hiddenOnly = weibo.publish(alice, "crash after hiding");
    Post uncounted = weibo.publish(alice, "crash after counting");
    Post starGone = weibo.publish(star, "star gone");
    Post starKeep = weibo.publish(star, "star keep");

    weibo.deletePost(alice, gone.id());
    weibo.hidePostOnly(alice, Long.parseLong(hiddenOnly.id()));
    weibo.hideAndUncountOnly(alice, Long.parseLong(uncounted.id()));
    // Both cut-short deletes already hide their posts; rerun, they finish.
    assertThat(weibo.posts(alice, first(20)).items())
        .extracting(Post::content)
        .containsExactly("keep");
    weibo.deletePost(alice, hiddenOnly.id());
    weibo.deletePost(alice, uncounted.id());
    weibo.deletePost(star, starGone.id());

    assertThat(weibo.stats(alice).posts()).isEqualTo(1);
    assertThat(weibo.stats(star).posts()).isEqualTo(1);
    WeiboStore store = WeiboStore.open(runtime.connection(), WeiboSchema.in("weibo"));
    for (String fan : fans) {
      assertThat(weibo.timeline(fan, first(20)).items())
          .extracting(Post::content)
          .containsExactly("star keep", "keep");
      assertThat(store.inbox().slice(fan, null, 20, false).entries())
          .as("inbox cells of " + fan)
          .extracting(c -> c.entry().postId())
          .containsExactly(Long.parseLong(keep.id()));
    }
    assertThat(store.inbox().outboxes(List.of(star), null, 20).get(0))
        .extracting(Post::id)
        .containsExactly(starKeep.id());
    assertThatThrownBy(() -> weibo.deletePost(alice, gone.id()))
        .isInstanceOf(org.casebook.core.NotFoundException.class);
    assertThat(weibo.stats(alice).posts()).isEqualTo(1);
    assertField(() -> weibo.deletePost(alice, "x1"), "postId");
  }

  /** Many threads deleting the same posts at once: each post is counted off once. */
  @Test
  void deletesRacingOnTheSamePostsCountEachOnce() throws Exception {
    String author = u("racer");
    weibo.follow(u("reader"), author);
    List<Post> posts = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      posts.add(weibo.publish(author, "p" + i));
    }
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      List<java.util.concurrent.Future<?>> all = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        all.add(
            pool.submit(
                () -> {
                  for (Post p : posts.subList(0, 8)) {
                    try {
                      weibo.deletePost(author, p.id());
                    } catch (org.casebook.core.NotFoundException alreadyGone) {
                      // Another thread finished it first.
                    }
                  }
                }));
      }
      for (java.util.concurrent.Future<?> f : all) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(weibo.stats(author).posts()).isEqualTo(2);
    assertThat(weibo.timeline(u("reader"), first(20)).items())
        .extracting(Post::content)
        .containsExactly("p9", "p8");
  }

  /** Relation rows written by earlier versions (no state, no version) count as following. */
  @Test
  void relationRowsOfEarlierVersionsCountAsFollowing(HBaseRuntime runtime) throws IOException {
    String alice = u("alice");
    String bob = u("bob");
    WeiboSchema schema = WeiboSchema.in("weibo");
    try (Table t = runtime.connection().getTable(schema.relations())) {
      for (byte[] row :
          List.of(
              WeiboKeys.relation(bob, RelationKind.FOLLOWING, alice),
              WeiboKeys.relation(alice, RelationKind.FOLLOWER, bob))) {
        t.put(new Put(row).addColumn(WeiboSchema.R, WeiboSchema.SINCE, Bytes.toBytes(1L)));
      }
    }
    WeiboStore.open(runtime.connection(), schema).users().addToCounters(alice, 1, 0, 0);
    WeiboStore.open(runtime.connection(), schema).users().addToCounters(bob, 0, 1, 0);
    assertThat(weibo.following(bob, first(10)).items()).containsExactly(alice);
    assertThat(weibo.followers(alice, first(10)).items()).containsExactly(bob);
    assertThat(weibo.follow(bob, alice)).isFalse();
    weibo.publish(alice, "to the old follower");
    assertThat(weibo.timeline(bob, first(10)).items())
        .extracting(Post::content)
        .containsExactly("to the old follower");
    assertThat(weibo.unfollow(bob, alice)).isTrue();
    assertThat(weibo.followers(alice, first(10)).items()).isEmpty();
    assertThat(weibo.timeline(bob, first(10)).items()).isEmpty();
    assertThat(weibo.stats(alice).followers()).isZero();
    assertThat(weibo.stats(bob).following()).isZero();
  }

  @Test
  void badInputIsRejectedWithTheFieldNamed() {
    assertField(() -> weibo.publish("", "x"), "uid");
    assertField(() -> weibo.publish("a".repeat(65), "x"), "uid");
    assertField(() -> weibo.publish("bad\u0001id", "x"), "uid");
    assertField(() -> weibo.publish("ok", "   "), "content");
    assertField(() -> weibo.publish("ok", "x".repeat(2001)), "content");
    assertField(() -> weibo.publish("ok", "bad \uD800 surrogate"), "content");
    assertField(() -> weibo.timeline("ok", first(0)), "limit");
    assertField(() -> weibo.timeline("ok", first(PageRequest.MAX_LIMIT + 1)), "limit");
    assertThat(weibo.timeline(u("ok"), first(PageRequest.MAX_LIMIT)).items()).isEmpty();
    assertField(() -> weibo.timeline("ok", after(20, "not-a-cursor!")), "cursor");
    // A cursor of another listing, or an edited one, never starts a scan elsewhere.
    String postsCursor = WeiboCursors.posts(42);
    assertField(() -> weibo.timeline("ok", after(20, postsCursor)), "cursor");
    assertField(() -> weibo.posts("ok", after(20, tamper(postsCursor))), "cursor");
    assertField(
        () ->
            weibo.followers("ok", after(20, WeiboCursors.users(WeiboCursors.FOLLOWING_SCOPE, "x"))),
        "cursor");
    assertThat(weibo.publish(u("ok"), "line one\nline two\t😀".repeat(1)).content()).contains("\n");
    assertThat(weibo.publish("用户" + "名".repeat(62), "64 characters of CJK are fine").uid())
        .hasSize(64);
  }

  /** The cursor with one character in the middle changed. */
  static String tamper(String cursor) {
    int i = cursor.length() / 2;
    return cursor.substring(0, i) + (cursor.charAt(i) == 'A' ? 'B' : 'A') + cursor.substring(i + 1);
  }

  private static void assertField(Runnable call, String field) {
    assertThatThrownBy(call::run)
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo(field);
  }
}
