package org.casebook.weibo;

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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.assertj.core.api.SoftAssertions;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;

/**
 * The feed's concurrent load on a few users and every invariant it must keep, shared by the
 * concurrency and the chaos tests: follow, unfollow and publish, each recording only what was
 * acknowledged (returned); then both sides of each relation agree, counters equal the edges, each
 * timeline holds exactly the posts of the accounts followed.
 *
 * <p>An operation that throws (under chaos, a request past its deadline) may or may not have taken
 * effect: its pair or its author is remembered, and the checks allow exactly that doubt and no
 * more.
 */
final class FeedLoad {
  private final WeiboService weibo;
  private final List<String> users;
  private final int windowSize;
  private final int maxPostsPerUser;
  private final int pageSize;

  /** Posts published (acknowledged), by "id/author". */
  private final Map<String, Post> published = new ConcurrentHashMap<>();

  /** Acknowledged posts per author (the cap on publishing). */
  private final Map<String, AtomicInteger> postsBy = new ConcurrentHashMap<>();

  /** Per ordered pair "a\nb": successful follows minus successful unfollows. */
  private final Map<String, AtomicInteger> netChanges = new ConcurrentHashMap<>();

  /** Pairs with a follow or unfollow that threw: whether it took effect is unknown. */
  private final Set<String> uncertainPairs = ConcurrentHashMap.newKeySet();

  /** Per author, publishes that threw: each may have stored a post. */
  private final Map<String, AtomicInteger> failedPublishes = new ConcurrentHashMap<>();

  /**
   * @param windowSize operations taken about together (the number of threads): every other window
   *     of them works on one pair
   * @param pageSize page size of the listings the checks read (small: paging is exercised)
   */
  FeedLoad(
      WeiboService weibo, List<String> users, int windowSize, int maxPostsPerUser, int pageSize) {
    this.weibo = weibo;
    this.users = List.copyOf(users);
    this.windowSize = windowSize;
    this.maxPostsPerUser = maxPostsPerUser;
    this.pageSize = pageSize;
  }

