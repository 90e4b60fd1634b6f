package org.casebook.trails;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The condition language's meaning written the slow way, to check {@link ConditionMatcher}: every
 * combination of matched events is enumerated (no minimal spans, no binary search), and WHERE tests
 * compare numbers as cents parsed from the text.
 */
final class BruteForceConditions {
  private BruteForceConditions() {}

  /** A match: its first and last event time. */
  private record Span(long first, long last) {}

  static boolean matches(Condition.Query q, List<Event> events) {
    return truth(q, q.condition(), events);
  }

  private static boolean truth(Condition.Query q, Condition c, List<Event> events) {
    if (c instanceof Condition.Not n) {
      return !truth(q, n.operand(), events);
    }
    if (isTemporal(c)) {
      return !spans(q, c, events).isEmpty();
    }
    if (c instanceof Condition.Or o) {
      return o.operands().stream().anyMatch(x -> truth(q, x, events));
    }
    if (c instanceof Condition.And a) {
      return a.operands().stream().allMatch(x -> truth(q, x, events));
    }
    throw new AssertionError(c);
  }

  /** Temporal: a behaviour, THEN, an AND with a behaviour in it, an OR of only temporal nodes. */
  private static boolean isTemporal(Condition c) {
    if (c instanceof Condition.Term || c instanceof Condition.Then) {
      return true;
    }
    if (c instanceof Condition.And a) {
      return a.operands().stream().anyMatch(BruteForceConditions::isTemporal);
    }
    if (c instanceof Condition.Or o) {
      return o.operands().stream().allMatch(BruteForceConditions::isTemporal);
    }
    return false;
  }

  private static Set<Span> spans(Condition.Query q, Condition c, List<Event> events) {
    Set<Span> out = new HashSet<>();
    if (c instanceof Condition.Term t) {
      for (Event e : events) {
        if (e.type() == t.behaviour() && passesAll(q, e)) {
          out.add(new Span(e.ts(), e.ts()));
        }
      }
    } else if (c instanceof Condition.Or o) {
      o.operands().forEach(x -> out.addAll(spans(q, x, events)));
    } else if (c instanceof Condition.And a) {
      List<Set<Span>> sides = new ArrayList<>();
      for (Condition x : a.operands()) {
        if (isTemporal(x)) {
          sides.add(spans(q, x, events));
        } else if (!truth(q, x, events)) {
          return Set.of();
        }
      }
      for (List<Span> pick : product(sides)) {
        Span hull =
            new Span(
                pick.stream().mapToLong(Span::first).min().orElseThrow(),
                pick.stream().mapToLong(Span::last).max().orElseThrow());
        if (a.withinMs() == null || hull.last() - hull.first() <= a.withinMs()) {
          out.add(hull);
        }
      }
    } else if (c instanceof Condition.Then t) {
      List<Set<Span>> sides = new ArrayList<>();
      t.operands().forEach(x -> sides.add(spans(q, x, events)));
      for (List<Span> pick : product(sides)) {
        boolean ordered = true;
        for (int i = 1; i < pick.size(); i++) {
          ordered &= pick.get(i - 1).last() < pick.get(i).first();
        }
        Span whole = new Span(pick.get(0).first(), pick.get(pick.size() - 1).last());
        if (ordered && (t.withinMs() == null || whole.last() - whole.first() <= t.withinMs())) {
          out.add(whole);
        }
      }
    } else {
      throw new AssertionError("no spans for " + c);
    }
    return out;
  }

  private static List<List<Span>> product(List<Set<Span>> sides) {
    List<List<Span>> out = new ArrayList<>();
    out.add(List.of());
    for (Set<Span> side : sides) {
      List<List<Span>> next = new ArrayList<>();
      for (List<Span> prefix : out) {
        for (Span s : side) {
          List<Span> longer = new ArrayList<>(prefix);
          longer.add(s);
          next.add(longer);
        }
      }
      out = next;
    }
    return out;
  }

  private static boolean passesAll(Condition.Query q, Event e) {
    for (Condition.Test t : q.tests().getOrDefault(e.type(), List.of())) {
      if (!passes(t, e.fields().get(t.field().name()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean passes(Condition.Test t, String value) {
    if (t.field().kind() == Behaviour.Kind.TEXT) {
      return switch (t.op()) {
        case EQ -> value.equals(t.text());
        case NE -> !value.equals(t.text());
        case PREFIX -> value.regionMatches(0, t.text(), 0, t.text().length());
        default -> throw new AssertionError(t);
      };
    }
    long v = cents(value);
    long x = t.number().multiply(BigDecimal.valueOf(100)).longValueExact();
    return switch (t.op()) {
      case EQ -> v == x;
      case NE -> v != x;
      case LT -> v < x;
      case LE -> v <= x;
      case GT -> v > x;
      case GE -> v >= x;
      case PREFIX -> throw new AssertionError(t);
    };
  }

  /** "12", "12.5" or "12.50" as cents. */
  private static long cents(String v) {
    int dot = v.indexOf('.');
    if (dot < 0) {
      return Long.parseLong(v) * 100;
    }
    String frac = (v.substring(dot + 1) + "00").substring(0, 2);
    return Long.parseLong(v.substring(0, dot)) * 100 + Long.parseLong(frac);
  }
}
