package org.casebook.trails;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The syntax tree of a condition over one user's events ({@link TrailCondition}), as {@link
 * ConditionParser} builds it: immutable, checked for types when parsed.
 */
sealed interface Condition {
  /**
   * Whether the node stands for events in time (a behaviour, or AND/OR/THEN of such), which THEN
   * and WITHIN need; NOT, and any combination with it, is only true or false.
   */
  boolean temporal();

  /** A behaviour: its events that pass the query's tests on that behaviour. */
  record Term(Behaviour behaviour) implements Condition {
    public Term {
      Objects.requireNonNull(behaviour, "behaviour is null");
    }

    @Override
    public boolean temporal() {
      return true;
    }
  }

  /** None of the operand's matches exists. */
  record Not(Condition operand) implements Condition {
    public Not {
      Objects.requireNonNull(operand, "operand is null");
    }

    @Override
    public boolean temporal() {
      return false;
    }
  }

  /**
   * Every operand holds; the temporal operands' matched events lie within {@code withinMs} of each
   * other (first to last), when given.
   */
  record And(List<Condition> operands, Long withinMs) implements Condition {
    public And {
      operands = List.copyOf(operands);
    }

    @Override
    public boolean temporal() {
      return operands.stream().anyMatch(Condition::temporal);
    }
  }

  /** Some operand holds. */
  record Or(List<Condition> operands) implements Condition {
    public Or {
      operands = List.copyOf(operands);
    }

    @Override
    public boolean temporal() {
      return operands.stream().allMatch(Condition::temporal);
    }
  }

  /**
   * Each operand's match ends strictly before the next one's begins; the first to last event lie
   * within {@code withinMs}, when given.
   */
  record Then(List<Condition> operands, Long withinMs) implements Condition {
    public Then {
      operands = List.copyOf(operands);
    }

    @Override
    public boolean temporal() {
      return true;
    }
  }

  /** The comparison operators of a WHERE test, as written. */
  enum Op {
    EQ("="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    PREFIX("~");

    final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    /** The operators a field of this kind takes. */
    static Set<Op> allowedFor(Behaviour.Kind kind) {
      return kind == Behaviour.Kind.TEXT ? Set.of(EQ, NE, PREFIX) : Set.of(EQ, NE, LT, LE, GT, GE);
    }
  }

  /**
   * One WHERE test on a behaviour's field: {@code text} for a TEXT field, {@code number} for a
   * COUNT or MONEY field (the other one null). An {@code extra} test reads the event's extra field
   * of that name (a TEXT field), one the behaviour does not declare.
   */
  record Test(
      Behaviour behaviour,
      Behaviour.Field field,
      Op op,
      String text,
      BigDecimal number,
      boolean extra) {
    public Test {
      Objects.requireNonNull(behaviour, "behaviour is null");
      Objects.requireNonNull(field, "field is null");
      Objects.requireNonNull(op, "op is null");
      if (extra && field.kind() != Behaviour.Kind.TEXT) {
        throw new IllegalArgumentException("an extra field is text");
      }
    }

    /** A test on a declared field. */
    Test(Behaviour behaviour, Behaviour.Field field, Op op, String text, BigDecimal number) {
      this(behaviour, field, op, text, number, false);
    }

    /** Whether {@code e} (an event of {@link #behaviour}) passes. */
    boolean passes(Event e) {
      String value = extra ? e.extras().get(field.name()) : e.fields().get(field.name());
      if (value == null) {
        return false;
      }
      if (field.kind() == Behaviour.Kind.TEXT) {
        return switch (op) {
          case EQ -> value.equals(text);
          case NE -> !value.equals(text);
          case PREFIX -> value.startsWith(text);
          default -> throw new IllegalStateException(op + " on text field " + field.name());
        };
      }
      int c = new BigDecimal(value).compareTo(number);
      return switch (op) {
        case EQ -> c == 0;
        case NE -> c != 0;
        case LT -> c < 0;
        case LE -> c <= 0;
        case GT -> c > 0;
        case GE -> c >= 0;
        case PREFIX -> throw new IllegalStateException("~ on number field " + field.name());
      };
    }
  }

  /** A whole query: the condition and, per behaviour, the tests its events must pass. */
  record Query(Condition condition, Map<Behaviour, List<Test>> tests) {
    public Query {
      Objects.requireNonNull(condition, "condition is null");
      tests = Map.copyOf(tests);
    }
  }
}
