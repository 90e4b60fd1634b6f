package org.casebook.frontier;

import java.util.Objects;

/** An entry of the due index: host {@code hostId} is due at {@code due} (ms). */
record DueHost(long due, byte[] hostId) {
  DueHost {
    Objects.requireNonNull(hostId, "hostId is null");
  }
}
