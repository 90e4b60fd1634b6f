package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ConditionMatcherTest {
  private static final long T0 = 1_788_000_000_000L;
  private static final long MINUTE = 60_000L;
  private static final long HOUR = 60 * MINUTE;
  private static final List<Behaviour> BEHAVIOURS =
      List.of(Behaviour.LOGIN, Behaviour.PLAY, Behaviour.VISIT, Behaviour.ORDER);
  private static final List<Condition.Op> NUMBER_OPS =
      List.of(
          Condition.Op.EQ,
          Condition.Op.NE,
          Condition.Op.LT,
          Condition.Op.LE,
          Condition.Op.GT,
          Condition.Op.GE);

  private static Event login(long ts) {
    return new Event("u", Behaviour.LOGIN, ts, Map.of("device", "stb", "ip", "10.0.0.1"));
  }

  private static Event play(long ts, String channel, long duration) {
    return new Event(
        "u",
        Behaviour.PLAY,
        ts,
        Map.of("contentId", "c1", "channel", channel, "start", "0", "duration", "" + duration));
  }

  private static Event visit(long ts) {
    return new Event("u", Behaviour.VISIT, ts, Map.of("page", "home", "column", "hot"));
  }

  private static Event order(long ts, String price) {
    return new Event("u", Behaviour.ORDER, ts, Map.of("product", "p1", "price", price));
  }

  private static boolean matches(String q, Event... events) {
    TrailCondition c = TrailCondition.parse(q);
    boolean fast = c.matches(List.of(events));
    assertThat(BruteForceConditions.matches(c.query(), List.of(events)))
        .as("brute force on %s", q)
        .isEqualTo(fast);
    return fast;
  }

  @Test
  void withinIncludesItsBoundAndNothingPastIt() {
    assertThat(matches("login THEN play WITHIN 2h", login(T0), play(T0 + 2 * HOUR, "n", 1)))
        .isTrue();
    assertThat(matches("login THEN play WITHIN 2h", login(T0), play(T0 + 2 * HOUR + 1, "n", 1)))
        .isFalse();
    assertThat(matches("play AND order WITHIN 1d", order(T0, "1.00"), play(T0 + 24 * HOUR, "n", 1)))
        .isTrue();
    assertThat(
            matches(
                "play AND order WITHIN 1d", order(T0, "1.00"), play(T0 + 24 * HOUR + 1, "n", 1)))
        .isFalse();
    // The nearest pair counts, not the first of each.
    assertThat(
            matches(
                "login AND play WITHIN 1h",
                login(T0),
                login(T0 + 5 * HOUR),
                play(T0 + 270 * MINUTE, "n", 1)))
        .isTrue();
    // A chain's WITHIN bounds its first to its last event.
    Event[] chain = {login(T0), play(T0 + 30 * MINUTE, "n", 1), order(T0 + 61 * MINUTE, "1.00")};
    assertThat(matches("login THEN play THEN order WITHIN 1h", chain)).isFalse();
    assertThat(matches("login THEN play THEN order WITHIN 61m", chain)).isTrue();
  }

  @Test
  void thenNeedsStrictlyLaterEvents() {
    assertThat(matches("login THEN play", login(T0), play(T0, "n", 1))).isFalse();
    assertThat(matches("login THEN play", login(T0), play(T0 + 1, "n", 1))).isTrue();
    assertThat(matches("play THEN login", login(T0), play(T0 + 1, "n", 1))).isFalse();
    assertThat(matches("login AND play", login(T0), play(T0, "n", 1))).isTrue();
    assertThat(
            matches("(login OR visit) THEN order", visit(T0), order(T0 + 1, "1.00"), login(T0 + 2)))
        .isTrue();
    assertThat(matches("login THEN login", login(T0))).isFalse();
    assertThat(matches("login THEN login", login(T0), login(T0 + 1))).isTrue();
  }

  @Test
  void valueTestsChooseWhichEventsCount() {
    assertThat(matches("order WHERE order.price > 10", order(T0, "10.00"))).isFalse();
    assertThat(matches("order WHERE order.price > 10", order(T0, "10.01"))).isTrue();
    assertThat(matches("order WHERE order.price >= 10.00", order(T0, "10.00"))).isTrue();
    assertThat(matches("order WHERE order.price = 10.5", order(T0, "10.50"))).isTrue();
    assertThat(matches("order WHERE order.price != 10.5", order(T0, "10.50"))).isFalse();
    assertThat(matches("order WHERE order.price < 0.01", order(T0, "0.00"))).isTrue();
    assertThat(matches("order WHERE order.product ~ 'p'", order(T0, "1.00"))).isTrue();
    assertThat(matches("order WHERE order.product ~ 'p2'", order(T0, "1.00"))).isFalse();
    assertThat(
            matches(
                "play WHERE play.channel = 'news' AND play.duration >= 600",
                play(T0, "news", 599),
                play(T0 + 1, "movies", 900)))
        .isFalse();
    assertThat(
            matches(
                "play WHERE play.channel = 'news' AND play.duration >= 600", play(T0, "news", 600)))
        .isTrue();
    // The test applies wherever its behaviour appears, NOT included.
    assertThat(matches("visit AND NOT order", visit(T0), order(T0, "50.00"))).isFalse();
    assertThat(
            matches("visit AND NOT order WHERE order.price > 100", visit(T0), order(T0, "50.00")))
        .isTrue();
    // The filtered-out order cannot pair with the play.
    assertThat(
            matches(
                "play AND order WITHIN 1d WHERE order.price > 10",
                play(T0, "n", 1),
                order(T0 + HOUR, "9.99"),
                order(T0 + 3 * 24 * HOUR, "99.00")))
        .isFalse();
  }

  @Test
  void aUserWithoutEventsMatchesOnlyNegations() {
    assertThat(matches("NOT order")).isTrue();
    assertThat(matches("login")).isFalse();
    assertThat(matches("NOT login AND NOT play")).isTrue();
    assertThat(matches("login OR NOT play")).isTrue();
    assertThat(matches("login AND NOT play")).isFalse();
    assertThat(matches("login AND play AND visit AND order")).isFalse();
  }

  /**
   * Random conditions, rendered as text and parsed back to the same tree, on random events crowded
   * into three hours (equal times included): the matcher agrees with the brute force.
   */
  @Test
  void agreesWithBruteForceOnRandomConditionsAndEvents() {
    Random random = new Random(36);
    int matched = 0;
    int cases = 3000;
    for (int i = 0; i < cases; i++) {
      Condition tree;
      do {
        tree = random.nextBoolean() ? temporal(random, 3) : truthValued(random, 3);
      } while (terms(tree) > ConditionParser.MAX_TERMS
          || nesting(tree) > ConditionParser.MAX_DEPTH);
      Map<Behaviour, List<Condition.Test>> tests = tests(random, tree);
      String text = render(tree, random) + where(tests);
      Condition.Query parsed = ConditionParser.parse(text);
      assertThat(parsed).as(text).isEqualTo(new Condition.Query(tree, tests));
      List<Event> events = events(random);
      boolean fast = ConditionMatcher.matches(parsed, events);
      assertThat(fast)
          .as("%s on %s", text, events)
          .isEqualTo(BruteForceConditions.matches(parsed, events));
      matched += fast ? 1 : 0;
    }
    // Both answers are common, so a matcher that always says one of them fails.
    assertThat(matched).isBetween(cases / 5, cases * 4 / 5);
  }

  private static int terms(Condition c) {
    return c instanceof Condition.Term ? 1 : children(c).stream().mapToInt(x -> terms(x)).sum();
  }

  /** Parentheses and NOT around the deepest term, as {@link #render} writes the tree. */
  private static int nesting(Condition c) {
    int inner = 0;
    for (Condition x : children(c)) {
      inner = Math.max(inner, nesting(x) + (x instanceof Condition.Term ? 0 : 1));
    }
    return inner + (c instanceof Condition.Not ? 1 : 0);
  }

  private static List<Condition> children(Condition c) {
    if (c instanceof Condition.Not n) {
      return List.of(n.operand());
    }
    if (c instanceof Condition.And a) {
      return a.operands();
    }
    if (c instanceof Condition.Or o) {
      return o.operands();
    }
    if (c instanceof Condition.Then t) {
      return t.operands();
    }
    return List.of();
  }

  private static Condition temporal(Random r, int depth) {
    int pick = depth == 0 ? 0 : r.nextInt(5);
    return switch (pick) {
      case 1 -> new Condition.Or(operands(r, depth, true));
      case 2 -> new Condition.Then(operands(r, depth, true), within(r));
      case 3 -> {
        List<Condition> ops = operands(r, depth, true);
        if (r.nextBoolean()) {
          ops.add(truthValued(r, depth - 1));
        }
        yield new Condition.And(ops, within(r));
      }
      default -> new Condition.Term(BEHAVIOURS.get(r.nextInt(BEHAVIOURS.size())));
    };
  }

  private static Condition truthValued(Random r, int depth) {
    int pick = depth <= 1 ? 0 : r.nextInt(3);
    return switch (pick) {
      case 1 -> {
        List<Condition> ops = operands(r, depth, r.nextBoolean());
        ops.add(new Condition.Not(temporal(r, depth - 2)));
        yield new Condition.Or(ops);
      }
      case 2 ->
          new Condition.And(List.of(truthValued(r, depth - 1), truthValued(r, depth - 1)), null);
      default -> new Condition.Not(temporal(r, Math.max(0, depth - 1)));
    };
  }

  private static List<Condition> operands(Random r, int depth, boolean temporal) {
    List<Condition> out = new ArrayList<>();
    int n = 2 + (depth == 3 ? r.nextInt(2) : 0);
    for (int i = 0; i < n; i++) {
      out.add(temporal ? temporal(r, depth - 1) : truthValued(r, depth - 1));
    }
    return out;
  }

  private static final String[] SPANS = {"1s", "10m", "30m", "1h", "90m", "2h"};

  private static Long within(Random r) {
    if (r.nextInt(3) == 0) {
      return null;
    }
    String s = SPANS[r.nextInt(SPANS.length)];
    long n = Long.parseLong(s.substring(0, s.length() - 1));
    return n * (s.endsWith("s") ? 1000 : s.endsWith("m") ? MINUTE : HOUR);
  }

  private static String spanText(long ms) {
    return ms % HOUR == 0
        ? ms / HOUR + "h"
        : ms % MINUTE == 0 ? ms / MINUTE + "m" : ms / 1000 + "s";
  }

  private static String render(Condition c, Random r) {
    if (c instanceof Condition.Term t) {
      String label = t.behaviour().label();
      return r.nextBoolean() ? label : label.toUpperCase(Locale.ROOT);
    }
    if (c instanceof Condition.Not n) {
      return "NOT " + wrapped(n.operand(), r);
    }
    if (c instanceof Condition.Or o) {
      return joined(o.operands(), " OR ", r);
    }
    if (c instanceof Condition.And a) {
      return joined(a.operands(), " and ", r)
          + (a.withinMs() == null ? "" : " WITHIN " + spanText(a.withinMs()));
    }
    Condition.Then t = (Condition.Then) c;
    return joined(t.operands(), " THEN ", r)
        + (t.withinMs() == null ? "" : " within " + spanText(t.withinMs()));
  }

  private static String joined(List<Condition> ops, String op, Random r) {
    return ops.stream().map(x -> wrapped(x, r)).collect(Collectors.joining(op));
  }

  private static String wrapped(Condition c, Random r) {
    return c instanceof Condition.Term ? render(c, r) : "(" + render(c, r) + ")";
  }

  private static Map<Behaviour, List<Condition.Test>> tests(Random r, Condition tree) {
    Map<Behaviour, List<Condition.Test>> out = new HashMap<>();
    for (Behaviour b : TrailCondition.parse(render(tree, r)).behaviours()) {
      if (r.nextInt(3) == 0) {
        out.put(b, List.of(randomTest(r, b)));
      }
    }
    return out;
  }

  private static Condition.Test randomTest(Random r, Behaviour b) {
    return switch (b.label()) {
      case "login" ->
          new Condition.Test(b, b.field("device").orElseThrow(), Condition.Op.PREFIX, "stb", null);
      case "play" ->
          r.nextBoolean()
              ? new Condition.Test(
                  b, b.field("channel").orElseThrow(), Condition.Op.NE, "news", null)
              : new Condition.Test(
                  b,
                  b.field("duration").orElseThrow(),
                  Condition.Op.GE,
                  null,
                  new BigDecimal("600"));
      case "visit" ->
          new Condition.Test(b, b.field("page").orElseThrow(), Condition.Op.EQ, "home", null);
      default ->
          new Condition.Test(
              b,
              b.field("price").orElseThrow(),
              NUMBER_OPS.get(r.nextInt(NUMBER_OPS.size())),
              null,
              new BigDecimal("10.00"));
    };
  }

  private static String where(Map<Behaviour, List<Condition.Test>> tests) {
    List<String> parts = new ArrayList<>();
    tests.forEach(
        (b, list) -> {
          for (Condition.Test t : list) {
            String value = t.text() != null ? "'" + t.text() + "'" : t.number().toPlainString();
            parts.add(b.label() + "." + t.field().name() + " " + t.op().symbol + " " + value);
          }
        });
    return parts.isEmpty() ? "" : " WHERE " + String.join(" AND ", parts);
  }

  private static final String[] PRICES = {"0.00", "9.99", "10.00", "10.01", "10.50", "123.45"};

  private static List<Event> events(Random r) {
    List<Event> out = new ArrayList<>();
    int n = r.nextInt(9);
    for (int i = 0; i < n; i++) {
      long ts = T0 + r.nextInt(180) * MINUTE;
      out.add(
          switch (r.nextInt(4)) {
            case 0 ->
                new Event(
                    "u",
                    Behaviour.LOGIN,
                    ts,
                    Map.of("device", r.nextBoolean() ? "stb-2" : "tv", "ip", "i"));
            case 1 -> play(ts, r.nextBoolean() ? "news" : "movies", 300L * r.nextInt(4));
            case 2 ->
                new Event(
                    "u",
                    Behaviour.VISIT,
                    ts,
                    Map.of("page", r.nextBoolean() ? "home" : "detail", "column", "c"));
            default -> order(ts, PRICES[r.nextInt(PRICES.length)]);
          });
    }
    return out;
  }
}
