package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class ConditionParserTest {
  private static final Condition LOGIN = new Condition.Term(Behaviour.LOGIN);
  private static final Condition PLAY = new Condition.Term(Behaviour.PLAY);
  private static final Condition VISIT = new Condition.Term(Behaviour.VISIT);
  private static final Condition ORDER = new Condition.Term(Behaviour.ORDER);
  private static final long HOUR = 3_600_000L;

  private static Condition parsed(String q) {
    return ConditionParser.parse(q).condition();
  }

  private static void assertRefused(String q, String... fragments) {
    assertThatThrownBy(() -> ConditionParser.parse(q))
        .as(q)
        .isInstanceOf(InvalidInputException.class)
        .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("query"))
        .message()
        .contains(fragments);
  }

  @Test
  void operatorsBindNotThenAndOrFromTightestAndWithinClosesItsChain() {
    assertThat(parsed("login THEN play WITHIN 2h"))
        .isEqualTo(new Condition.Then(List.of(LOGIN, PLAY), 2 * HOUR));
    assertThat(parsed("visit AND NOT order"))
        .isEqualTo(new Condition.And(List.of(VISIT, new Condition.Not(ORDER)), null));
    assertThat(parsed("login OR play AND visit"))
        .isEqualTo(new Condition.Or(List.of(LOGIN, new Condition.And(List.of(PLAY, VISIT), null))));
    assertThat(parsed("login AND play THEN order WITHIN 30m"))
        .isEqualTo(
            new Condition.And(
                List.of(LOGIN, new Condition.Then(List.of(PLAY, ORDER), 30 * 60_000L)), null));
    assertThat(parsed("login THEN play AND order WITHIN 1d"))
        .isEqualTo(
            new Condition.And(
                List.of(new Condition.Then(List.of(LOGIN, PLAY), null), ORDER), 24 * HOUR));
    assertThat(parsed("(login OR visit) THEN play THEN order WITHIN 45s"))
        .isEqualTo(
            new Condition.Then(
                List.of(new Condition.Or(List.of(LOGIN, VISIT)), PLAY, ORDER), 45_000L));
    assertThat(parsed("NOT (login OR play)"))
        .isEqualTo(new Condition.Not(new Condition.Or(List.of(LOGIN, PLAY))));
    assertThat(parsed("LOGIN and Play aNd vIsIt AND order"))
        .isEqualTo(new Condition.And(List.of(LOGIN, PLAY, VISIT, ORDER), null));
  }

  @Test
  void whereTestsAreTypedAndGroupedByBehaviour() {
    Condition.Query q =
        ConditionParser.parse(
            "play AND order WITHIN 1d WHERE order.price > 10 AND play.channel = 'it''s'"
                + " AND play.DURATION >= 600 AND order.product ~ 'p1' AND order.price <= 99.5");
    Behaviour.Field price = Behaviour.ORDER.field("price").orElseThrow();
    Behaviour.Field product = Behaviour.ORDER.field("product").orElseThrow();
    Behaviour.Field channel = Behaviour.PLAY.field("channel").orElseThrow();
    Behaviour.Field duration = Behaviour.PLAY.field("duration").orElseThrow();
    assertThat(q.condition()).isEqualTo(new Condition.And(List.of(PLAY, ORDER), 24 * HOUR));
    assertThat(q.tests())
        .isEqualTo(
            Map.of(
                Behaviour.ORDER,
                List.of(
                    new Condition.Test(
                        Behaviour.ORDER, price, Condition.Op.GT, null, new BigDecimal("10")),
                    new Condition.Test(Behaviour.ORDER, product, Condition.Op.PREFIX, "p1", null),
                    new Condition.Test(
                        Behaviour.ORDER, price, Condition.Op.LE, null, new BigDecimal("99.5"))),
                Behaviour.PLAY,
                List.of(
                    new Condition.Test(Behaviour.PLAY, channel, Condition.Op.EQ, "it's", null),
                    new Condition.Test(
                        Behaviour.PLAY, duration, Condition.Op.GE, null, new BigDecimal("600")))));
    assertThat(TrailCondition.parse("visit AND NOT order").behaviours())
        .containsExactlyInAnyOrder(Behaviour.VISIT, Behaviour.ORDER);
  }

  @Test
  void syntaxErrorsNameThePositionAndTheToken() {
    assertRefused("login AND", "at 10 (end of query)", "expected a behaviour");
    assertRefused("login XOR play", "at 7 ('XOR')", "expected AND, OR, THEN, WITHIN or WHERE");
    assertRefused("logn AND play", "at 1 ('logn')", "unknown behaviour");
    assertRefused("(login OR play", "at 15 (end of query)", "expected ')'");
    assertRefused("login # play", "at 7 ('#')", "unexpected character");
    assertRefused("play WHERE play.channel = 'news", "at 27", "unterminated quote");
    assertRefused("login WITHIN 1h", "at 7 ('WITHIN')", "WITHIN follows an AND or THEN");
    assertRefused("login THEN play WITHIN", "at 23 (end of query)", "expected a time span");
    assertRefused("login THEN play WITHIN 2w", "at 24 ('2w')", "unit is s, m, h or d");
    assertRefused("login THEN play WITHIN 1.5h", "at 24 ('1.5h')", "whole number");
    assertRefused("login THEN play WITHIN 0s", "at least 1s and at most 366d");
    assertRefused("login THEN play WITHIN 367d", "at least 1s and at most 366d");
    assertRefused("NOT login THEN play", "at 1 ('NOT')", "THEN joins behaviours");
    assertRefused("login AND NOT play WITHIN 1h", "at 20 ('WITHIN')", "at least two operands");
    assertRefused("order WHERE price > 1", "at 13 ('price')", "with its behaviour: order.price");
    assertRefused("order WHERE order > 1", "at 19 ('>')", "expected '.'");
    assertRefused("order WHERE order.cost > 1", "at 19 ('cost')", "order has no field 'cost'");
    assertRefused("visit WHERE order.price > 1", "at 13 ('order')", "names no order");
    assertRefused("login AND WHERE", "at 11 ('WHERE')", "expected a behaviour");
    assertRefused("order WHERE order.price 1", "at 25 ('1')", "expected a comparison");
  }

  @Test
  void comparisonsMustFitTheFieldsType() {
    assertRefused("order WHERE order.price > 'ten'", "order.price is a number");
    assertRefused("order WHERE order.price ~ '1'", "order.price is a number and takes");
    assertRefused("order WHERE order.price > 1.234", "at most 2 decimals, got 1.234");
    assertRefused("play WHERE play.duration >= 1.5", "play.duration is a whole number");
    assertRefused("play WHERE play.channel > 'a'", "play.channel is text and takes =, != or ~");
    assertRefused("play WHERE play.channel = news", "compare it with a quoted value");
    assertRefused("play WHERE play.channel = 10", "compare it with a quoted value");
    assertRefused("order WHERE order.price > 1.2.3", "not a number");
  }

  @Test
  void theLanguageIsBounded() {
    assertRefused(null, "query (a condition on behaviours) is required");
    assertRefused("  ", "query (a condition on behaviours) is required");
    assertRefused("login OR " + "play OR ".repeat(200) + "order", "longer than 1000 characters");
    String sixteen = "login" + " OR play".repeat(15);
    assertThat(parsed(sixteen)).isInstanceOf(Condition.Or.class);
    assertRefused(sixteen + " OR order", "at 130 ('order')", "more than 16 behaviours");
    assertThat(parsed("NOT ".repeat(8) + "login")).isInstanceOf(Condition.Not.class);
    assertRefused("NOT ".repeat(9) + "login", "at 33 ('NOT')", "deeper than 8");
    assertRefused("(".repeat(9) + "login" + ")".repeat(9), "at 9 ('(')", "deeper than 8");
    String tests = " AND order.price > 1".repeat(16);
    assertThat(
            ConditionParser.parse("order WHERE " + tests.substring(5)).tests().get(Behaviour.ORDER))
        .hasSize(16);
    assertRefused("order WHERE " + tests.substring(5) + " AND order.price > 1", "more than 16");
  }
}
