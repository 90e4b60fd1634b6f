package org.casebook.trails;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a {@link Condition.Query} over one user's events. A temporal node's value is the set of
 * its matches, each the span from its first to its last matched event; only minimal spans are kept
 * (none containing another), since every operator does at least as well with a span inside another
 * one: an AND's hull, a THEN's order and a WITHIN's length all only improve. Minimal spans sorted
 * by start are sorted by end too, so each operator is a merge with binary search, not a product of
 * the operands' matches.
 */
final class ConditionMatcher {
  /** Minimal spans, ascending by start (and so by end); both arrays of the same length. */
  private static final class Spans {
    static final Spans NONE = new Spans(new long[0], new long[0]);

    final long[] starts;
    final long[] ends;

    Spans(long[] starts, long[] ends) {
      this.starts = starts;
      this.ends = ends;
    }

    int size() {
      return starts.length;
    }

    /** First index whose start is at least {@code t} (or {@code size()}). */
    int firstStartingFrom(long t) {
      int at = Arrays.binarySearch(starts, t);
      if (at < 0) {
        return -at - 1;
      }
      while (at > 0 && starts[at - 1] == t) {
        at--;
      }
      return at;
    }
  }

  private final Map<Behaviour, Spans> byBehaviour = new HashMap<>();

  private ConditionMatcher(Condition.Query query, List<Event> events) {
    Map<Behaviour, List<Long>> times = new HashMap<>();
    for (Event e : events) {
      List<Condition.Test> tests = query.tests().getOrDefault(e.type(), List.of());
      if (tests.stream().allMatch(t -> t.passes(e))) {
        times.computeIfAbsent(e.type(), b -> new ArrayList<>()).add(e.ts());
      }
    }
    times.forEach(
        (b, ts) -> {
          long[] sorted = ts.stream().mapToLong(Long::longValue).sorted().distinct().toArray();
          byBehaviour.put(b, new Spans(sorted, sorted.clone()));
        });
  }

  /** Whether the events (one user's, in any order) satisfy the query. */
  static boolean matches(Condition.Query query, List<Event> events) {
    return holds(new ConditionMatcher(query, events), query.condition());
  }

  private static boolean holds(ConditionMatcher m, Condition c) {
    return c.temporal() ? m.spans(c).size() > 0 : m.truth(c);
  }

  /** The value of a node that is only true or false. */
  private boolean truth(Condition c) {
    if (c instanceof Condition.Not n) {
      return !holds(this, n.operand());
    }
    if (c instanceof Condition.Or o) {
      return o.operands().stream().anyMatch(x -> holds(this, x));
    }
    if (c instanceof Condition.And a) {
      return a.operands().stream().allMatch(x -> holds(this, x));
    }
    throw new IllegalStateException("not a true/false node: " + c);
  }

  private Spans spans(Condition c) {
    if (c instanceof Condition.Term t) {
      return byBehaviour.getOrDefault(t.behaviour(), Spans.NONE);
    }
    if (c instanceof Condition.Or o) {
      List<long[]> all = new ArrayList<>();
      for (Condition x : o.operands()) {
        Spans s = spans(x);
        for (int i = 0; i < s.size(); i++) {
          all.add(new long[] {s.starts[i], s.ends[i]});
        }
      }
      return minimal(all);
    }
    if (c instanceof Condition.And a) {
      Spans acc = null;
      for (Condition x : a.operands()) {
        if (!x.temporal()) {
          if (!truth(x)) {
            return Spans.NONE;
          }
        } else {
          acc = acc == null ? spans(x) : both(acc, spans(x));
        }
      }
      if (acc == null) {
        throw new IllegalStateException("an AND without behaviours has no spans: " + c);
      }
      return within(acc, a.withinMs());
    }
    if (c instanceof Condition.Then t) {
      Spans acc = spans(t.operands().get(0));
      for (int i = 1; i < t.operands().size() && acc.size() > 0; i++) {
        acc = followedBy(acc, spans(t.operands().get(i)));
      }
      return within(acc, t.withinMs());
    }
    throw new IllegalStateException("no spans for a true/false node: " + c);
  }

  /**
   * Hulls of one span of each: for each span, the other side's first span starting at or after it
   * gives the smallest hull among those that start no earlier, so these candidates hold a minimal
   * hull of every pair.
   */
  private static Spans both(Spans x, Spans y) {
    List<long[]> out = new ArrayList<>();
    pairForward(x, y, out);
    pairForward(y, x, out);
    return minimal(out);
  }

  private static void pairForward(Spans from, Spans other, List<long[]> out) {
    for (int i = 0; i < from.size(); i++) {
      int j = other.firstStartingFrom(from.starts[i]);
      if (j < other.size()) {
        out.add(new long[] {from.starts[i], Math.max(from.ends[i], other.ends[j])});
      }
    }
  }

  /** Spans of {@code x} followed strictly later by one of {@code y}: the earliest such for each. */
  private static Spans followedBy(Spans x, Spans y) {
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < x.size(); i++) {
      int j = y.firstStartingFrom(x.ends[i] + 1);
      if (j < y.size()) {
        out.add(new long[] {x.starts[i], y.ends[j]});
      }
    }
    return minimal(out);
  }

  private static Spans within(Spans s, Long withinMs) {
    if (withinMs == null) {
      return s;
    }
    List<long[]> kept = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      if (s.ends[i] - s.starts[i] <= withinMs) {
        kept.add(new long[] {s.starts[i], s.ends[i]});
      }
    }
    return minimal(kept);
  }

  /**
   * Drops every span that contains another (or repeats one): from the latest start down, a span is
   * kept only if it ends before every span kept so far.
   */
  private static Spans minimal(List<long[]> spans) {
    spans.sort((a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : Long.compare(a[1], b[1]));
    long[] starts = new long[spans.size()];
    long[] ends = new long[spans.size()];
    int n = 0;
    long earliestEnd = Long.MAX_VALUE;
    for (long[] s : spans) {
      if (s[1] < earliestEnd) {
        starts[n] = s[0];
        ends[n] = s[1];
        earliestEnd = s[1];
        n++;
      }
    }
    long[] ascStarts = new long[n];
    long[] ascEnds = new long[n];
    for (int i = 0; i < n; i++) {
      ascStarts[i] = starts[n - 1 - i];
      ascEnds[i] = ends[n - 1 - i];
    }
    return new Spans(ascStarts, ascEnds);
  }
}
