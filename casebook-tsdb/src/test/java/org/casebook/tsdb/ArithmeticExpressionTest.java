package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The arithmetic of {@code /api/query/exp}, held to what OpenTSDB 2.4.1's JEXL 2.1.1 answers. */
class ArithmeticExpressionTest {
  private static double eval(String expr, double a, double b) {
    ArithmeticExpression e = ArithmeticExpression.parse(expr, "expr");
    double[] values = new double[e.variables().size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = e.variables().get(i).equals("a") ? a : b;
    }
    return e.evaluate(values);
  }

  /** Each expected value is what JEXL 2.1.1 answered for a = 6, b = 0 (run once, by hand). */
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "a + b * 2; 6.0",
        "(a + 1) * 2; 14.0",
        "2 + 3 * a; 20.0",
        "a - -3; 9.0",
        "-a % 4; -2.0",
        "a % -4; 2.0",
        "a / b; 0.0",
        "a % b; 0.0",
        "b / b; 0.0",
        "a / 4; 1.5",
        "a * 0.1; 0.6000000000000001",
        "a * 0.123456789; 0.74074074",
        "a + 16777217.0; 1.6777222E7",
        "a + 7/2; 9.0",
        "-7/2 + a; 3.0",
        "a + (-7) % 2; 7.0",
        "a + 7 % -2; 6.0",
        "a + 1/0; 6.0",
        "a + 0.5/0; 6.0",
        "a + 3 - 1/2; 9.0",
        "7.0/2 + a; 9.5",
        "a + 2147483647 + 1; 2.147483654E9",
        "a + 007; 13.0",
        "a + 010; 14.0",
        "((a)); 6.0",
      })
  void answersAsJexlDoes(String expr, double expected) {
    assertThat(eval(expr, 6, 0)).isEqualTo(expected);
  }

  @Test
  void nanPropagatesExceptThroughADivisionByZero() {
    assertThat(eval("a + 1", Double.NaN, 0)).isNaN();
    assertThat(eval("a / b", 6, Double.NaN)).isNaN();
    // JEXL checks the divisor first: NaN / 0 is 0 there.
    assertThat(eval("a / b", Double.NaN, 0)).isEqualTo(0.0);
  }

  @Test
  void variablesComeInTheOrderTheyAppearOnce() {
    assertThat(ArithmeticExpression.parse("b * a + b - c1", "e").variables())
        .containsExactly("b", "a", "c1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a > b",
        "a == b",
        "a && b",
        "!a",
        "a.b",
        "size(a)",
        "a + 'x'",
        "a = 3",
        "a; b",
        "a div b",
        "a mod b",
        "a + 1e3",
        "a + 1.5f",
        "a + 0x10",
        "a + .5",
        "a + 5.",
        "a + 09",
        "a + +3",
        "a +",
        "(a",
        "a)",
        "a b",
        "a // c",
        "a ? 1 : 2",
        "1a + b",
      })
  void refusesAnythingButArithmetic(String expr) {
    assertThatThrownBy(() -> ArithmeticExpression.parse(expr, "expressions[0].expr"))
        .isInstanceOf(InvalidInputException.class)
        .hasFieldOrPropertyWithValue("field", "expressions[0].expr");
  }

  @Test
  void anExpressionNeedsAVariable() {
    assertThatThrownBy(() -> ArithmeticExpression.parse("1 + 2", "x"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("didn't appear to have any variables");
    assertThatThrownBy(() -> ArithmeticExpression.parse("", "x"))
        .hasMessageContaining("missing or empty expr");
  }
}
