package org.casebook.frontier;

/**
 * A single-row decision on a host's schedule, made only if the row is still as read (one writer
 * wins): {@link HostStore#decide} runs a batch of them.
 */
sealed interface HostChange {
  byte[] hostId();

  /**
   * Claims a host for a hand-out: if its next-due time and last hand-out are still those of {@code
   * host} as read, sets last = {@code now} and next = {@code newNext} (the politeness rule).
   */
  record Claim(HostRow host, long now, long newNext) implements HostChange {
    @Override
    public byte[] hostId() {
      return host.hostId();
    }
  }

  /**
   * Moves (or with {@code newNext} null removes) the next-due time if it is still {@code expected}.
   */
  record MoveNext(byte[] hostId, long expected, Long newNext) implements HostChange {}

  /**
   * Sets the next-due time if the host has none (a due row left over was found for a host without
   * one; the caller wrote the due row of {@code due} first).
   */
  record AdoptNext(byte[] hostId, long due) implements HostChange {}
}