  /** {@code count} users named after {@code run}. */
  static List<String> users(String run, int count) {
    List<String> users = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      users.add(run + ":u" + i);
    }
    return users;
  }

  List<String> users() {
    return users;
  }

  /** Pairs whose follows or unfollows threw (for the test's report and its repair). */
  Set<String> uncertainPairs() {
    return Set.copyOf(uncertainPairs);
  }

  /** Publishes that threw, over every author. */
  int failedPublishes() {
    return failedPublishes.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** Operation {@code i} of the load: a publish, a follow, an unfollow or a burst on one pair. */
  void operation(int i) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int n = users.size();
    // Operations taken about together work on one pair in every other window, so that changes of
    // one pair really race; the other windows pick pairs at random.
    int window = i / windowSize;
    int a = random.nextInt(n);
    int b = random.nextInt(n);
    if (window % 2 == 0) {
      a = window / 2 % n;
      b = (a + 1 + window / 2 / n % (n - 1)) % n;
    }
    int op = random.nextInt(10);
    if (op < 3) {
      publish(users.get(random.nextBoolean() ? a : b));
    } else if (a != b) {
      change(users.get(a), users.get(b), op);
    }
  }

  private void change(String a, String b, int op) {
    if (op < 6) {
      follow(a, b);
    } else if (op < 8) {
      unfollow(a, b);
    } else {
      // A burst on one pair: several changes within one clock millisecond.
      for (int i = 0; i < 3; i++) {
        follow(a, b);
        unfollow(a, b);
      }
      follow(a, b);
    }
  }

  void follow(String a, String b) {
    boolean changed;
    try {
      changed = weibo.follow(a, b);
    } catch (RuntimeException e) {
      uncertainPairs.add(pair(a, b));
      throw e;
    }
    record(a, b, changed ? 1 : 0);
  }

  void unfollow(String a, String b) {
    boolean changed;
    try {
      changed = weibo.unfollow(a, b);
    } catch (RuntimeException e) {
      uncertainPairs.add(pair(a, b));
      throw e;
    }
    record(a, b, changed ? -1 : 0);
  }

  /** Publishes a post of {@code author} unless it has its cap of posts already. */
  void publish(String author) {
    AtomicInteger mine = postsBy.computeIfAbsent(author, k -> new AtomicInteger());
    if (mine.get() >= maxPostsPerUser) {
      return;
    }
    Post p;
    try {
      p = weibo.publish(author, "post by " + author);
    } catch (RuntimeException e) {
      failedPublishes.computeIfAbsent(author, k -> new AtomicInteger()).incrementAndGet();
      throw e;
    }
    published.put(key(p), p);
    mine.incrementAndGet();
  }

  /** Records a relation change made outside {@link #operation} (+1 follow, -1 unfollow). */
  void record(String a, String b, int change) {
    netChanges.computeIfAbsent(pair(a, b), k -> new AtomicInteger()).addAndGet(change);
  }

  /** Checks every invariant and reports every violation, not only the first. */
  void assertInvariants() {
    assertInvariants("");
  }

  /** As {@link #assertInvariants()}, with {@code context} (what happened) on every failure. */
  void assertInvariants(String context) {
    SoftAssertions softly = new SoftAssertions();
    // Posts stored by publishes that threw: allowed anywhere a post of their author may be.
    Set<String> unacknowledged = new HashSet<>();
    for (String author : users) {
      List<Post> own = all(p -> weibo.posts(author, p));
      Set<String> ownKeys = new HashSet<>();
      own.forEach(p -> ownKeys.add(key(p)));
      List<String> acknowledged =
          published.values().stream()
              .filter(p -> p.uid().equals(author))
              .map(FeedLoad::key)
              .toList();
      softly
          .assertThat(ownKeys)
          .as("posts of %s hold every acknowledged one%s", author, context)
          .containsAll(acknowledged);
      Set<String> extra = new HashSet<>(ownKeys);
      acknowledged.forEach(extra::remove);
      int failed = failedPublishes.getOrDefault(author, new AtomicInteger()).get();
      softly
          .assertThat(extra.size())
          .as(
              "posts of %s not acknowledged, at most its %d failed publishes%s",
              author, failed, context)
          .isLessThanOrEqualTo(failed);
      unacknowledged.addAll(extra);
      long counted = weibo.stats(author).posts();
      if (failed == 0) {
        softly
            .assertThat(counted)
            .as("post counter of %s%s", author, context)
            .isEqualTo(own.size());
      } else {
        softly
            .assertThat(counted)
            .as("post counter of %s, with %d publishes failed%s", author, failed, context)
            .isBetween((long) acknowledged.size(), (long) own.size());
      }
    }
    for (String a : users) {
      Set<String> following = new HashSet<>(all(p -> weibo.following(a, p)));
      Set<String> followers = new HashSet<>(all(p -> weibo.followers(a, p)));
      UserStats stats = weibo.stats(a);
      softly
          .assertThat(stats.following())
          .as("following counter of %s%s", a, context)
          .isEqualTo(following.size());
      softly
          .assertThat(stats.followers())
          .as("followers counter of %s%s", a, context)
          .isEqualTo(followers.size());
      for (String b : users) {
        if (a.equals(b)) {
          continue;
        }
        boolean follows = following.contains(b);
        boolean listedAsFollower = all(p -> weibo.followers(b, p)).contains(a);
        softly
            .assertThat(listedAsFollower)
            .as("%s follows %s on both sides%s", a, b, context)
            .isEqualTo(follows);
        if (!uncertainPairs.contains(pair(a, b))) {
          int net = netChanges.getOrDefault(pair(a, b), new AtomicInteger()).get();
          softly
              .assertThat(net)
              .as("successful follows minus unfollows of %s -> %s%s", a, b, context)
              .isEqualTo(follows ? 1 : 0);
        }
      }
      List<Post> timeline = all(p -> weibo.timeline(a, p));
      List<String> expected =
          published.values().stream()
              .filter(p -> following.contains(p.uid()))
              .map(FeedLoad::key)
              .toList();
      List<String> seen = timeline.stream().map(FeedLoad::key).toList();
      softly
          .assertThat(seen.stream().filter(k -> !unacknowledged.contains(k)).toList())
          .as("timeline of %s%s", a, context)
          .containsExactlyInAnyOrderElementsOf(expected);
      softly
          .assertThat(timeline)
          .as("timeline of %s, only accounts followed%s", a, context)
          .extracting(Post::uid)
          .allMatch(following::contains);
      softly
          .assertThat(seen)
          .as("timeline of %s, no repeats%s", a, context)
          .doesNotHaveDuplicates();
      softly
          .assertThat(timeline)
          .as("timeline of %s, newest first%s", a, context)
          .extracting(p -> Long.parseLong(p.id()))
          .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    }
    softly.assertAll();
  }

  /** Every page of a listing, {@link #pageSize} at a time. */
  <T> List<T> all(Function<PageRequest, Page<T>> listing) {
    return all(listing, pageSize);
  }

  /** Every page of a listing, {@code pageSize} at a time. */
  static <T> List<T> all(Function<PageRequest, Page<T>> listing, int pageSize) {
    List<T> out = new ArrayList<>();
    String cursor = null;
    do {
      Page<T> page = listing.apply(new PageRequest(pageSize, Optional.ofNullable(cursor)));
      out.addAll(page.items());
      cursor = page.next().orElse(null);
    } while (cursor != null);
    return out;
  }

  private static String key(Post p) {
    return p.id() + "/" + p.uid();
  }

  private static String pair(String a, String b) {
    return a + "\n" + b;
  }

  /**
   * The system clock slowed fifty-fold (so many relation changes share a millisecond), plus an
   * offset the test can advance.
   */
  static final class SlowClock extends Clock {
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
