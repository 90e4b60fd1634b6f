package org.casebook.frontier;

import java.util.Objects;

/**
 * A row of the due index: host {@code hostId} is due at {@code due}. {@code token} is that of the
 * host's {@link DueStamp} the row was written for (0: a row written before tokens), {@code from}
 * the stamp its writer read and replaces after writing the row (null: the host had none).
 */
record DueHost(long due, byte[] hostId, long token, DueStamp from) {
  DueHost {
    Objects.requireNonNull(hostId, "hostId is null");
  }

  /** The row of {@code stamp} (scheduled), written by a change from {@code from}. */
  static DueHost of(DueStamp stamp, byte[] hostId, DueStamp from) {
    return new DueHost(stamp.due(), hostId, stamp.token(), from);
  }

  /** Whether this is the row of {@code stamp}: where the index finds the host now. */
  boolean isRowOf(DueStamp stamp) {
    return stamp != null && stamp.scheduled() && stamp.due() == due && stamp.token() == token;
  }

  /**
   * Whether the row may still become its host's place: its writer found the host at {@code current}
   * and its check-and-mutate from there may not have landed yet. Stamps never come back, so once
   * the host moved on from {@code from}, that check-and-mutate can never hold.
   */
  boolean pendingOn(DueStamp current) {
    return token != 0 && Objects.equals(from, current);
  }
}
