package org.casebook.weibo;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Finishes follows and unfollows cut short by a crash between the transition of the following row
 * and the end of its effects (its pending column is still there): re-applies the effects of the
 * pair's latest transition and recounts the two users' counters from the relation rows.
 */
final class RelationRepair {
  private static final int REPAIR_BATCH = 1000;

  /** Recounts of one counter tried per repair run while concurrent increments keep winning. */
  private static final int RECOUNT_ATTEMPTS = 5;

  private final WeiboStore store;
  private final FollowGraph graph;
  private final Clock clock;

  RelationRepair(WeiboStore store, FollowGraph graph, Clock clock) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.graph = Objects.requireNonNull(graph, "graph is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
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
    PendingChange after = null;
    while (true) {
      List<PendingChange> batch = store.relations().pending(after, REPAIR_BATCH);
      if (batch.isEmpty()) {
        return repaired;
      }
      long now = clock.millis();
      Map<String, List<PendingChange>> byPair = new LinkedHashMap<>();
      for (PendingChange p : batch) {
        byPair.computeIfAbsent(p.uid() + '\n' + p.target(), k -> new ArrayList<>()).add(p);
      }
      // Users with a transition possibly still running are left alone: a recount racing its
      // increment could count it twice.
      Set<String> busy = new HashSet<>();
      for (PendingChange p : batch) {
        if (now - p.version() < minAgeMillis) {
          busy.add(p.uid());
          busy.add(p.target());
        }
      }
      Set<String> users = new LinkedHashSet<>();
      List<PendingChange> done = new ArrayList<>();
      for (List<PendingChange> pair : byPair.values()) {
        if (busy.contains(pair.get(0).uid()) || busy.contains(pair.get(0).target())) {
          continue;
        }
        PendingChange any = pair.get(0);
        RelationState state = store.relations().state(any.uid(), any.target());
        boolean latestIsPending = pair.stream().anyMatch(p -> p.version() == state.version());
        if (latestIsPending && state.following()) {
          graph.applyFollow(any.uid(), any.target(), state.version(), false);
        } else if (latestIsPending) {
          graph.applyUnfollow(any.uid(), any.target(), state.version());
        }
        users.add(any.uid());
        users.add(any.target());
        done.addAll(pair);
      }
      Set<String> recounted = new HashSet<>();
      for (String user : users) {
        if (recount(user, RelationKind.FOLLOWER, minAgeMillis)
            && recount(user, RelationKind.FOLLOWING, minAgeMillis)) {
          recounted.add(user);
        }
      }
      // A pair stays pending (and is repaired again by a later run) unless both users were
      // recounted.
      done.removeIf(p -> !recounted.contains(p.uid()) || !recounted.contains(p.target()));
      store.relations().clearPending(done);
      repaired += done.size();
      if (batch.size() < REPAIR_BATCH) {
        return repaired;
      }
      after = batch.get(batch.size() - 1);
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
  private boolean recount(String user, RelationKind kind, long minAgeMillis) {
    for (int attempt = 0; attempt < RECOUNT_ATTEMPTS; attempt++) {
      OptionalLong before = store.users().relationCounter(user, kind);
      RelationCount count = store.relations().count(user, kind);
      if (clock.millis() - count.newestVersion() < minAgeMillis) {
        return false;
      }
      if (store.users().setRelationCounter(user, kind, before, count.following())) {
        return true;
      }
    }
    return false;
  }
}
