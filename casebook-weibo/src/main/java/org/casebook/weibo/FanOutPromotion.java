package org.casebook.weibo;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.casebook.core.Futures;
import org.casebook.core.WriteGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hybrid fan-out state machine of an account: WRITE → PROMOTING → READ, never back. While
 * PROMOTING, posts still fan out and also go to the outbox, and new followers get the marker. The
 * promotion copies the account's recent posts to its outbox and marks every follower; once done,
 * posts stop fanning out. Promotions run one at a time on the system's own background thread, which
 * belongs to the context: closing it (or the Platform) lets queued promotions finish, within the
 * context's grace period.
 */
final class FanOutPromotion {
  private static final Logger LOG = LoggerFactory.getLogger(FanOutPromotion.class);

  private static final int OUTBOX_CHUNK = 1000;
  private static final int FOLLOWER_CHUNK = 2000;

  private final WeiboStore store;
  private final Clock clock;
  private final ExecutorService background;
  private final WriteGate writes;
  private final Set<String> promoting = ConcurrentHashMap.newKeySet();

  /** Accounts seen in READ state. The state never moves back, so this cache is always right. */
  private final Set<String> readMerged = ConcurrentHashMap.newKeySet();

  FanOutPromotion(WeiboStore store, Clock clock, ExecutorService background, WriteGate writes) {
    this.writes = Objects.requireNonNull(writes, "writes is null");
    this.store = Objects.requireNonNull(store, "store is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.background = Objects.requireNonNull(background, "background is null");
  }

  /**
   * The users row of an author about to publish; skips the read for accounts known to be
   * read-merged.
   */
  Account author(String uid) {
    if (readMerged.contains(uid)) {
      return Account.READ_MERGED;
    }
    Account row = store.users().account(uid);
    if (row.fanOut() == FanOut.READ) {
      readMerged.add(uid);
    }
    return row;
  }

  /** Queues the promotion of {@code uid} unless one is already queued or running. */
  void promoteLater(String uid) {
    if (promoting.add(uid)) {
      background.execute(
          () -> {
            try {
              promote(uid);
            } catch (RuntimeException e) {
              LOG.error(
                  "promotion of {} to fan-out on read failed; it resumes on its next post or follower",
                  uid,
                  e);
            } finally {
              promoting.remove(uid);
            }
          });
    }
  }

  /** Promotes {@code uid} now, on the caller's thread (bulk import); a no-op once it is READ. */
  void promote(String uid) {
    Account row = store.users().account(uid);
    if (row.fanOut() == FanOut.READ) {
      return;
    }
    // A pass per step: each leaves a promotion the next post or follower resumes, so a backup may
    // pause between two.
    if (row.fanOut() == FanOut.WRITE) {
      try (WriteGate.Pass pass = writes.enter()) {
        store.users().startPromotion(uid);
      }
    }
    long now = clock.millis();
    List<Post> recent =
        store.posts().postsSince(uid, PostIds.inboxHorizonId(now), Integer.MAX_VALUE);
    for (int i = 0; i < recent.size(); i += OUTBOX_CHUNK) {
      try (WriteGate.Pass pass = writes.enter()) {
        store
            .inbox()
            .addToOutbox(uid, recent.subList(i, Math.min(recent.size(), i + OUTBOX_CHUNK)));
      }
    }
    long[] marked = {0};
    store
        .relations()
        .forEachRelated(
            uid,
            RelationKind.FOLLOWER,
            FOLLOWER_CHUNK,
            followers -> {
              // Only followers in state following are listed; a marker left by one who unfollows
              // meanwhile is ignored by their timeline, which checks the follow itself.
              try (WriteGate.Pass pass = writes.enter()) {
                store.inbox().addMarkers(followers, uid, now);
              }
              marked[0] += followers.size();
            });
    try (WriteGate.Pass pass = writes.enter()) {
      store.users().finishPromotion(uid);
    }
    readMerged.add(uid);
    LOG.info(
        "{} now fans out on read ({} followers marked, {} recent posts in its outbox)",
        uid,
        marked[0],
        recent.size());
  }

  /**
   * Waits until the promotions queued so far are done (tests and benchmarks); returns at once if
   * the background thread is already stopped (its context closed).
   */
  void awaitQueued() {
    Future<?> marker;
    try {
      marker = background.submit(() -> {});
    } catch (RejectedExecutionException e) {
      return;
    }
    Futures.await(marker);
  }

  int queued() {
    return promoting.size();
  }
}
