package org.casebook.weibo;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.casebook.core.InvalidInputException;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.weibo.WeiboStore.FanOut;
import org.casebook.weibo.WeiboStore.PendingTransition;
import org.casebook.weibo.WeiboStore.RelationCount;
import org.casebook.weibo.WeiboStore.UserRow;

/**
 * The social graph: follow and unfollow (a conditional transition of the following row, the truth,
 * then its idempotent effects: follower row, counters, read-merge marker, inbox back-fill), the
 * repair of transitions cut short, bulk import, and the followers/following listings.
 */
final class FollowGraph {
  private static final int IMPORT_CHUNK = 1000;
  private static final int REPAIR_BATCH = 1000;

  /** Recounts of one counter tried per repair run while concurrent increments keep winning. */
  private static final int RECOUNT_ATTEMPTS = 5;

  private final WeiboStore store;
  private final WeiboConfig config;
  private final Clock clock;
  private final FanOutPromotion promotion;

  FollowGraph(WeiboStore store, WeiboConfig config, Clock clock, FanOutPromotion promotion) {
    this.store = store;
    this.config = config;
    this.clock = clock;
    this.promotion = promotion;
  }

  /**
   * The following row is the truth: a conditional transition to following, then its effects (the
   * follower row, counters, marker, back-fill), then the pending column is cleared. A crash in
   * between leaves the pending column for {@link #repair}.
   */
  boolean follow(String uid, String target) {
    checkPair(uid, target);
    long version = store.transition(uid, target, true, clock);
    if (version < 0) {
      return false;
    }
    applyFollow(uid, target, version, true);
    store.clearPending(List.of(new PendingTransition(uid, target, version)));
    return true;
  }

  /**
   * A conditional transition to not following, the follower row and counters, then the pending
   * column is cleared. Nothing is deleted from the inbox: timelines check the relation when read
   * and clean up lazily.
   */
  boolean unfollow(String uid, String target) {
    checkPair(uid, target);
    long version = store.transition(uid, target, false, clock);
    if (version < 0) {
      return false;
    }
    store.putFollower(target, uid, false, version, 0);
    store.addToCounters(uid, 0, -1, 0);
    store.addToCounters(target, -1, 0, 0);
    store.clearPending(List.of(new PendingTransition(uid, target, version)));
    return true;
  }

  /** The transition alone, as if the process died right after it (crash tests). */
  long transitionOnly(String uid, String target, boolean follow) {
    checkPair(uid, target);
    return store.transition(uid, target, follow, clock);
  }

  /**
   * The effects of the follow with {@code version}, each idempotent: the follower row (before the
   * back-fill reads the target's posts: a post published meanwhile either sees this follower or is
   * seen by the back-fill), the counters if {@code count}, the read-merge marker, the back-fill.
   */
  private void applyFollow(String uid, String target, long version, boolean count) {
    long now = clock.millis();
    store.putFollower(target, uid, true, version, now);
    long followers;
    FanOut targetFanOut;
    if (count) {
      store.addToCounters(uid, 0, 1, 0);
      followers = store.addToCounters(target, 1, 0, 0);
      targetFanOut = store.user(target).fanOut();
    } else {
      UserRow row = store.user(target);
      followers = row.followers();
      targetFanOut = row.fanOut();
    }
    if (targetFanOut != FanOut.WRITE || followers >= config.fanOutThreshold()) {
      store.addMarkers(List.of(uid), target, now);
      if (targetFanOut != FanOut.READ) {
        promotion.promoteLater(target);
      }
    }
    if (targetFanOut != FanOut.READ && config.backfillPosts() > 0) {
      List<Long> recent = new ArrayList<>();
      store.forEachPostIdSince(
          target, PostIds.inboxHorizonId(now), config.backfillPosts(), recent::add);
      store.addToInbox(uid, target, recent);
    }
  }

  /**
   * Finishes transitions whose pending column is at least {@code minAgeMillis} old (younger ones
   * may still be running): re-applies the effects of each pair's latest transition, recounts the
   * two users' followers and following from the relation rows (see {@link #recount}), then clears
   * the pending columns. Pairs with a younger transition still pending, or whose users could not be
   * recounted, are left for a later run. Returns the transitions finished.
   */
  int repair(long minAgeMillis) {
    int repaired = 0;
    byte[] start = null;
    while (true) {
      List<PendingTransition> batch = store.pending(start, REPAIR_BATCH);
      if (batch.isEmpty()) {
        return repaired;
      }
      long now = clock.millis();
      Map<String, List<PendingTransition>> byPair = new LinkedHashMap<>();
      for (PendingTransition p : batch) {
        byPair.computeIfAbsent(p.uid() + '\n' + p.target(), k -> new ArrayList<>()).add(p);
      }
      // Users with a transition possibly still running are left alone: a recount racing its
      // increment could count it twice.
      Set<String> busy = new HashSet<>();
      for (PendingTransition p : batch) {
        if (now - p.version() < minAgeMillis) {
          busy.add(p.uid());
          busy.add(p.target());
        }
      }
      Set<String> users = new LinkedHashSet<>();
      List<PendingTransition> done = new ArrayList<>();
      for (List<PendingTransition> pair : byPair.values()) {
        if (busy.contains(pair.get(0).uid()) || busy.contains(pair.get(0).target())) {
          continue;
        }
        PendingTransition any = pair.get(0);
        byte[] row = WeiboKeys.relation(any.uid(), WeiboKeys.FOLLOWING, any.target());
        WeiboStore.RelationState state = store.relationStates(List.of(row)).get(0);
        boolean latestIsPending = pair.stream().anyMatch(p -> p.version() == state.version());
        if (latestIsPending && state.following()) {
          applyFollow(any.uid(), any.target(), state.version(), false);
        } else if (latestIsPending) {
          store.putFollower(any.target(), any.uid(), false, state.version(), 0);
        }
        users.add(any.uid());
        users.add(any.target());
        done.addAll(pair);
      }
      Set<String> recounted = new HashSet<>();
      for (String user : users) {
        if (recount(user, WeiboKeys.FOLLOWER, minAgeMillis)
            && recount(user, WeiboKeys.FOLLOWING, minAgeMillis)) {
          recounted.add(user);
        }
      }
      // A pair stays pending (and is repaired again by a later run) unless both users were
      // recounted.
      done.removeIf(p -> !recounted.contains(p.uid()) || !recounted.contains(p.target()));
      store.clearPending(done);
      repaired += done.size();
      if (batch.size() < REPAIR_BATCH) {
        return repaired;
      }
      PendingTransition last = batch.get(batch.size() - 1);
      start =
          KeyRange.successorOf(WeiboKeys.relation(last.uid(), WeiboKeys.FOLLOWING, last.target()));
    }
  }

