package org.casebook.weibo;

import java.util.List;
import java.util.Objects;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.SystemContext;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.TableSpec;

/**
 * The social feed (seed 003): publish, follow, unfollow, timeline, a user's posts, followers and
 * followings, on the context's shared HBase connection, clock and side-work pool.
 *
 * <p>Hybrid fan-out: an account's posts are copied into each follower's inbox when published
 * (fan-out on write) until the account has {@link WeiboConfig#fanOutThreshold()} followers. Then a
 * background promotion ({@link FanOutPromotion}) marks each follower as "follows a read-merged
 * account" and the account switches to fan-out on read: its posts are merged into followers'
 * timelines when they are read. Timelines stay complete and ordered either way; duplicates from the
 * switch-over are removed.
 *
 * <p>Thread-safe. Promotions run on the context's {@code promotion} background thread, which the
 * context owns and stops when it (or its Platform) is closed; {@link #close()} waits for the
 * promotions queued so far.
 */
public final class WeiboService implements AutoCloseable {
  /** A pending relation change younger than this may still be running: repair leaves it alone. */
  static final long REPAIR_MIN_AGE_MILLIS = 60_000;

  private final WeiboConfig config;
  private final WeiboStore store;
  private final FanOutPromotion promotion;
  private final Publisher publisher;
  private final FollowGraph graph;
  private final RelationRepair repair;
  private final Timelines timelines;
  private final PostDeletion deletion;

  /** The feed in the {@code weibo} namespace. */
  public WeiboService(SystemContext context, WeiboConfig config) {
    this(context, config, WeiboSchema.DEFAULT_NAMESPACE);
  }

  /**
   * The feed in another namespace (a tenant's, a benchmark's own); {@link #schemas(String)} lists
   * its tables, which the caller creates.
   */
  public WeiboService(SystemContext context, WeiboConfig config, String namespace) {
    this(context, config, namespace, new PostIds());
  }

  /** With chosen post ids (tests force id collisions between two services). */
  WeiboService(SystemContext context, WeiboConfig config, String namespace, PostIds ids) {
    Objects.requireNonNull(context, "context is null");
    this.config = Objects.requireNonNull(config, "config is null");
    this.store = WeiboStore.open(context.connection(), WeiboSchema.in(namespace));
    this.promotion =
        new FanOutPromotion(
            store, context.clock(), context.background("promotion"), context.writes());
    this.publisher =
        new Publisher(
            store,
            config,
            context.clock(),
            Objects.requireNonNull(ids, "ids is null"),
            context.sideWork(),
            promotion);
    this.graph = new FollowGraph(store, config, context.clock(), promotion);
    this.repair = new RelationRepair(store, graph, context.clock());
    this.timelines = new Timelines(store, context.sideWork(), context.clock());
    this.deletion = new PostDeletion(store);
  }

  public WeiboConfig config() {
    return config;
  }

  /** The tables the feed needs in {@code namespace}. */
  public static List<TableSpec> schemas(String namespace) {
    return WeiboSchema.in(namespace).tables();
  }

  /** Stores the post and delivers it to followers' inboxes (or leaves it for read-time merge). */
  public Post publish(String uid, String content) {
    return publisher.publish(uid, content, null, List.of());
  }

  /**
   * Publishes a post with a title (null for none) and images by reference (null or empty for none).
   * Every field is checked before anything is written: a refused post stores nothing.
   *
   * @throws InvalidInputException naming the field ({@code title}, {@code images[2].ref} …)
   */
  public Post publish(String uid, String content, String title, List<PostImage> images) {
    return publisher.publish(uid, content, title, images);
  }

  /**
   * Deletes {@code uid}'s post {@code postId} (the id {@link #publish} returned) from the author's
   * posts, the post count and every follower's timeline. Idempotent and safe to rerun after a crash
   * half-way; two deletes racing count it once.
   *
   * @throws NotFoundException when {@code uid} has no such post (or it is already deleted)
   */
  public void deletePost(String uid, String postId) {
    long id = postId(postId);
    if (!deletion.delete(uid, id)) {
      throw new NotFoundException("no post " + postId + " of user " + uid);
    }
  }

