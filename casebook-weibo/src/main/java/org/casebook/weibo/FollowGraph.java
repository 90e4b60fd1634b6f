package org.casebook.weibo;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;

/**
 * The social graph: follow and unfollow (a conditional transition of the following row, the truth,
 * then its idempotent effects: follower row, counters, read-merge marker, inbox back-fill), bulk
 * import, and the followers/following listings. {@link RelationRepair} finishes transitions cut
 * short.
 */
final class FollowGraph {
  private static final int IMPORT_CHUNK = 1000;

  private final WeiboStore store;
  private final WeiboConfig config;
  private final Clock clock;
  private final FanOutPromotion promotion;

  FollowGraph(WeiboStore store, WeiboConfig config, Clock clock, FanOutPromotion promotion) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.config = Objects.requireNonNull(config, "config is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.promotion = Objects.requireNonNull(promotion, "promotion is null");
  }

  /**
   * The following row is the truth: a conditional transition to following, then its effects (the
   * follower row, counters, marker, back-fill), then the pending column is cleared. A crash in
   * between leaves the pending column for {@link RelationRepair}.
   */
  boolean follow(String uid, String target) {
    checkPair(uid, target);
    long version = store.relations().transition(uid, target, true, clock);
    if (version < 0) {
      return false;
    }
    applyFollow(uid, target, version, true);
    store.relations().clearPending(List.of(new PendingChange(uid, target, version)));
    return true;
  }

  /**
   * A conditional transition to not following, the follower row and counters, then the pending
   * column is cleared. Nothing is deleted from the inbox: timelines check the relation when read
   * and clean up lazily.
   */
  boolean unfollow(String uid, String target) {
    checkPair(uid, target);
    long version = store.relations().transition(uid, target, false, clock);
    if (version < 0) {
      return false;
    }
    applyUnfollow(uid, target, version);
    store.users().addToCounters(uid, 0, -1, 0);
    store.users().addToCounters(target, -1, 0, 0);
    store.relations().clearPending(List.of(new PendingChange(uid, target, version)));
    return true;
  }

  /** The transition alone, as if the process died right after it (crash tests). */
  long transitionOnly(String uid, String target, boolean follow) {
    checkPair(uid, target);
    return store.relations().transition(uid, target, follow, clock);
  }

  /**
   * The effects of the follow with {@code version}, each idempotent: the follower row (before the
   * back-fill reads the target's posts: a post published meanwhile either sees this follower or is
   * seen by the back-fill), the counters if {@code count}, the read-merge marker, the back-fill.
   */
  void applyFollow(String uid, String target, long version, boolean count) {
    long now = clock.millis();
    store.relations().putFollower(target, uid, true, version, now);
    long followers;
    FanOut targetFanOut;
    if (count) {
      store.users().addToCounters(uid, 0, 1, 0);
      followers = store.users().addToCounters(target, 1, 0, 0);
      targetFanOut = store.users().account(target).fanOut();
    } else {
      Account row = store.users().account(target);
      followers = row.followers();
      targetFanOut = row.fanOut();
    }
    if (targetFanOut != FanOut.WRITE || followers >= config.fanOutThreshold()) {
      store.inbox().addMarkers(List.of(uid), target, now);
      if (targetFanOut != FanOut.READ) {
        promotion.promoteLater(target);
      }
    }
    if (targetFanOut != FanOut.READ && config.backfillPosts() > 0) {
      List<Long> recent =
          store.posts().postIdsSince(target, PostIds.inboxHorizonId(now), config.backfillPosts());
      store.inbox().addToInbox(uid, target, recent);
    }
  }

  /** The effect of the unfollow with {@code version} on the follower row (idempotent). */
  void applyUnfollow(String uid, String target, long version) {
    store.relations().putFollower(target, uid, false, version, 0);
  }

  /**
   * Loads edges in bulk. Each new edge's following row carries a pending column until its follower
   * row and the counters are written, so an import cut short is finished by {@link RelationRepair}.
   * Meant for loading a graph, not to race live follows of the same pairs.
   */
  long importFollows(List<Follow> edges) {
    long now = clock.millis();
    Map<String, long[]> counters = new HashMap<>();
    List<PendingChange> written = new ArrayList<>();
    for (int from = 0; from < edges.size(); from += IMPORT_CHUNK) {
      List<Follow> chunk = edges.subList(from, Math.min(edges.size(), from + IMPORT_CHUNK));
      for (Follow f : chunk) {
        checkPair(f.follower(), f.followee());
      }
      List<RelationState> states = store.relations().states(chunk);
      Set<String> seenInChunk = new HashSet<>();
      List<PendingChange> added = new ArrayList<>();
      for (int i = 0; i < chunk.size(); i++) {
        Follow f = chunk.get(i);
        RelationState state = states.get(i);
        if (state.following() || !seenInChunk.add(f.follower() + '\n' + f.followee())) {
          continue;
        }
        long version = Math.max(now, state.version() + 1);
        added.add(new PendingChange(f.follower(), f.followee(), version));
        counters.computeIfAbsent(f.follower(), k -> new long[2])[1]++;
        counters.computeIfAbsent(f.followee(), k -> new long[2])[0]++;
      }
      store.relations().writeImported(added, now);
      written.addAll(added);
    }
    List<String> toPromote = new ArrayList<>();
    counters.forEach(
        (uid, c) -> {
          long followers = store.users().addToCounters(uid, c[0], c[1], 0);
          if (c[0] > 0 && followers >= config.fanOutThreshold()) {
            toPromote.add(uid);
          }
        });
    for (int i = 0; i < written.size(); i += IMPORT_CHUNK) {
      store
          .relations()
          .clearPending(written.subList(i, Math.min(written.size(), i + IMPORT_CHUNK)));
    }
    for (String uid : toPromote) {
      promotion.promote(uid);
    }
    return written.size();
  }

  Page<String> followers(String uid, PageRequest page) {
    return related(uid, RelationKind.FOLLOWER, page);
  }

  Page<String> following(String uid, PageRequest page) {
    return related(uid, RelationKind.FOLLOWING, page);
  }

  private Page<String> related(String uid, RelationKind kind, PageRequest page) {
    Validation.uid(uid, "uid");
    String scope = WeiboCursors.scopeOf(kind);
    String after = page.cursor().map(c -> WeiboCursors.parseUsers(scope, c)).orElse(null);
    List<String> users = store.relations().related(uid, kind, after, page.fetchSize());
    return Page.of(users, page.limit(), last -> WeiboCursors.users(scope, last));
  }

  private static void checkPair(String uid, String target) {
    Validation.uid(uid, "uid");
    Validation.uid(target, "target");
    InvalidInputException.check(
        !uid.equals(target), "target", "a user cannot follow or unfollow themselves");
  }
}
