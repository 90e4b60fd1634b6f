package org.casebook.tsdb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * The {@code expr} of an {@code /api/query/exp} expression: the arithmetic subset of what OpenTSDB
 * 2.4 hands to JEXL 2.1 — {@code + - * / %}, unary minus, parentheses, numbers and variables (the
 * ids of metrics and of other expressions). Anything else JEXL would take (comparisons, logic,
 * strings, method calls, assignments, comments, operator words such as {@code div}) is refused.
 *
 * <p>The numbers follow JEXL's, since OpenTSDB's answers come out of it:
 *
 * <ul>
 *   <li>a variable is always a double, so any operation that touches one is a double operation;
 *       division and remainder by zero give 0 (JEXL's lenient arithmetic), not infinity or NaN;
 *   <li>an operation between two integer literals is an integer one: {@code 7/2} is 3 (truncated),
 *       {@code -7 % 2} is 1 (never negative), a remainder by zero or by a negative number is 0;
 *   <li>a literal with a point is read as a float and widened through its text, so {@code
 *       0.123456789} is {@code 0.12345679}; an integer literal with a leading zero is octal.
 * </ul>
 */
final class ArithmeticExpression {
  /** Words JEXL reads as operators or keywords; an id spelled so cannot be a variable there. */
  private static final Set<String> JEXL_WORDS =
      Set.of(
          "or",
          "and",
          "eq",
          "ne",
          "lt",
          "gt",
          "le",
          "ge",
          "div",
          "mod",
          "not",
          "null",
          "true",
          "false",
          "new",
          "empty",
          "size",
          "if",
          "else",
          "for",
          "foreach",
          "while",
          "var",
          "function",
          "return",
          "in");

  private final String text;
  private final Node root;
  private final List<String> variables;

  private ArithmeticExpression(String text, Node root, List<String> variables) {
    this.text = text;
    this.root = root;
    this.variables = List.copyOf(variables);
  }

  /** Parses {@code text}; errors name {@code field}. */
  static ArithmeticExpression parse(String text, String field) {
    if (text == null || text.isEmpty()) {
      throw new InvalidInputException(field, "missing or empty expr");
    }
    Parser p = new Parser(text, field);
    Node root = p.expression();
    if (p.pos < p.tokens.size()) {
      throw p.unexpected();
    }
    if (p.names.isEmpty()) {
      throw new InvalidInputException(field, "The expression didn't appear to have any variables");
    }
    return new ArithmeticExpression(text, root, new ArrayList<>(p.names));
  }

  String text() {
    return text;
  }

  /** The variables, in the order they first appear; {@link #evaluate} takes values in it. */
  List<String> variables() {
    return variables;
  }

  /** The value with {@code values[i]} bound to {@code variables().get(i)}. */
  double evaluate(double[] values) {
    return root.eval(values);
  }

  // ---- the tree ----

  private sealed interface Node permits Constant, Variable, Negation, Operation {
    double eval(double[] values);
  }

  /** A folded constant: a {@link BigInteger} while JEXL keeps it integral, else a Double. */
  private record Constant(Number value) implements Node {
    @Override
    public double eval(double[] values) {
      return value.doubleValue();
    }
  }

  private record Variable(int index) implements Node {
    @Override
    public double eval(double[] values) {
      return values[index];
    }
  }

  private record Negation(Node operand) implements Node {
    @Override
    public double eval(double[] values) {
      return -operand.eval(values);
    }
  }

  private record Operation(char op, Node left, Node right) implements Node {
    @Override
    public double eval(double[] values) {
      return apply(op, left.eval(values), right.eval(values));
    }
  }

  /** A double operation as JEXL's lenient arithmetic answers it. */
  static double apply(char op, double l, double r) {
    return switch (op) {
      case '+' -> l + r;
      case '-' -> l - r;
      case '*' -> l * r;
      // JEXL throws on a zero divisor and its lenient interpreter answers 0 instead.
      case '/' -> r == 0.0 ? 0.0 : l / r;
      case '%' -> r == 0.0 ? 0.0 : l % r;
      default -> throw new IllegalArgumentException("operator " + op);
    };
  }

  /** Two constants combined at parse time, integral ones as JEXL's BigInteger arithmetic does. */
  private static Number fold(char op, Number l, Number r) {
    if (l instanceof BigInteger a && r instanceof BigInteger b) {
      return switch (op) {
        case '+' -> a.add(b);
        case '-' -> a.subtract(b);
        case '*' -> a.multiply(b);
        case '/' -> b.signum() == 0 ? (Number) 0.0 : a.divide(b);
        // BigInteger.mod refuses a modulus that is not positive; JEXL then answers 0.0.
        case '%' -> b.signum() <= 0 ? (Number) 0.0 : a.mod(b);
        default -> throw new IllegalArgumentException("operator " + op);
      };
    }
    return apply(op, l.doubleValue(), r.doubleValue());
  }

  private static Node combine(char op, Node left, Node right) {
    if (left instanceof Constant l && right instanceof Constant r) {
      return new Constant(fold(op, l.value(), r.value()));
    }
    return new Operation(op, left, right);
  }

  // ---- the parser ----

  private record Token(String text, int at) {}

  /** expression := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*. */
  private static final class Parser {
    private final String source;
    private final String field;
    private final List<Token> tokens;
    private final Set<String> names = new LinkedHashSet<>();
    private int pos;

    Parser(String source, String field) {
      this.source = source;
      this.field = field;
      this.tokens = tokenize(source, field);
    }

    Node expression() {
      Node n = term();
      while (peekIs("+") || peekIs("-")) {
        char op = tokens.get(pos++).text().charAt(0);
        n = combine(op, n, term());
      }
      return n;
    }

    private Node term() {
      Node n = unary();
      while (peekIs("*") || peekIs("/") || peekIs("%")) {
        char op = tokens.get(pos++).text().charAt(0);
        n = combine(op, n, unary());
      }
      return n;
    }

    private Node unary() {
      if (peekIs("-")) {
        pos++;
        Node operand = unary();
        if (operand instanceof Constant c) {
          return new Constant(
              c.value() instanceof BigInteger b ? b.negate() : -c.value().doubleValue());
        }
        return new Negation(operand);
      }
      return primary();
    }

    private Node primary() {
      if (pos >= tokens.size()) {
        throw new InvalidInputException(field, "Unexpected end of the expression: " + source);
      }
      Token t = tokens.get(pos++);
      String s = t.text();
      if (s.equals("(")) {
        Node inner = expression();
        if (!peekIs(")")) {
          throw pos < tokens.size()
              ? unexpected()
              : new InvalidInputException(field, "Missing ')' in the expression: " + source);
        }
        pos++;
        return inner;
      }
      char c = s.charAt(0);
      if (Character.isDigit(c)) {
        return new Constant(number(t));
      }
      if (Character.isLetter(c)) {
        if (JEXL_WORDS.contains(s.toLowerCase(Locale.ROOT))) {
          throw new InvalidInputException(
              field,
              "'"
                  + s
                  + "' is an operator or keyword of OpenTSDB's expression language (JEXL);"
                  + " only + - * / %, parentheses, numbers and ids are supported");
        }
        names.add(s);
        return new Variable(new ArrayList<>(names).indexOf(s));
      }
      pos--;
      throw unexpected();
    }

    private Number number(Token t) {
      String s = t.text();
      if (s.indexOf('.') >= 0) {
        // JEXL reads "0.1" as a Float and widens it through its text.
        return Double.parseDouble(Float.toString(Float.parseFloat(s)));
      }
      if (s.length() > 1 && s.charAt(0) == '0') {
        for (int i = 1; i < s.length(); i++) {
          if (s.charAt(i) > '7') {
            throw new InvalidInputException(
                field, "Not an octal number (a leading 0 makes one): " + s + " at " + t.at());
          }
        }
        return new BigInteger(s, 8);
      }
      return new BigInteger(s);
    }

    private boolean peekIs(String s) {
      return pos < tokens.size() && tokens.get(pos).text().equals(s);
    }

    InvalidInputException unexpected() {
      Token t = tokens.get(pos);
      return new InvalidInputException(
          field,
          "Unexpected '"
              + t.text()
              + "' at position "
              + t.at()
              + " of the expression '"
              + source
              + "': only + - * / %, parentheses, numbers and ids are supported");
    }
  }

  private static List<Token> tokenize(String s, String field) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if ("+-*/%()".indexOf(c) >= 0) {
        if (c == '/' && i + 1 < s.length() && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*')) {
          throw new InvalidInputException(field, "Comments are not supported: " + s);
        }
        out.add(new Token(String.valueOf(c), i));
        i++;
      } else if (Character.isDigit(c)) {
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
          i++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
          i++;
          int fraction = i;
          while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
          }
          if (i == fraction) {
            throw new InvalidInputException(
                field, "A number needs digits after its point: " + s.substring(start, i));
          }
        }
        if (i < s.length() && Character.isLetterOrDigit(s.charAt(i))) {
          throw new InvalidInputException(
              field,
              "Numbers are plain decimals (no exponent, suffix or hex; an id starts with a"
                  + " letter): "
                  + s.substring(start, Math.min(s.length(), i + 1))
                  + " at "
                  + start);
        }
        out.add(new Token(s.substring(start, i), start));
      } else if (Character.isLetter(c)) {
        int start = i;
        while (i < s.length() && Character.isLetterOrDigit(s.charAt(i))) {
          i++;
        }
        out.add(new Token(s.substring(start, i), start));
      } else {
        throw new InvalidInputException(
            field,
            "Unexpected '"
                + c
                + "' at position "
                + i
                + " of the expression '"
                + s
                + "': only + - * / %, parentheses, numbers and ids are supported");
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArithmeticExpression e && e.text.equals(text);
  }

  @Override
  public int hashCode() {
    return Objects.hash(text);
  }
}
