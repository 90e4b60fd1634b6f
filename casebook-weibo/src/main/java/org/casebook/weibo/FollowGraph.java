package org.casebook.weibo;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.casebook.core.InvalidInputException;
import org.casebook.core.StorageException;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.weibo.WeiboStore.FanOut;

/**
 * The social graph: follow and unfollow (both directions of the relation, counters, inbox back-fill
 * and clean-up, read-merge markers), bulk import, and the followers/following listings.
 */
final class FollowGraph {
  private static final int IMPORT_CHUNK = 1000;
  private static final int CLEANUP_CHUNK = 1000;

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

  boolean follow(String uid, String target) {
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
        promotion.promoteLater(target);
      }
    }
    if (targetFanOut != FanOut.READ && config.backfillPosts() > 0) {
      List<Long> recent = new ArrayList<>();
      store.forEachPostIdSince(
          target, PostIds.inboxHorizonId(now), config.backfillPosts(), recent::add);
      store.changeInbox(uid, target, recent, false);
    }
    return created;
  }

  boolean unfollow(String uid, String target) {
    checkPair(uid, target);
    boolean removed = store.removeRelation(uid, WeiboKeys.FOLLOWING, target);
    store.deleteRelations(List.of(WeiboKeys.relation(target, WeiboKeys.FOLLOWER, uid)));
    store.changeMarkers(List.of(uid), target, 0, true);
    if (removed) {
      store.addToCounters(uid, 0, -1, 0);
      store.addToCounters(target, -1, 0, 0);
    }
    List<Long> chunk = new ArrayList<>();
    store.forEachPostIdSince(
        target,
        PostIds.inboxHorizonId(clock.millis()),
        Integer.MAX_VALUE,
        id -> {
          chunk.add(id);
          if (chunk.size() == CLEANUP_CHUNK) {
            store.changeInbox(uid, target, chunk, true);
            chunk.clear();
          }
        });
    store.changeInbox(uid, target, chunk, true);
    return removed;
  }

  long importFollows(List<Follow> edges) {
    long now = clock.millis();
    Map<String, long[]> counters = new HashMap<>();
    long added = 0;
    try (BufferedMutator writer = store.relationWriter()) {
      for (int from = 0; from < edges.size(); from += IMPORT_CHUNK) {
        List<Follow> chunk = edges.subList(from, Math.min(edges.size(), from + IMPORT_CHUNK));
        List<byte[]> rows = new ArrayList<>(chunk.size());
        for (Follow f : chunk) {
          checkPair(f.follower(), f.followee());
          rows.add(WeiboKeys.relation(f.follower(), WeiboKeys.FOLLOWING, f.followee()));
        }
        boolean[] exists = store.relationsExist(rows);
        Set<String> seenInChunk = new HashSet<>();
        for (int i = 0; i < chunk.size(); i++) {
          Follow f = chunk.get(i);
          if (exists[i] || !seenInChunk.add(f.follower() + '\n' + f.followee())) {
            continue;
          }
          writer.mutate(WeiboStore.relationPut(rows.get(i), now));
          byte[] reverse = WeiboKeys.relation(f.followee(), WeiboKeys.FOLLOWER, f.follower());
          writer.mutate(WeiboStore.relationPut(reverse, now));
          counters.computeIfAbsent(f.follower(), k -> new long[2])[1]++;
          counters.computeIfAbsent(f.followee(), k -> new long[2])[0]++;
          added++;
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
    for (String uid : toPromote) {
      promotion.promote(uid);
    }
    return added;
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
