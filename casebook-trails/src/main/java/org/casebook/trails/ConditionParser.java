package org.casebook.trails;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * Parses the condition language (grammar in the module README) into a {@link Condition.Query}, by
 * recursive descent over tokens. Every problem is an {@link InvalidInputException} on {@code
 * query}; a syntax error names the position (from 1) and the token found there.
 */
final class ConditionParser {
  static final String FIELD = "query";

  /** The word that names a behaviour's extra fields in a test: {@code play.extra.campaign}. */
  static final String EXTRA = "extra";

  /** Longest query text, in chars. */
  static final int MAX_LENGTH = 1_000;

  /** Most behaviour terms in one condition. */
  static final int MAX_TERMS = 16;

  /** Deepest nesting of parentheses and NOT. */
  static final int MAX_DEPTH = 8;

  /** Most WHERE tests. */
  static final int MAX_TESTS = 16;

  /** Longest WITHIN: a query spans at most {@link TrailQuery#MAX_DAYS} days. */
  static final long MAX_WITHIN_MS = TrailQuery.MAX_DAYS * 86_400_000L;

  private enum Kind {
    WORD,
    NUMBER,
    SPAN,
    TEXT,
    SYMBOL,
    END
  }

  /** A token and where it starts (from 0). */
  private record Token(Kind kind, String text, int at) {
    boolean is(String keyword) {
      return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean symbol(String s) {
      return kind == Kind.SYMBOL && text.equals(s);
    }

    String shown() {
      return kind == Kind.END ? "end of query" : "'" + text + "'";
    }
  }

  private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "then", "within", "where");

  private final List<Token> tokens;
  private int next;
  private int depth;
  private int terms;
  private final Set<Behaviour> named = new HashSet<>();
  private final BehaviourLookup behaviours;

  private ConditionParser(List<Token> tokens, BehaviourLookup behaviours) {
    this.tokens = tokens;
    this.behaviours = behaviours;
  }

  /** Parses {@code text}, its behaviours built in or declared in {@code behaviours}. */
  static Condition.Query parse(String text, BehaviourLookup behaviours) {
    InvalidInputException.check(
        text != null && !text.isBlank(), FIELD, "query (a condition on behaviours) is required");
    InvalidInputException.check(
        text.length() <= MAX_LENGTH, FIELD, "query is longer than " + MAX_LENGTH + " characters");
    return new ConditionParser(lex(text), behaviours).query();
  }

  /** As {@link #parse(String, BehaviourLookup)} over the built-ins alone. */
  static Condition.Query parse(String text) {
    return parse(text, Behaviours.BUILT_INS);
  }

  private Condition.Query query() {
    Condition condition = expr();
    Map<Behaviour, List<Condition.Test>> tests = new HashMap<>();
    if (peek().is("where")) {
      next++;
      int count = 0;
      do {
        Condition.Test t = test();
        InvalidInputException.check(
            ++count <= MAX_TESTS, FIELD, "query has more than " + MAX_TESTS + " WHERE tests");
        tests.computeIfAbsent(t.behaviour(), b -> new ArrayList<>()).add(t);
      } while (accept("and"));
    }
    Token end = peek();
    if (end.kind() != Kind.END) {
      throw error(
          end,
          end.is("within")
              ? "WITHIN follows an AND or THEN of behaviours"
              : "expected AND, OR, THEN, WITHIN or WHERE");
    }
    Map<Behaviour, List<Condition.Test>> frozen = new HashMap<>();
    tests.forEach((b, list) -> frozen.put(b, List.copyOf(list)));
    return new Condition.Query(condition, frozen);
  }

  private Condition expr() {
    List<Condition> operands = new ArrayList<>(List.of(all()));
    while (accept("or")) {
      operands.add(all());
    }
    return operands.size() == 1 ? operands.get(0) : new Condition.Or(operands);
  }

  private Condition all() {
    List<Condition> operands = new ArrayList<>(List.of(chain()));
    while (accept("and")) {
      operands.add(chain());
    }
    if (operands.size() == 1) {
      return operands.get(0);
    }
    Token at = peek();
    Long within = within();
    if (within != null && operands.stream().filter(Condition::temporal).count() < 2) {
      throw error(at, "WITHIN needs at least two operands of the AND that are not NOT");
    }
    return new Condition.And(operands, within);
  }

  private Condition chain() {
    List<Token> starts = new ArrayList<>(List.of(peek()));
    List<Condition> operands = new ArrayList<>(List.of(unary()));
    while (accept("then")) {
      starts.add(peek());
      operands.add(unary());
    }
    if (operands.size() == 1) {
      return operands.get(0);
    }
    for (int i = 0; i < operands.size(); i++) {
      if (!operands.get(i).temporal()) {
        throw error(
            starts.get(i), "THEN joins behaviours; NOT has no time to come before or after");
      }
    }
    return new Condition.Then(operands, within());
  }

