package org.casebook.frontier;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.CasebookException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frontier nodes sharing these tables, as ListNodes answers them: read from {@code
 * frontier:nodes} with one bounded scan. A node is live while its last heartbeat is younger than
 * {@link NodeRow#LIVE_PERIODS} of its own periods; the listing deletes the rows it reads of nodes
 * dead for longer than {@link #FORGET_AFTER}, so rows of killed processes do not pile up.
 */
final class FrontierNodes {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierNodes.class);

  /** Node rows a listing reads at most. */
  static final int MAX_ROWS = 1000;

  /** A node silent this long is gone for good: its row is deleted by whoever lists. */
  static final Duration FORGET_AFTER = Duration.ofDays(1);

  private final NodeStore store;
  private final Clock clock;

  FrontierNodes(NodeStore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /**
   * The addresses ({@code host:port}) of the live nodes: {@code self} first when this process is a
   * node (null otherwise), listed whatever its row says, then the others sorted by address, each
   * address once (a node restarted on its port after a kill would otherwise show twice until the
   * old row expires).
   */
  List<String> live(NodeRow self) {
    long now = clock.millis();
    List<String> others = new ArrayList<>();
    List<NodeRow> forgotten = new ArrayList<>();
    for (NodeRow n : store.nodes(MAX_ROWS)) {
      if (self != null && n.id() == self.id()) {
        continue;
      }
      if (n.liveAt(now)) {
        others.add(n.address());
      } else if (now - n.heartbeatAt() > FORGET_AFTER.toMillis()) {
        forgotten.add(n);
      }
    }
    forget(forgotten);
    others.sort(null);
    Set<String> out = new LinkedHashSet<>();
    if (self != null) {
      out.add(self.address());
    }
    out.addAll(others);
    return List.copyOf(out);
  }

  /** Deletes rows of nodes dead for long; a failure is logged, the next listing tries again. */
  private void forget(List<NodeRow> dead) {
    if (dead.isEmpty()) {
      return;
    }
    try {
      int deleted = store.deleteIfUnchanged(dead);
      LOG.info("frontier: deleted {} row(s) of nodes silent for over {}", deleted, FORGET_AFTER);
    } catch (CasebookException e) {
      LOG.warn("frontier: rows of long-dead nodes not deleted; next listing: {}", e.getMessage());
    }
  }
}
