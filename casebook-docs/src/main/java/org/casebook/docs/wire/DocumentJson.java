package org.casebook.docs.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;

/**
 * A document's JSON (a REST body, a line of a bulk request, a CLI argument) read with Jackson's
 * streaming parser straight into the values {@link org.casebook.docs.DocsService} takes: strings,
 * longs (BigIntegers beyond a long), doubles, booleans, lists, maps and nulls, in the order given.
 * No tree: one pass from UTF-8 bytes, which is most of a bulk load's parsing. The service checks
 * the values against the document's type.
 */
public final class DocumentJson {
  private DocumentJson() {}

  /** The fields of a document: a JSON object, nothing after it. A 400 naming {@code body}. */
  public static Map<String, Object> read(byte[] json) {
    return read(json, 0, json.length);
  }

  /** As {@link #read(byte[])}, from {@code length} bytes at {@code offset}. */
  public static Map<String, Object> read(byte[] json, int offset, int length) {
    try (JsonParser p = Json.mapper().createParser(json, offset, length)) {
      InvalidInputException.check(
          p.nextToken() == JsonToken.START_OBJECT,
          "body",
          "a document is a JSON object of its fields");
      Map<String, Object> out = object(p);
      InvalidInputException.check(p.nextToken() == null, "body", "trailing content after document");
      return out;
    } catch (JsonProcessingException e) {
      throw new InvalidInputException(
          "body", "request body is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InvalidInputException("body", "request body could not be read: " + e.getMessage());
    }
  }

  /**
   * A value typed on a command line: JSON ({@code 42}, {@code ["a"]}, {@code null}) if it is JSON,
   * else the text itself (plain text is the common case for a correction).
   */
  public static Object valueOrText(String raw) {
    byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
    try (JsonParser p = Json.mapper().createParser(bytes)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return raw;
      }
      Object v = value(p, t);
      return p.nextToken() == null ? v : raw;
    } catch (JsonProcessingException notJson) {
      return raw;
    } catch (IOException e) {
      throw new InvalidInputException("value", "value could not be read: " + e.getMessage());
    }
  }

  /** The members of the object whose START_OBJECT was just read, up to its END_OBJECT. */
  private static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      out.put(name, value(p, p.nextToken()));
    }
    return out;
  }

  private static Object value(JsonParser p, JsonToken t) throws IOException {
    InvalidInputException.check(t != null, "body", "the document ends inside a value");
    return switch (t) {
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT ->
          p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
              ? p.getBigIntegerValue()
              : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> true;
      case VALUE_FALSE -> false;
      case VALUE_NULL -> null;
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          list.add(value(p, e));
        }
        yield list;
      }
      case START_OBJECT -> object(p);
      default -> throw new InvalidInputException("body", "unexpected " + t + " in a document");
    };
  }
}
