package org.casebook.frontier;

import java.util.Objects;

/**
 * A frontier node as its row in {@code frontier:nodes} holds it: where its gRPC service listens
 * ({@code host:port}), when it started, when it last renewed its row and how often it renews it
 * (ms), so every reader judges each node by its own period.
 */
record NodeRow(long id, String address, long startedAt, long heartbeatAt, long periodMillis) {
  /** A node is live while its heartbeat is younger than this many of its periods. */
  static final int LIVE_PERIODS = 3;

  NodeRow {
    Objects.requireNonNull(address, "address is null");
    if (periodMillis <= 0) {
      throw new IllegalArgumentException("periodMillis must be positive: " + periodMillis);
    }
  }

  /** How long after its last heartbeat the node still counts as live. */
  long expiryMillis() {
    return LIVE_PERIODS * periodMillis;
  }

  /** Whether the node counts as live at {@code now} (its heartbeat younger than the expiry). */
  boolean liveAt(long now) {
    return now - heartbeatAt < expiryMillis();
  }

  /** The same node, renewed at {@code now}. */
  NodeRow beatAt(long now) {
    return new NodeRow(id, address, startedAt, now, periodMillis);
  }

  /** The node id as logs and health show it. */
  String idText() {
    return String.format("%016x", id);
  }
}