  /**
   * Sets {@code user}'s counter of one relation kind to the number of such rows in state following.
   * The counter is read before the rows are counted and written only if it still holds that value,
   * so an increment of a change that lands meanwhile is never overwritten: the recount is retried
   * instead (re-read, re-count), a bounded number of times. A change of the user younger than
   * {@code minAgeMillis} seen among the rows may have its increment still to come: then nothing is
   * written. Returns whether the counter is now right.
   */
  private boolean recount(String user, int kind, long minAgeMillis) {
    for (int attempt = 0; attempt < RECOUNT_ATTEMPTS; attempt++) {
      byte[] before = store.relationCounter(user, kind);
      RelationCount count = store.countRelations(user, kind);
      if (clock.millis() - count.newestVersion() < minAgeMillis) {
        return false;
      }
      if (store.setRelationCounter(user, kind, before, count.following())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Loads edges in bulk. Each new edge's following row carries a pending column until its follower
   * row and the counters are written, so an import cut short is finished by {@link #repair}. Meant
   * for loading a graph, not to race live follows of the same pairs.
   */
  long importFollows(List<Follow> edges) {
    long now = clock.millis();
    Map<String, long[]> counters = new HashMap<>();
    List<PendingTransition> written = new ArrayList<>();
    try (BufferedMutator writer = store.relationWriter()) {
      for (int from = 0; from < edges.size(); from += IMPORT_CHUNK) {
        List<Follow> chunk = edges.subList(from, Math.min(edges.size(), from + IMPORT_CHUNK));
        List<byte[]> rows = new ArrayList<>(chunk.size());
        for (Follow f : chunk) {
          checkPair(f.follower(), f.followee());
          rows.add(WeiboKeys.relation(f.follower(), WeiboKeys.FOLLOWING, f.followee()));
        }
        List<WeiboStore.RelationState> states = store.relationStates(rows);
        Set<String> seenInChunk = new HashSet<>();
        for (int i = 0; i < chunk.size(); i++) {
          Follow f = chunk.get(i);
          WeiboStore.RelationState state = states.get(i);
          if (state.following() || !seenInChunk.add(f.follower() + '\n' + f.followee())) {
            continue;
          }
          long version = Math.max(now, state.version() + 1);
          writer.mutate(WeiboStore.followingPut(f.follower(), f.followee(), version, now));
          writer.mutate(WeiboStore.followerPut(f.followee(), f.follower(), true, version, now));
          written.add(new PendingTransition(f.follower(), f.followee(), version));
          counters.computeIfAbsent(f.follower(), k -> new long[2])[1]++;
          counters.computeIfAbsent(f.followee(), k -> new long[2])[0]++;
        }
        writer.flush();
      }
    } catch (IOException e) {
      throw StorageException.of("import follows", e);
    }
    List<String> toPromote = new ArrayList<>();
    counters.forEach(
        (uid, c) -> {
          long followers = store.addToCounters(uid, c[0], c[1], 0);
          if (c[0] > 0 && followers >= config.fanOutThreshold()) {
            toPromote.add(uid);
          }
        });
    for (int i = 0; i < written.size(); i += IMPORT_CHUNK) {
      store.clearPending(written.subList(i, Math.min(written.size(), i + IMPORT_CHUNK)));
    }
    for (String uid : toPromote) {
      promotion.promote(uid);
    }
    return written.size();
  }

  Page<String> followers(String uid, PageRequest page) {
    return related(uid, WeiboKeys.FOLLOWER, WeiboKeys.FOLLOWERS_SCOPE, page);
  }

  Page<String> following(String uid, PageRequest page) {
    return related(uid, WeiboKeys.FOLLOWING, WeiboKeys.FOLLOWING_SCOPE, page);
  }

  private Page<String> related(String uid, int kind, String scope, PageRequest page) {
    Validation.uid(uid, "uid");
    String after = page.cursor().map(c -> WeiboKeys.parseUserCursor(scope, c)).orElse(null);
    List<String> users = store.related(uid, kind, after, page.fetchSize());
    return Page.of(users, page.limit(), last -> WeiboKeys.userCursor(scope, last));
  }

  private static void checkPair(String uid, String target) {
    Validation.uid(uid, "uid");
    Validation.uid(target, "target");
    InvalidInputException.check(
        !uid.equals(target), "target", "a user cannot follow or unfollow themselves");
  }
}