  private Condition unary() {
    Token t = peek();
    if (t.is("not") || t.symbol("(")) {
      next++;
      if (++depth > MAX_DEPTH) {
        throw error(t, "nesting of parentheses and NOT deeper than " + MAX_DEPTH);
      }
      Condition inner;
      if (t.is("not")) {
        inner = new Condition.Not(unary());
      } else {
        inner = expr();
        Token close = peek();
        if (!close.symbol(")")) {
          throw error(close, "expected ')'");
        }
        next++;
      }
      depth--;
      return inner;
    }
    Behaviour b = behaviour(t);
    next++;
    if (++terms > MAX_TERMS) {
      throw error(t, "more than " + MAX_TERMS + " behaviours in one query");
    }
    named.add(b);
    return new Condition.Term(b);
  }

  private Behaviour behaviour(Token t) {
    if (t.kind() != Kind.WORD || KEYWORDS.contains(t.text().toLowerCase(Locale.ROOT))) {
      throw error(
          t, "expected a behaviour (login, play, visit, order or a declared one), NOT or '('");
    }
    return behaviours
        .byLabel(t.text().toLowerCase(Locale.ROOT))
        .orElseThrow(
            () ->
                error(
                    t,
                    "unknown behaviour; the behaviours are "
                        + behaviours.snapshot().all().stream().map(Behaviour::label).toList()));
  }

  /** {@code WITHIN n(s|m|h|d)} if next, in ms; else null. */
  private Long within() {
    if (!accept("within")) {
      return null;
    }
    Token t = peek();
    if (t.kind() != Kind.SPAN) {
      throw error(t, "expected a time span such as 30s, 15m, 2h or 1d");
    }
    next++;
    String digits = t.text().substring(0, t.text().length() - 1);
    long unit =
        switch (t.text().charAt(t.text().length() - 1)) {
          case 's' -> 1_000L;
          case 'm' -> 60_000L;
          case 'h' -> 3_600_000L;
          case 'd' -> 86_400_000L;
          default -> throw error(t, "a time span's unit is s, m, h or d");
        };
    if (!digits.chars().allMatch(Character::isDigit) || digits.length() > 9) {
      throw error(t, "a time span is a whole number of s, m, h or d");
    }
    long ms = Long.parseLong(digits) * unit;
    if (ms < 1 || ms > MAX_WITHIN_MS) {
      throw error(t, "a time span must be at least 1s and at most " + TrailQuery.MAX_DAYS + "d");
    }
    return ms;
  }

  private Condition.Test test() {
    Token bt = peek();
    for (Behaviour owner : behaviours.snapshot().all()) {
      if (bt.kind() == Kind.WORD && owner.field(bt.text()).isPresent()) {
        throw error(bt, "name a field with its behaviour: " + owner.label() + "." + bt.text());
      }
    }
    Behaviour b = behaviour(bt);
    next++;
    if (!peek().symbol(".")) {
      throw error(peek(), "expected '.' and a field of " + b.label() + " (e.g. order.price)");
    }
    next++;
    Token ft = peek();
    if (ft.kind() != Kind.WORD) {
      throw error(ft, "expected a field of " + b.label());
    }
    if (ft.text().equals(EXTRA) && tokens.get(next + 1).symbol(".") && b.field(EXTRA).isEmpty()) {
      return extraTest(bt, b);
    }
    Behaviour.Field field =
        b.fields().stream()
            .filter(f -> f.name().equalsIgnoreCase(ft.text()))
            .findFirst()
            .orElseThrow(
                () ->
                    error(
                        ft,
                        b.label()
                            + " has no field '"
                            + ft.text()
                            + "'; its fields are "
                            + b.fields().stream().map(Behaviour.Field::name).toList()));
    next++;
    if (!named.contains(b)) {
      throw error(bt, "the condition names no " + b.label() + ", so a test on it filters nothing");
    }
    Token ot = peek();
    Condition.Op op = null;
    for (Condition.Op o : Condition.Op.values()) {
      if (ot.symbol(o.symbol)) {
        op = o;
      }
    }
    if (op == null) {
      throw error(ot, "expected a comparison (=, !=, <, <=, >, >=, ~)");
    }
    next++;
    String what = b.label() + "." + field.name();
    if (!Condition.Op.allowedFor(field.kind()).contains(op)) {
      throw error(
          ot,
          what
              + " is "
              + (field.kind() == Behaviour.Kind.TEXT ? "text" : "a number")
              + " and takes "
              + (field.kind() == Behaviour.Kind.TEXT ? "=, != or ~" : "=, !=, <, <=, > or >="));
    }
    Token vt = peek();
    next++;
    if (field.kind() == Behaviour.Kind.TEXT) {
      if (vt.kind() != Kind.TEXT) {
        throw error(vt, what + " is text: compare it with a quoted value such as 'news'");
      }
      return new Condition.Test(b, field, op, vt.text(), null);
    }
    if (vt.kind() != Kind.NUMBER) {
      throw error(vt, what + " is a number: compare it with a number such as 10");
    }
    BigDecimal number = new BigDecimal(vt.text());
    int scale = field.kind() == Behaviour.Kind.COUNT ? 0 : 2;
    if (number.scale() > scale) {
      throw error(
          vt,
          what
              + (scale == 0 ? " is a whole number" : " has at most 2 decimals")
              + ", got "
              + vt.text());
    }
    return new Condition.Test(b, field, op, null, number);
  }

