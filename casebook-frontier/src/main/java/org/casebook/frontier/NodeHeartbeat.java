package org.casebook.frontier;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.casebook.core.CasebookException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process as a frontier node: its row in {@code frontier:nodes}, written when it joins,
 * renewed every period on a background scheduler and deleted at a clean stop. A process killed
 * without a stop leaves its row to expire ({@link NodeRow#liveAt}) and to be deleted later by a
 * listing ({@link FrontierNodes}).
 *
 * <p>A failed renewal is logged and tried again at the next period; the node is unhealthy once no
 * renewal has held for longer than the expiry, since other nodes then list it no longer. Renewals
 * do not pass the write gate: a node row is membership, not crawl data a backup must see with the
 * rows around it, and a backup pausing heartbeats would make every node look dead.
 */
final class NodeHeartbeat implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeHeartbeat.class);

  private final NodeStore store;
  private final Clock clock;
  private final NodeRow self;

  /** Renewals and the stop's delete take turns, so no renewal lands after the delete. */
  private final Object turn = new Object();

  private volatile long lastStored;
  private volatile ScheduledFuture<?> schedule;
  private boolean stopped;

  private NodeHeartbeat(NodeStore store, Clock clock, NodeRow self) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.self = Objects.requireNonNull(self, "self is null");
    this.lastStored = self.startedAt();
  }

  /**
   * A new node at {@code address} ({@code host:port}) under a random id, its row written once (a
   * failure is logged: the first renewal writes it).
   */
  static NodeHeartbeat join(NodeStore store, Clock clock, String address, Duration period) {
    long now = clock.millis();
    NodeRow self =
        new NodeRow(ThreadLocalRandom.current().nextLong(), address, now, now, period.toMillis());
    NodeHeartbeat node = new NodeHeartbeat(store, clock, self);
    if (node.beat()) {
      LOG.info("frontier: node {} at {} joined", self.idText(), address);
    }
    return node;
  }

  /** Renews the row every period on {@code scheduler}. */
  void startOn(ScheduledExecutorService scheduler) {
    schedule =
        scheduler.scheduleWithFixedDelay(
            this::beatLogged, self.periodMillis(), self.periodMillis(), TimeUnit.MILLISECONDS);
  }

  /** This node: its id, address, start and period. */
  NodeRow self() {
    return self;
  }

  /**
   * Writes the row with a heartbeat of now; answers whether it was stored. A failure is logged,
   * never thrown: the next period tries again.
   */
  boolean beat() {
    synchronized (turn) {
      if (stopped) {
        return false;
      }
      long now = clock.millis();
      try {
        store.put(self.beatAt(now));
      } catch (CasebookException e) {
        LOG.warn(
            "frontier: heartbeat of node {} not stored; next try in {} ms: {}",
            self.idText(),
            self.periodMillis(),
            e.getMessage());
        return false;
      }
      lastStored = now;
      return true;
    }
  }

  private void beatLogged() {
    try {
      beat();
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("frontier: heartbeat of node {} failed; it runs again", self.idText(), e);
    }
  }

  /**
   * Whether renewals are scheduled and one held within the expiry, so other nodes list this one.
   */
  boolean healthy() {
    ScheduledFuture<?> s = schedule;
    return s != null && !s.isDone() && clock.millis() - lastStored <= self.expiryMillis();
  }

  /** Leaves: no renewal after this, and the row goes, so the node drops out of listings at once. */
  @Override
  public void close() {
    synchronized (turn) {
      if (stopped) {
        return;
      }
      stopped = true;
      try {
        store.delete(self.id());
        LOG.info("frontier: node {} at {} left", self.idText(), self.address());
      } catch (CasebookException e) {
        LOG.warn(
            "frontier: row of node {} not deleted; it expires in {} ms: {}",
            self.idText(),
            self.expiryMillis(),
            e.getMessage());
      }
    }
  }
}