  /**
   * {@code uid}'s post {@code postId}, with its title and images.
   *
   * @throws NotFoundException when {@code uid} has no such post (or it is being deleted)
   */
  public Post post(String uid, String postId) {
    Validation.uid(uid, "uid");
    Post post = store.posts().post(uid, postId(postId));
    if (post == null) {
      throw new NotFoundException("no post " + postId + " of user " + uid);
    }
    return post;
  }

  private static long postId(String postId) {
    long id;
    try {
      id = Long.parseLong(postId);
    } catch (NumberFormatException e) {
      throw new InvalidInputException("postId", "a post id is a number, got '" + postId + "'");
    }
    InvalidInputException.check(id >= 0, "postId", "a post id is not negative");
    return id;
  }

  /** The delete's first step alone, as a crash right after it leaves it (tests). */
  void hidePostOnly(String uid, long postId) {
    byte[][] content = new byte[1][];
    if (store.posts().state(uid, postId, content) == PostStore.Stored.VISIBLE) {
      store.posts().hide(uid, postId, content[0]);
    }
  }

  /** The delete's first two steps alone (tests). */
  void hideAndUncountOnly(String uid, long postId) {
    hidePostOnly(uid, postId);
    store.users().uncountDeletedPost(uid, postId);
  }

  /**
   * {@code uid} follows {@code target}: a conditional change of {@code uid}'s following row (the
   * truth), then the follower row, counters and the target's latest posts into {@code uid}'s inbox.
   * Returns false if {@code uid} already followed {@code target}. Correct under any interleaving of
   * follows, unfollows and publishes; a crash after the change is finished by {@link #repair()}.
   */
  public boolean follow(String uid, String target) {
    return graph.follow(uid, target);
  }

  /**
   * {@code uid} stops following {@code target}: a conditional change of the following row, then the
   * follower row and counters. Timelines stop showing the target's posts at once (they check the
   * follow when read); the inbox entries are removed lazily. Returns false if {@code uid} did not
   * follow {@code target}.
   */
  public boolean unfollow(String uid, String target) {
    return graph.unfollow(uid, target);
  }

  /**
   * Finishes follows and unfollows cut short by a crash (pending for at least a minute, so none
   * still running): re-applies their effects and recounts the users involved. Runs when the system
   * starts and every few minutes; returns the changes finished.
   */
  public int repair() {
    return repair.repair(REPAIR_MIN_AGE_MILLIS);
  }

  /** The relation change alone, without its effects: a crash right after it (tests). */
  long changeRelationOnly(String uid, String target, boolean follow) {
    return graph.transitionOnly(uid, target, follow);
  }

  /** Posts of the accounts {@code uid} follows, newest first. */
  public Page<Post> timeline(String uid, PageRequest page) {
    return timelines.timeline(uid, page);
  }

  /** {@code uid}'s own posts, newest first. */
  public Page<Post> posts(String uid, PageRequest page) {
    return timelines.posts(uid, page);
  }

  /** Who follows {@code uid}, in id order. */
  public Page<String> followers(String uid, PageRequest page) {
    return graph.followers(uid, page);
  }

  /** Whom {@code uid} follows, in id order. */
  public Page<String> following(String uid, PageRequest page) {
    return graph.following(uid, page);
  }

  public UserStats stats(String uid) {
    Validation.uid(uid, "uid");
    Account account = store.users().account(uid);
    return new UserStats(
        uid,
        account.followers(),
        account.following(),
        account.posts(),
        account.fanOut() == FanOut.READ);
  }

  /**
   * Imports edges of an existing social graph in bulk (no inbox back-fill: import the graph before
   * the posts). Edges already present are skipped, so an import can be rerun. Accounts that end up
   * over the threshold are promoted before this returns. Returns the edges added.
   */
  public long importFollows(List<Follow> edges) {
    return graph.importFollows(edges);
  }

  /**
   * Waits until the background promotions queued so far are done: after a bulk import or a burst of
   * follows, the accounts that crossed the threshold are read-merged once this returns.
   */
  public void awaitBackgroundWork() {
    promotion.awaitQueued();
  }

  /** Promotions queued or running, for the health report. */
  int promotionsInProgress() {
    return promotion.queued();
  }

  /**
   * Waits for the promotions queued so far. The promotion thread itself belongs to the context:
   * closing the Platform (or the context) stops it, letting queued promotions finish within the
   * context's grace period.
   */
  @Override
  public void close() {
    promotion.awaitQueued();
  }
}
