package org.casebook.trails;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * A condition on one user's events across behaviours and on their values (seed 000 §3.2.1), such as
 * {@code play AND order WITHIN 1d WHERE order.price > 10} or {@code login THEN play WITHIN 2h}:
 * parsed and type-checked once, then evaluated per user. The language is in the module README.
 */
public final class TrailCondition {
  private final String text;
  private final Condition.Query query;
  private final Set<Behaviour> behaviours;

  private TrailCondition(String text, Condition.Query query) {
    this.text = text;
    this.query = query;
    Set<Behaviour> named = new HashSet<>();
    collect(query.condition(), named);
    this.behaviours = Set.copyOf(named);
  }

  /**
   * Parses {@code text}.
   *
   * @throws InvalidInputException on {@code query}: a syntax error (with its position and token),
   *     an unknown behaviour or field, a comparison its field's type does not take, or a query over
   *     the language's bounds
   */
  public static TrailCondition parse(String text, BehaviourLookup behaviours) {
    return new TrailCondition(text, ConditionParser.parse(text, behaviours));
  }

  /** As {@link #parse(String, BehaviourLookup)} over the four built-in behaviours alone. */
  public static TrailCondition parse(String text) {
    return parse(text, Behaviours.BUILT_INS);
  }

  /** The query as given. */
  public String text() {
    return text;
  }

  /** The behaviours the condition names: the only events it reads. */
  public Set<Behaviour> behaviours() {
    return behaviours;
  }

  /** Whether one user's events (in the query's date range, any order) satisfy the condition. */
  public boolean matches(List<Event> events) {
    Objects.requireNonNull(events, "events is null");
    return ConditionMatcher.matches(query, events);
  }

  Condition.Query query() {
    return query;
  }

  private static void collect(Condition c, Set<Behaviour> out) {
    if (c instanceof Condition.Term t) {
      out.add(t.behaviour());
    } else if (c instanceof Condition.Not n) {
      collect(n.operand(), out);
    } else if (c instanceof Condition.And a) {
      a.operands().forEach(x -> collect(x, out));
    } else if (c instanceof Condition.Or o) {
      o.operands().forEach(x -> collect(x, out));
    } else if (c instanceof Condition.Then t) {
      t.operands().forEach(x -> collect(x, out));
    }
  }

  @Override
  public String toString() {
    return text;
  }
}
