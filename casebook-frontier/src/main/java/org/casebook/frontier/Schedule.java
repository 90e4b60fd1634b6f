package org.casebook.frontier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A host's place in the due index, kept with its stamp: a change writes the due row of its new
 * stamp, then sets the stamp by check-and-mutate on the one it read, then deletes the row of the
 * stamp it replaced. A crash leaves at most a due row no stamp points at, which readers delete; a
 * stamp never points at a missing row.
 */
final class Schedule {
  /** Reads and tries of a host's stamp before a put leaves the host at a later time. */
  private static final int ROUNDS = 8;

  private final HostStore hosts;
  private final DueStore due;

  Schedule(HostStore hosts, DueStore due) {
    this.hosts = Objects.requireNonNull(hosts, "hosts is null");
    this.due = Objects.requireNonNull(due, "due is null");
  }

  /**
   * Makes each host due at its time in {@code dues} if it is due later or not at all (its queue key
   * written with it); answers which moved. A host another writer moves meanwhile is read again: a
   * stamp is replaced only as read.
   */
  List<Boolean> bringForward(Channel ch, List<byte[]> hostIds, List<String> keys, List<Long> dues) {
    List<Boolean> moved = new ArrayList<>(hostIds.size());
    List<Integer> left = new ArrayList<>(hostIds.size());
    for (int i = 0; i < hostIds.size(); i++) {
      moved.add(false);
      left.add(i);
    }
    for (int round = 0; round < ROUNDS && !left.isEmpty(); round++) {
      List<byte[]> ids = new ArrayList<>(left.size());
      left.forEach(i -> ids.add(hostIds.get(i)));
      Map<HostKey, HostRow> rows = hosts.hosts(ch.id(), ids);
      List<Integer> tried = new ArrayList<>();
      List<HostChange> changes = new ArrayList<>();
      List<DueHost> puts = new ArrayList<>();
      for (int i : left) {
        HostRow h = rows.get(new HostKey(hostIds.get(i)));
        DueStamp from = h == null ? null : h.stamp();
        if (from != null && from.scheduled() && from.due() <= dues.get(i)) {
          continue;
        }
        DueStamp next = DueStamp.at(dues.get(i));
        tried.add(i);
        puts.add(DueHost.of(next, hostIds.get(i), from));
        changes.add(new HostChange.Move(hostIds.get(i), from, next, keys.get(i)));
      }
      due.put(ch.id(), puts);
      List<Boolean> ok = hosts.decide(ch.id(), changes, "schedule hosts");
      List<DueHost> retired = new ArrayList<>();
      left = new ArrayList<>();
      for (int j = 0; j < tried.size(); j++) {
        if (ok.get(j)) {
          moved.set(tried.get(j), true);
          addRowOf(retired, changes.get(j));
        } else {
          left.add(tried.get(j));
        }
      }
      due.delete(ch.id(), retired);
    }
    return moved;
  }

  /** Takes a host out of the index if its stamp is still {@code expected}; answers whether. */
  boolean remove(Channel ch, byte[] hostId, DueStamp expected, String what) {
    return change(ch, new HostChange.Move(hostId, expected, DueStamp.none(), null), what);
  }

  /** Moves a host to {@code to} if its stamp is still {@code expected}; answers whether. */
  boolean move(Channel ch, byte[] hostId, DueStamp expected, long to, String what) {
    DueStamp next = DueStamp.at(to);
    due.put(ch.id(), List.of(DueHost.of(next, hostId, expected)));
    return change(ch, new HostChange.Move(hostId, expected, next, null), what);
  }

  /**
   * Makes one change and retires the row it replaced. A check-and-mutate the client sent again
   * after it landed answers false; the stamp then is this change's own, which only it writes.
   */
  private boolean change(Channel ch, HostChange c, String what) {
    boolean ok = hosts.decide(ch.id(), List.of(c), what).get(0);
    if (!ok) {
      ok = hosts.host(ch.id(), c.hostId()).map(h -> c.next().equals(h.stamp())).orElse(false);
    }
    if (ok) {
      List<DueHost> retired = new ArrayList<>(1);
      addRowOf(retired, c);
      due.delete(ch.id(), retired);
    }
    return ok;
  }

  /** The due row of the stamp {@code c} replaced, if it had one. */
  private static void addRowOf(List<DueHost> rows, HostChange c) {
    DueStamp old = c.expected();
    if (old != null && old.scheduled()) {
      rows.add(DueHost.of(old, c.hostId(), null));
    }
  }
}
