package org.casebook.weibo;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyRange;
import org.casebook.weibo.WeiboKeys.InboxEntry;
import org.casebook.weibo.WeiboStore.FanOut;
import org.casebook.weibo.WeiboStore.UserRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The social feed (seed 003): publish, follow, unfollow, timeline, a user's posts, followers and
 * followings, on the shared HBase connection.
 *
 * <p>Hybrid fan-out: an account's posts are copied into each follower's inbox when published
 * (fan-out on write) until the account has {@link WeiboConfig#fanOutThreshold()} followers. Then
 * a background promotion marks each follower as "follows a read-merged account" and the account
 * switches to fan-out on read: its posts are merged into followers' timelines when they are read.
 * Timelines stay complete and ordered either way; duplicates from the switch-over are removed.
 *
 * <p>Thread-safe. {@link #close()} waits for running promotions.
 */
public final class WeiboService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WeiboService.class);
  private static final int MAX_READ_MERGED_FOLLOWS = 1000;
  private static final int POST_ID_ATTEMPTS = 5;
  /** Stands in for the users row of an account known to be read-merged (counters unused then). */
  private static final UserRow READ_MERGED = new UserRow(0, 0, 0, FanOut.READ);

  private final WeiboStore store;
  private final WeiboConfig config;
  private final Clock clock;
  private final PostIds ids;
  private final Set<String> promoting = ConcurrentHashMap.newKeySet();
  /** Accounts seen in READ state. The state never moves back, so this cache is always right. */
  private final Set<String> readMerged = ConcurrentHashMap.newKeySet();
  private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "weibo-promotion");
    t.setDaemon(true);
    return t;
  });
  /** Runs a request's independent reads and writes side by side (the caller always waits for them). */
  private final ExecutorService sideWork = Executors.newFixedThreadPool(8, r -> {
    Thread t = new Thread(r, "weibo-side-work");
    t.setDaemon(true);
    return t;
  });

  /** The feed in the {@code weibo} namespace. */
  public WeiboService(Connection connection, WeiboConfig config) {
    this(connection, config, WeiboSchema.DEFAULT_NAMESPACE);
  }

  /** The feed in another namespace (benchmarks, tenants); {@link #schemas(String)} lists its tables. */
  public WeiboService(Connection connection, WeiboConfig config, String namespace) {
    this(connection, config, namespace, Clock.systemUTC());
  }

  WeiboService(Connection connection, WeiboConfig config, String namespace, Clock clock) {
    this(connection, config, namespace, clock, new PostIds());
  }

  WeiboService(Connection connection, WeiboConfig config, String namespace, Clock clock, PostIds ids) {
    this.ids = Objects.requireNonNull(ids, "ids is null");
    this.store = new WeiboStore(Objects.requireNonNull(connection, "connection is null"), WeiboSchema.in(namespace));
    this.config = Objects.requireNonNull(config, "config is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  public WeiboConfig config() {
    return config;
  }

  /** The tables the feed needs in {@code namespace}. */
  public static List<org.casebook.core.schema.TableSpec> schemas(String namespace) {
    return WeiboSchema.in(namespace).tables();
  }

  /** Stores the post and delivers it to followers' inboxes (or leaves it for read-time merge). */
  public Post publish(String uid, String content) {
    Validation.uid(uid, "uid");
    Validation.content(content);
    UserRow author = readMerged.contains(uid) ? READ_MERGED : store.user(uid);
    if (author.fanOut() == FanOut.READ) {
      readMerged.add(uid);
    }
    long now = clock.millis();
    boolean outbox = author.fanOut() != FanOut.WRITE;
    // Independent writes go side by side: the counter always, and for a read-merged author the
    // outbox cell, optimistically, next to the conditional insert of the post itself.
    java.util.concurrent.Future<?> counted = sideWork.submit(() -> store.addToCounters(uid, 0, 0, 1));
    Post post = null;
    for (int attempt = 0; attempt < POST_ID_ATTEMPTS && post == null; attempt++) {
      long candidate = ids.next(now);
      Post p = new Post(Long.toString(candidate), uid, PostIds.millisOf(candidate), content);
      java.util.concurrent.Future<?> outboxed = outbox ? sideWork.submit(() -> store.addToOutbox(uid, List.of(p))) : null;
      boolean inserted = store.insertPost(uid, candidate, content);
      if (outboxed != null) {
        await(outboxed);
      }
      if (inserted) {
        post = p;
      } else if (outboxed != null) {
        // Another server took this id for this author: its post owns the outbox cell we just overwrote.
        store.restoreOutboxEntry(uid, candidate);
      }
    }
    if (post == null) {
      await(counted);
      store.addToCounters(uid, 0, 0, -1);
      throw new IllegalStateException("no free post id for " + uid + " after " + POST_ID_ATTEMPTS + " attempts");
    }
    long postId = Long.parseLong(post.id());
    if (author.fanOut() != FanOut.READ) {
      long id = postId;
      store.forEachRelated(uid, WeiboKeys.FOLLOWER, 5000, followers -> store.addToInboxes(followers, uid, id));
    }
    if (author.fanOut() == FanOut.PROMOTING
        || (author.fanOut() == FanOut.WRITE && author.followers() >= config.fanOutThreshold())) {
      promoteLater(uid);
    }
    await(counted);
    return post;
  }

  /**
   * {@code uid} follows {@code target}: both sides of the relation, then the target's latest
   * posts into {@code uid}'s inbox. Returns false if {@code uid} already followed {@code target}.
   */
  public boolean follow(String uid, String target) {
    checkPair(uid, target);
    long now = clock.millis();
    boolean created = store.insertRelation(uid, WeiboKeys.FOLLOWING, target, now);
    // The other half is idempotent: a retry after a crash repairs it.
    store.putRelations(List.of(WeiboKeys.relation(target, WeiboKeys.FOLLOWER, uid)), now);
    long followers;
    if (created) {
      store.addToCounters(uid, 0, 1, 0);
      followers = store.addToCounters(target, 1, 0, 0);
    } else {
      followers = store.user(target).followers();
    }
    FanOut targetFanOut = store.user(target).fanOut();
    if (targetFanOut != FanOut.WRITE || followers >= config.fanOutThreshold()) {
      store.changeMarkers(List.of(uid), target, now, false);
      if (targetFanOut != FanOut.READ) {
        promoteLater(target);
      }
    }
    if (targetFanOut != FanOut.READ && config.backfillPosts() > 0) {
      List<Long> recent = new ArrayList<>();
      store.forEachPostIdSince(target, inboxHorizonId(now), config.backfillPosts(), recent::add);
      store.changeInbox(uid, target, recent, false);
    }
    return created;
  }

  /**
   * {@code uid} stops following {@code target}: both sides, the read-merge marker, and the
   * target's posts in {@code uid}'s inbox. Returns false if {@code uid} did not follow {@code target}.
   */
  public boolean unfollow(String uid, String target) {
    checkPair(uid, target);
    boolean removed = store.removeRelation(uid, WeiboKeys.FOLLOWING, target);
    store.deleteRelations(List.of(WeiboKeys.relation(target, WeiboKeys.FOLLOWER, uid)));
    store.changeMarkers(List.of(uid), target, 0, true);
    if (removed) {
      store.addToCounters(uid, 0, -1, 0);
      store.addToCounters(target, -1, 0, 0);
    }
    List<Long> chunk = new ArrayList<>();
    store.forEachPostIdSince(target, inboxHorizonId(clock.millis()), Integer.MAX_VALUE, id -> {
      chunk.add(id);
      if (chunk.size() == 1000) {
        store.changeInbox(uid, target, chunk, true);
        chunk.clear();
      }
    });
    store.changeInbox(uid, target, chunk, true);
    return removed;
  }

  /**
   * Posts of the accounts {@code uid} follows, newest first: the first page of the inbox row and
   * the user's read-merge markers (one multi-get), then the bodies of those entries and the
   * outboxes of followed read-merged accounts (one multi-get each).
   */
  public Page<Post> timeline(String uid, int limit, String cursor) {
    Validation.uid(uid, "uid");
    Validation.limit(limit, config.maxPageSize(), "limit");
    InboxEntry after = cursor == null || cursor.isEmpty() ? null : WeiboKeys.parseTimelineCursor(cursor);
    WeiboStore.FeedRow feed = store.feed(uid, after, limit + 1);
    // Order of the merged timeline = order of inbox qualifiers: post id descending, then author bytes.
    TreeMap<TimelineKey, String> merged = new TreeMap<>();
    for (InboxEntry e : feed.entries()) {
      merged.put(TimelineKey.of(e), null);
    }
    List<String> bigs = feed.readMerged().size() > MAX_READ_MERGED_FOLLOWS
        ? feed.readMerged().subList(0, MAX_READ_MERGED_FOLLOWS) : feed.readMerged();
    // Outboxes and bodies are independent: fetch them side by side (bodies of every inbox entry
    // read, at most one more than the page needs).
    java.util.concurrent.Future<List<List<Post>>> outboxes = null;
    if (!bigs.isEmpty()) {
      List<byte[]> starts = new ArrayList<>(bigs.size());
      for (String big : bigs) {
        if (after == null) {
          starts.add(null);
        } else {
          // A post with the cursor's id comes after the cursor only if its author sorts after the cursor's.
          byte[] q = WeiboKeys.outboxEntry(after.postId());
          boolean inclusive = Bytes.compareTo(TimelineKey.authorKey(big), TimelineKey.authorKey(after.author())) > 0;
          starts.add(inclusive ? q : KeyRange.successorOf(q));
        }
      }
      outboxes = sideWork.submit(() -> store.outboxes(bigs, starts, limit + 1));
    }
    List<String> fetched = feed.entries().isEmpty() ? List.of() : store.contents(feed.entries());
    Map<TimelineKey, String> bodies = new HashMap<>();
    for (int i = 0; i < feed.entries().size(); i++) {
      bodies.put(TimelineKey.of(feed.entries().get(i)), fetched.get(i));
    }
    if (outboxes != null) {
      for (List<Post> posts : await(outboxes)) {
        for (Post p : posts) {
          merged.put(TimelineKey.of(new InboxEntry(Long.parseLong(p.id()), p.uid())), p.content());
        }
      }
    }
    List<TimelineKey> page = new ArrayList<>(merged.keySet()).subList(0, Math.min(limit, merged.size()));
    List<Post> posts = new ArrayList<>(page.size());
    for (TimelineKey k : page) {
      String content = merged.get(k) != null ? merged.get(k) : bodies.get(k);
      if (content != null) {
        InboxEntry e = k.entry();
        posts.add(new Post(Long.toString(e.postId()), e.author(), PostIds.millisOf(e.postId()), content));
      }
    }
    Optional<String> next = merged.size() > limit && !page.isEmpty()
        ? Optional.of(WeiboKeys.timelineCursor(page.get(page.size() - 1).entry().postId(),
            page.get(page.size() - 1).entry().author()))
        : Optional.empty();
    return new Page<>(posts, next);
  }

  /** {@code uid}'s own posts, newest first. */
  public Page<Post> posts(String uid, int limit, String cursor) {
    Validation.uid(uid, "uid");
    Validation.limit(limit, config.maxPageSize(), "limit");
    long before = cursor == null || cursor.isEmpty() ? -1 : WeiboKeys.parsePostCursor(cursor);
    List<Post> posts = store.posts(uid, before, false, limit + 1);
    Optional<String> next = Optional.empty();
    if (posts.size() > limit) {
      posts = posts.subList(0, limit);
      next = Optional.of(WeiboKeys.postCursor(Long.parseLong(posts.get(limit - 1).id())));
    }
    return new Page<>(posts, next);
  }

  public Page<String> followers(String uid, int limit, String cursor) {
    return related(uid, WeiboKeys.FOLLOWER, limit, cursor);
  }

  public Page<String> following(String uid, int limit, String cursor) {
    return related(uid, WeiboKeys.FOLLOWING, limit, cursor);
  }

  public UserStats stats(String uid) {
    Validation.uid(uid, "uid");
    UserRow row = store.user(uid);
    return new UserStats(uid, row.followers(), row.following(), row.posts(), row.fanOut() == FanOut.READ);
  }

  /**
   * Imports edges of an existing social graph in bulk (no inbox back-fill: import the graph
   * before the posts). Edges already present are skipped, so an import can be rerun. Accounts
   * that end up over the threshold are promoted before this returns. Returns the edges added.
   */
  public long importFollows(List<Follow> edges) {
    long now = clock.millis();
    Map<String, long[]> counters = new HashMap<>();
    long added = 0;
    try (BufferedMutator writer = store.relationWriter()) {
      for (int from = 0; from < edges.size(); from += 1000) {
        List<Follow> chunk = edges.subList(from, Math.min(edges.size(), from + 1000));
        List<byte[]> rows = new ArrayList<>(chunk.size());
        for (Follow f : chunk) {
          checkPair(f.follower(), f.followee());
          rows.add(WeiboKeys.relation(f.follower(), WeiboKeys.FOLLOWING, f.followee()));
        }
        boolean[] exists = store.relationsExist(rows);
        java.util.Set<String> seenInChunk = new java.util.HashSet<>();
        for (int i = 0; i < chunk.size(); i++) {
          Follow f = chunk.get(i);
          if (exists[i] || !seenInChunk.add(f.follower() + '\n' + f.followee())) {
            continue;
          }
          writer.mutate(WeiboStore.relationPut(rows.get(i), now));
          writer.mutate(WeiboStore.relationPut(WeiboKeys.relation(f.followee(), WeiboKeys.FOLLOWER, f.follower()), now));
          counters.computeIfAbsent(f.follower(), k -> new long[2])[1]++;
          counters.computeIfAbsent(f.followee(), k -> new long[2])[0]++;
          added++;
        }
        writer.flush();
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("could not import follows: " + e.getMessage(), e);
    }
    List<String> toPromote = new ArrayList<>();
    counters.forEach((uid, c) -> {
      long followers = store.addToCounters(uid, c[0], c[1], 0);
      if (c[0] > 0 && followers >= config.fanOutThreshold()) {
        toPromote.add(uid);
      }
    });
    for (String uid : toPromote) {
      promote(uid);
    }
    return added;
  }

  private Page<String> related(String uid, int kind, int limit, String cursor) {
    Validation.uid(uid, "uid");
    Validation.limit(limit, config.maxPageSize(), "limit");
    String after = cursor == null || cursor.isEmpty() ? null : WeiboKeys.parseUserCursor(cursor);
    List<String> users = store.related(uid, kind, after, limit + 1);
    Optional<String> next = Optional.empty();
    if (users.size() > limit) {
      users = users.subList(0, limit);
      next = Optional.of(WeiboKeys.userCursor(users.get(limit - 1)));
    }
    return new Page<>(users, next);
  }

  private void checkPair(String uid, String target) {
    Validation.uid(uid, "uid");
    Validation.uid(target, "target");
    InvalidInputException.check(!uid.equals(target), "target", "a user cannot follow or unfollow themselves");
  }

  private static long inboxHorizonId(long nowMillis) {
    return PostIds.firstIdAt(Math.max(0, nowMillis - WeiboConfig.INBOX_TTL_DAYS * 86_400_000L));
  }

  private void promoteLater(String uid) {
    if (promoting.add(uid)) {
      background.execute(() -> {
        try {
          promote(uid);
        } catch (RuntimeException e) {
          LOG.error("promotion of {} to fan-out on read failed; it resumes on its next post or follower", uid, e);
        } finally {
          promoting.remove(uid);
        }
      });
    }
  }

  /**
   * WRITE → PROMOTING → READ. While PROMOTING, posts still fan out and also go to the outbox,
   * and new followers get the marker. The promotion copies the account's recent posts to its
   * outbox and marks every follower; once done, posts stop fanning out.
   */
  private void promote(String uid) {
    UserRow row = store.user(uid);
    if (row.fanOut() == FanOut.READ) {
      return;
    }
    if (row.fanOut() == FanOut.WRITE) {
      store.setFanOut(uid, FanOut.WRITE, FanOut.PROMOTING);
    }
    long now = clock.millis();
    List<Post> recent = store.postsSince(uid, inboxHorizonId(now), Integer.MAX_VALUE);
    for (int i = 0; i < recent.size(); i += 1000) {
      store.addToOutbox(uid, recent.subList(i, Math.min(recent.size(), i + 1000)));
    }
    long[] marked = {0};
    store.forEachRelated(uid, WeiboKeys.FOLLOWER, 2000, followers -> {
      store.changeMarkers(followers, uid, now, false);
      // Marker first, then check the follow: an unfollow racing this either ran before the check
      // (we remove the marker) or deletes the marker itself afterwards.
      List<byte[]> follows = new ArrayList<>(followers.size());
      for (String f : followers) {
        follows.add(WeiboKeys.relation(f, WeiboKeys.FOLLOWING, uid));
      }
      boolean[] exists = store.relationsExist(follows);
      List<String> gone = new ArrayList<>();
      for (int i = 0; i < exists.length; i++) {
        if (!exists[i]) {
          gone.add(followers.get(i));
        }
      }
      store.changeMarkers(gone, uid, 0, true);
      marked[0] += followers.size() - gone.size();
    });
    store.setFanOut(uid, null, FanOut.READ);
    readMerged.add(uid);
    LOG.info("{} now fans out on read ({} followers marked, {} recent posts in its outbox)", uid, marked[0],
        recent.size());
  }

  private static <T> T await(java.util.concurrent.Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.UncheckedIOException(new java.io.InterruptedIOException("interrupted"));
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Waits (up to 5 minutes) for promotions in progress, then stops the background thread. */
  @Override
  public void close() {
    sideWork.shutdown();
    background.shutdown();
    try {
      if (!background.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("promotions still running at shutdown; they resume on the accounts' next activity");
        background.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      background.shutdownNow();
    }
  }

  /** Waits until background promotions queued so far are done (for tests and benchmarks). */
  public void awaitBackgroundWork() {
    try {
      background.submit(() -> { }).get(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("background work did not finish", e);
    }
  }

  /** Sort key of the merged timeline: post id descending, then the author's key bytes. */
  private record TimelineKey(InboxEntry entry, byte[] author) implements Comparable<TimelineKey> {
    static final Comparator<TimelineKey> ORDER = Comparator.<TimelineKey>comparingLong(k -> -k.entry().postId())
        .thenComparing(TimelineKey::author, Bytes.BYTES_COMPARATOR);

    static TimelineKey of(InboxEntry e) {
      return new TimelineKey(e, authorKey(e.author()));
    }

    static byte[] authorKey(String author) {
      return KeyBuilder.create().addString(author).build();
    }

    @Override
    public int compareTo(TimelineKey o) {
      return ORDER.compare(this, o);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof TimelineKey k && k.entry().postId() == entry.postId() && Bytes.equals(k.author, author);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(entry.postId()) * 31 + Bytes.hashCode(author);
    }
  }
}
