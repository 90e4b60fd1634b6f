package org.casebook.docs;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;

/**
 * Checks a document's JSON against its type and converts values between JSON, Java and cells.
 * Inside the store a value is a String (text, keyword), a Long (long, time in epoch milliseconds),
 * a Double or a List of Strings; {@link #external} gives the JSON form (time as ISO-8601).
 */
final class DocCodec {
  /** Keywords are joined with a line feed in their cell: keywords cannot contain one. */
  private static final char KEYWORD_SEPARATOR = '\n';

  private DocCodec() {}

  /**
   * The fields of {@code body} (a JSON object) as typed values in the type's field order. A null
   * value means "remove this field" and is kept only when {@code nullsRemove}; otherwise it is the
   * same as leaving the field out. Unknown fields, wrong kinds and oversized values are 400s naming
   * the field.
   */
  static Map<String, Object> parse(DocType type, JsonNode body, boolean nullsRemove) {
    InvalidInputException.check(
        body != null && body.isObject(), "body", "a document is a JSON object of its fields");
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      InvalidInputException.check(
          type.field(name).isPresent(),
          name,
          "unknown field '" + name + "' for type " + type.name());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldDef f : type.fields()) {
      JsonNode v = body.get(f.name());
      if (v == null) {
        continue;
      }
      if (v.isNull()) {
        if (nullsRemove) {
          out.put(f.name(), null);
        }
        continue;
      }
      out.put(f.name(), value(f, v));
    }
    return out;
  }

  private static Object value(FieldDef f, JsonNode v) {
    String name = f.name();
    return switch (f.kind()) {
      case TEXT -> text(name, v, DocLimits.MAX_TEXT_CHARS, true);
      case KEYWORD -> keyword(name, v);
      case LONG -> {
        InvalidInputException.check(
            v.isIntegralNumber() && v.canConvertToLong(), name, name + " must be an integer");
        yield v.longValue();
      }
      case DOUBLE -> {
        InvalidInputException.check(
            v.isNumber() && Double.isFinite(v.doubleValue()), name, name + " must be a number");
        yield v.doubleValue();
      }
      case TIME -> time(name, v);
      case KEYWORDS -> {
        InvalidInputException.check(v.isArray(), name, name + " must be a list of keywords");
        InvalidInputException.check(
            v.size() <= DocLimits.MAX_KEYWORDS,
            name,
            name + " has more than " + DocLimits.MAX_KEYWORDS + " keywords");
        List<String> list = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
          list.add(keyword(name + "[" + i + "]", v.get(i)));
        }
        yield List.copyOf(list);
      }
    };
  }

  private static String text(String name, JsonNode v, int maxChars, boolean lineBreaks) {
    InvalidInputException.check(v.isTextual(), name, name + " must be a string");
    return checkedText(name, v.textValue(), maxChars, lineBreaks);
  }

  private static String keyword(String name, JsonNode v) {
    InvalidInputException.check(v.isTextual(), name, name + " must be a string");
    return checkedKeyword(name, v.textValue());
  }

  private static String checkedKeyword(String name, String s) {
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

  private static long time(String name, JsonNode v) {
    if (v.isIntegralNumber() && v.canConvertToLong() && v.longValue() >= 0) {
      return v.longValue();
    }
    InvalidInputException.check(
        v.isTextual(), name, name + " must be an ISO-8601 instant or epoch milliseconds");
    return isoTime(name, v.textValue());
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
   * Parses a document line straight into typed values, checking each against its field as it is
   * read: no JSON tree, one pass. Same rules and errors as {@link #parse(DocType, JsonNode,
   * boolean)} (null values are left out); {@code refresh} gives the type again when the line names
   * a field it lacks (another process may have added it).
   */
  static Map<String, Object> parse(
      DocType type, byte[] json, java.util.function.UnaryOperator<DocType> refresh) {
    Map<String, Object> out = new LinkedHashMap<>();
    DocType current = type;
    boolean refreshed = false;
    try (JsonParser p = Json.mapper().createParser(json)) {
      InvalidInputException.check(
          p.nextToken() == JsonToken.START_OBJECT,
          "body",
          "a document is a JSON object of its fields");
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        Optional<FieldDef> f = current.field(name);
        if (f.isEmpty() && !refreshed) {
          current = refresh.apply(current);
          refreshed = true;
          f = current.field(name);
        }
        if (f.isEmpty()) {
          throw new InvalidInputException(
              name, "unknown field '" + name + "' for type " + current.name());
        }
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) {
          continue;
        }
        out.put(name, value(f.get(), p, t));
      }
      InvalidInputException.check(p.nextToken() == null, "body", "trailing content after document");
    } catch (JsonProcessingException e) {
      throw new InvalidInputException(
          "body", "request body is not valid JSON: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new InvalidInputException("body", "request body could not be read: " + e.getMessage());
    }
    return out;
  }

  private static Object value(FieldDef f, JsonParser p, JsonToken t) throws java.io.IOException {
    String name = f.name();
    return switch (f.kind()) {
      case TEXT -> {
        InvalidInputException.check(t == JsonToken.VALUE_STRING, name, name + " must be a string");
        yield checkedText(name, p.getText(), DocLimits.MAX_TEXT_CHARS, true);
      }
      case KEYWORD -> {
        InvalidInputException.check(t == JsonToken.VALUE_STRING, name, name + " must be a string");
        yield checkedKeyword(name, p.getText());
      }
      case LONG -> {
        InvalidInputException.check(integral(p, t), name, name + " must be an integer");
        yield p.getLongValue();
      }
      case DOUBLE -> {
        boolean number = t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT;
        InvalidInputException.check(
            number && Double.isFinite(p.getDoubleValue()), name, name + " must be a number");
        yield p.getDoubleValue();
      }
      case TIME -> {
        if (integral(p, t) && p.getLongValue() >= 0) {
          yield p.getLongValue();
        }
        InvalidInputException.check(
            t == JsonToken.VALUE_STRING,
            name,
            name + " must be an ISO-8601 instant or epoch milliseconds");
        yield isoTime(name, p.getText());
      }
      case KEYWORDS -> {
        InvalidInputException.check(
            t == JsonToken.START_ARRAY, name, name + " must be a list of keywords");
        List<String> list = new ArrayList<>();
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          InvalidInputException.check(
              list.size() < DocLimits.MAX_KEYWORDS,
              name,
              name + " has more than " + DocLimits.MAX_KEYWORDS + " keywords");
          String element = name + "[" + list.size() + "]";
          InvalidInputException.check(
              e == JsonToken.VALUE_STRING, element, element + " must be a string");
          list.add(checkedKeyword(element, p.getText()));
        }
        yield List.copyOf(list);
      }
    };
  }

  private static boolean integral(JsonParser p, JsonToken t) throws java.io.IOException {
    return t == JsonToken.VALUE_NUMBER_INT
        && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
  }

  /**
   * The cell of one family's fields but the counters (which have cells of their own), from typed
   * values: for each field present, in the type's order, its name (1 byte length, ASCII), the
   * length of its value (4 bytes) and the value as {@link #encode} gives it. Names rather than
   * positions, so a type that gains fields still reads its old cells.
   */
  static byte[] encodeFamily(DocType type, Family family, Map<String, Object> values) {
    int size = 0;
    int n = 0;
    byte[][] encoded = new byte[type.fields().size()][];
    for (int i = 0; i < encoded.length; i++) {
      FieldDef f = type.fields().get(i);
      Object v = values.get(f.name());
      if (v != null && f.family() == family && !Documents.isCounter(f)) {
        encoded[i] = encode(f.kind(), v);
        size += 1 + f.name().length() + 4 + encoded[i].length;
        n++;
      }
    }
    java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(size);
    for (int i = 0; i < encoded.length && n > 0; i++) {
      if (encoded[i] != null) {
        String name = type.fields().get(i).name();
        out.put((byte) name.length());
        out.put(name.getBytes(StandardCharsets.US_ASCII));
        out.putInt(encoded[i].length);
        out.put(encoded[i]);
      }
    }
    return out.array();
  }

  /** Adds the fields of a family cell (see {@link #encodeFamily}) to {@code into}, as cells. */
  static void decodeFamily(byte[] cell, int offset, int length, Map<String, byte[]> into) {
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(cell, offset, length);
    while (in.hasRemaining()) {
      byte[] name = new byte[in.get()];
      in.get(name);
      byte[] value = new byte[in.getInt()];
      in.get(value);
      into.put(new String(name, StandardCharsets.US_ASCII), value);
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
        || day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
      return -1;
    }
    long days = java.time.LocalDate.of(year, month, day).toEpochDay();
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

  /** The cell value of a typed value. */
  @SuppressWarnings("unchecked") // KEYWORDS values are built as List<String> by parse and decode
  static byte[] encode(FieldKind kind, Object value) {
    return switch (kind) {
      case TEXT, KEYWORD -> ((String) value).getBytes(StandardCharsets.UTF_8);
      case LONG, TIME -> Bytes.toBytes((Long) value);
      case DOUBLE -> Bytes.toBytes((Double) value);
      case KEYWORDS ->
          String.join(String.valueOf(KEYWORD_SEPARATOR), (List<String>) value)
              .getBytes(StandardCharsets.UTF_8);
    };
  }

  /** The typed value of a cell. */
  static Object decode(FieldKind kind, byte[] cell) {
    return switch (kind) {
      case TEXT, KEYWORD -> new String(cell, StandardCharsets.UTF_8);
      case LONG, TIME -> Bytes.toLong(cell);
      case DOUBLE -> Bytes.toDouble(cell);
      case KEYWORDS ->
          cell.length == 0
              ? List.of()
              : List.of(
                  new String(cell, StandardCharsets.UTF_8)
                      .split(String.valueOf(KEYWORD_SEPARATOR), -1));
    };
  }

  /** The JSON form of a typed value. */
  static Object external(FieldKind kind, Object value) {
    return kind == FieldKind.TIME ? Instant.ofEpochMilli((Long) value).toString() : value;
  }

  /** The JSON form of a whole set of typed values, in the type's order. */
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
