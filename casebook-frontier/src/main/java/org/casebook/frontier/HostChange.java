package org.casebook.frontier;

/**
 * A single-row change of a host's place in the due index, made only if the host's stamp is still
 * {@link #expected} (null: it has none): {@link HostStore#decide} runs a batch of them. Stamps
 * never come back, so one writer wins per stamp read. A due row for {@link #next} is written first.
 */
sealed interface HostChange {
  byte[] hostId();

  DueStamp expected();

  DueStamp next();

  /**
   * Claims a host for a hand-out: its stamp becomes {@code next}, its last hand-out {@code now}.
   */
  record Claim(HostRow host, long now, DueStamp next) implements HostChange {
    @Override
    public byte[] hostId() {
      return host.hostId();
    }

    @Override
    public DueStamp expected() {
      return host.stamp();
    }
  }

  /**
   * Moves the host to {@code next} (unscheduled when it has no time), writing the queue key too
   * when {@code key} is not null.
   */
  record Move(byte[] hostId, DueStamp expected, DueStamp next, String key) implements HostChange {}
}
