package org.casebook.frontier;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A host's place in the due index, kept with its next-due time: the due row is written before the
 * time that points at it and deleted after the time moved on, so a crash leaves at most an extra
 * due row (deleted when read), never a scheduled host the index cannot find.
 */
final class Schedule {
  private final HostStore hosts;
  private final DueStore due;

  Schedule(HostStore hosts, DueStore due) {
    this.hosts = Objects.requireNonNull(hosts, "hosts is null");
    this.due = Objects.requireNonNull(due, "due is null");
  }

  /**
   * Makes each host due at its time in {@code dues} if it is due later or not at all (its queue key
   * written too), and writes the due rows of those that moved; answers which moved.
   */
  List<Boolean> bringForward(Channel ch, List<byte[]> hostIds, List<String> keys, List<Long> dues) {
    List<Boolean> moved = hosts.moveNextEarlier(ch.id(), hostIds, keys, dues);
    List<DueHost> rows = new ArrayList<>();
    for (int i = 0; i < moved.size(); i++) {
      if (moved.get(i)) {
        rows.add(new DueHost(dues.get(i), hostIds.get(i)));
      }
    }
    due.put(ch.id(), rows);
    return moved;
  }

  /** Takes a host out of the index if it is still due at {@code expected}; answers whether. */
  boolean remove(Channel ch, byte[] hostId, long expected, String what) {
    boolean removed =
        hosts
            .decide(ch.id(), List.of(new HostChange.MoveNext(hostId, expected, null)), what)
            .get(0);
    if (removed) {
      due.delete(ch.id(), List.of(new DueHost(expected, hostId)));
    }
    return removed;
  }

  /** Moves a host due at {@code from} to {@code to}, if it still is due at {@code from}. */
  void move(Channel ch, byte[] hostId, long from, long to, String what) {
    due.put(ch.id(), List.of(new DueHost(to, hostId)));
    boolean moved =
        hosts.decide(ch.id(), List.of(new HostChange.MoveNext(hostId, from, to)), what).get(0);
    if (moved) {
      due.delete(ch.id(), List.of(new DueHost(from, hostId)));
    }
  }
}