  /**
   * {@code b.extra.NAME op 'text'}: a test on an extra field (one {@code b} does not declare), text
   * compared with =, != or ~; an event without that extra fails it, as one without a field does.
   */
  private Condition.Test extraTest(Token bt, Behaviour b) {
    next += 2; // "extra" "."
    Token nt = peek();
    if (nt.kind() != Kind.WORD) {
      throw error(nt, "expected the name of an extra field of " + b.label());
    }
    next++;
    if (!named.contains(b)) {
      throw error(bt, "the condition names no " + b.label() + ", so a test on it filters nothing");
    }
    Token ot = peek();
    Condition.Op op = null;
    for (Condition.Op o : Condition.Op.allowedFor(Behaviour.Kind.TEXT)) {
      if (ot.symbol(o.symbol)) {
        op = o;
      }
    }
    String what = b.label() + "." + EXTRA + "." + nt.text();
    if (op == null) {
      throw error(ot, what + " is text and takes =, != or ~");
    }
    next++;
    Token vt = peek();
    next++;
    if (vt.kind() != Kind.TEXT) {
      throw error(vt, what + " is text: compare it with a quoted value such as 'x'");
    }
    return new Condition.Test(
        b, new Behaviour.Field(nt.text(), Behaviour.Kind.TEXT), op, vt.text(), null, true);
  }

  private Token peek() {
    return tokens.get(next);
  }

  private boolean accept(String keyword) {
    if (peek().is(keyword)) {
      next++;
      return true;
    }
    return false;
  }

  private static InvalidInputException error(Token t, String message) {
    return new InvalidInputException(
        FIELD, "at " + (t.at() + 1) + " (" + t.shown() + "): " + message);
  }

  private static List<Token> lex(String s) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (isWordStart(c)) {
        int start = i;
        while (i < s.length() && isWordPart(s.charAt(i))) {
          i++;
        }
        out.add(new Token(Kind.WORD, s.substring(start, i), start));
      } else if (c >= '0' && c <= '9') {
        int start = i;
        while (i < s.length() && (isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
          i++;
        }
        int digitsEnd = i;
        while (i < s.length() && isWordPart(s.charAt(i))) {
          i++;
        }
        String text = s.substring(start, i);
        if (digitsEnd < i) {
          out.add(new Token(Kind.SPAN, text, start));
        } else if (!text.matches("[0-9]{1,18}(\\.[0-9]+)?")) {
          throw error(new Token(Kind.NUMBER, text, start), "not a number");
        } else {
          out.add(new Token(Kind.NUMBER, text, start));
        }
      } else if (c == '\'') {
        i = quoted(s, i, out);
      } else {
        int start = i;
        String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
        String sym =
            switch (two) {
              case "!=", "<=", ">=" -> two;
              default -> "()=<>~.".indexOf(c) >= 0 ? String.valueOf(c) : null;
            };
        if (sym == null) {
          throw error(new Token(Kind.SYMBOL, String.valueOf(c), start), "unexpected character");
        }
        i += sym.length();
        out.add(new Token(Kind.SYMBOL, sym, start));
      }
    }
    out.add(new Token(Kind.END, "", s.length()));
    return out;
  }

  /** A {@code '…'} value ({@code ''} inside is one quote) from {@code i}; returns its end. */
  private static int quoted(String s, int i, List<Token> out) {
    int start = i;
    StringBuilder text = new StringBuilder();
    i++;
    while (true) {
      if (i >= s.length()) {
        throw error(new Token(Kind.TEXT, s.substring(start), start), "unterminated quote");
      }
      char c = s.charAt(i);
      if (c == '\'') {
        if (i + 1 < s.length() && s.charAt(i + 1) == '\'') {
          text.append('\'');
          i += 2;
          continue;
        }
        out.add(new Token(Kind.TEXT, text.toString(), start));
        return i + 1;
      }
      text.append(c);
      i++;
    }
  }

  private static boolean isWordStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isWordPart(char c) {
    return isWordStart(c) || isDigit(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
