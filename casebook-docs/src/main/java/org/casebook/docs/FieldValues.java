package org.casebook.docs;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * A document's fields as given (JSON values: strings, numbers, lists, null — what a JSON reader
 * gives, or a caller of the Java API builds) checked against its type and turned into typed values,
 * and back. A typed value is a String (text, keyword), a Long (long, time in epoch milliseconds), a
 * Double or a List of Strings; {@link #external} gives the form a read shows (time as ISO-8601).
 */
final class FieldValues {
  private FieldValues() {}

  /**
   * The fields of {@code body} as typed values in the type's field order. A null value means
   * "remove this field" and is kept only when {@code nullsRemove}; otherwise it is the same as
   * leaving the field out. Unknown fields, wrong kinds and oversized values are 400s naming the
   * field.
   */
  static Map<String, Object> typed(DocType type, Map<String, ?> body, boolean nullsRemove) {
    InvalidInputException.check(body != null, "body", "a document is a JSON object of its fields");
    for (String name : body.keySet()) {
      InvalidInputException.check(
          type.field(name).isPresent(),
          name,
          "unknown field '" + name + "' for type " + type.name());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldDef f : type.fields()) {
      if (!body.containsKey(f.name())) {
        continue;
      }
      Object v = body.get(f.name());
      if (v == null) {
        if (nullsRemove) {
          out.put(f.name(), null);
        }
        continue;
      }
      out.put(f.name(), value(f, v));
    }
    return out;
  }

  private static Object value(FieldDef f, Object v) {
    String name = f.name();
    return switch (f.kind()) {
      case TEXT -> {
        InvalidInputException.check(v instanceof String, name, name + " must be a string");
        yield checkedText(name, (String) v, DocLimits.MAX_TEXT_CHARS, true);
      }
      case KEYWORD -> keyword(name, v);
      case LONG -> {
        InvalidInputException.check(integral(v), name, name + " must be an integer");
        yield ((Number) v).longValue();
      }
      case DOUBLE -> {
        InvalidInputException.check(
            v instanceof Number n && Double.isFinite(n.doubleValue()),
            name,
            name + " must be a number");
        yield ((Number) v).doubleValue();
      }
      case TIME -> time(name, v);
      case KEYWORDS -> {
        InvalidInputException.check(
            v instanceof List<?>, name, name + " must be a list of keywords");
        List<?> given = (List<?>) v;
        InvalidInputException.check(
            given.size() <= DocLimits.MAX_KEYWORDS,
            name,
            name + " has more than " + DocLimits.MAX_KEYWORDS + " keywords");
        List<String> list = new ArrayList<>(given.size());
        for (int i = 0; i < given.size(); i++) {
          list.add(keyword(name + "[" + i + "]", given.get(i)));
        }
        yield List.copyOf(list);
      }
    };
  }

  /** A whole number that fits a long: what JSON readers give for an integer (or a BigInteger). */
  private static boolean integral(Object v) {
    return v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte
        || (v instanceof BigInteger b && b.bitLength() < Long.SIZE);
  }

  private static String keyword(String name, Object v) {
    InvalidInputException.check(v instanceof String, name, name + " must be a string");
    String s = (String) v;
    checkedText(name, s, DocLimits.MAX_KEYWORD_CHARS, false);
    InvalidInputException.check(!s.isBlank(), name, name + " must not be blank");
    return s;
  }

  /**
   * {@code s} if {@link Ids#textProblem} finds nothing wrong with it. Most text is plain: one pass
   * over its chars decides that, and only text with a control character, a surrogate or more chars
   * than allowed takes the exact (code point by code point) check, which also words the error.
   */
  private static String checkedText(String name, String s, int maxChars, boolean lineBreaks) {
    if (!plain(s, maxChars, lineBreaks)) {
      String problem = Ids.textProblem(s, maxChars, lineBreaks);
      InvalidInputException.check(problem == null, name, name + " " + problem);
    }
    return s;
  }

  private static boolean plain(String s, int maxChars, boolean lineBreaks) {
    int n = s.length();
    if (n > maxChars) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20) {
        if (!lineBreaks || (c != '\n' && c != '\r' && c != '\t')) {
          return false;
        }
      } else if ((c >= 0x7F && c <= 0x9F) || Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private static long time(String name, Object v) {
    if (integral(v) && ((Number) v).longValue() >= 0) {
      return ((Number) v).longValue();
    }
    InvalidInputException.check(
        v instanceof String, name, name + " must be an ISO-8601 instant or epoch milliseconds");
    return isoTime(name, (String) v);
  }

  private static long isoTime(String name, String text) {
    long fast = plainInstant(text);
    if (fast >= 0) {
      return fast;
    }
    try {
      long millis = Instant.parse(text).toEpochMilli();
      InvalidInputException.check(millis >= 0, name, name + " must not be before 1970");
      return millis;
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new InvalidInputException(
          name, name + " must be an ISO-8601 instant like 2026-09-01T08:00:00Z");
    }
  }

  /**
   * Epoch milliseconds of an instant in the common form {@code 2026-09-01T08:00:00Z} or {@code
   * 2026-09-01T08:00:00.123Z} from 1970 on, without the general parser (a bulk load has one or two
   * per document); -1 for any other form, which {@link Instant#parse} then decides.
   */
  static long plainInstant(String s) {
    int n = s.length();
    boolean millis = n == 24 && s.charAt(19) == '.';
    if ((n != 20 && !millis)
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(10) != 'T'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':'
        || s.charAt(n - 1) != 'Z') {
      return -1;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    int ms = millis ? digits(s, 20, 3) : 0;
    if (year < 1970
        || month < 1
        || month > 12
        || day < 1
        || (hour | minute | second | ms) < 0
        || hour > 23
        || minute > 59
        || second > 59
        || day > YearMonth.of(year, month).lengthOfMonth()) {
      return -1;
    }
    long days = LocalDate.of(year, month, day).toEpochDay();
    return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + ms;
  }

  /** The decimal number of {@code count} ASCII digits at {@code from}, or -1. */
  private static int digits(String s, int from, int count) {
    int v = 0;
    for (int i = from; i < from + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** The form a read shows of a typed value. */
  static Object external(FieldKind kind, Object value) {
    return kind == FieldKind.TIME ? Instant.ofEpochMilli((Long) value).toString() : value;
  }

  /** The form a read shows of a whole set of typed values, in the type's order. */
  static Map<String, Object> external(DocType type, Map<String, Object> values) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldDef f : type.fields()) {
      Object v = values.get(f.name());
      if (v != null) {
        out.put(f.name(), external(f.kind(), v));
      }
    }
    return out;
  }
}
