package org.casebook.core;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import java.io.IOException;
import java.util.stream.Collectors;

/**
 * The process's one Jackson mapper. Strict on input: unknown fields, duplicate keys, trailing
 * content after the value and nulls for primitives are refused by configuration. Plain on output;
 * {@code Optional} is written as its value or null.
 */
public final class Json {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .addModule(new Jdk8Module())
          .build();

  static {
    // A number or boolean where text is expected is a client's mistake to report, not to store.
    for (CoercionInputShape shape :
        new CoercionInputShape[] {
          CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean
        }) {
      MAPPER.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
    }
  }

  private Json() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getName(), e);
    }
  }

  public static byte[] writeBytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getName(), e);
    }
  }

  public static String writePretty(Object value) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getName(), e);
    }
  }

  /**
   * Binds a request body to {@code type}. Every problem is an {@link InvalidInputException} naming
   * the field: an unknown field by its own name, a wrong type or a failed check by its path,
   * malformed JSON (and trailing content, duplicate keys) as {@code body}.
   */
  public static <T> T readBody(byte[] body, Class<T> type) {
    InvalidInputException.check(
        body != null && body.length > 0,
        "body",
        "request body is empty; a JSON object is required");
    try {
      return MAPPER.readValue(body, type);
    } catch (UnrecognizedPropertyException e) {
      throw new InvalidInputException(
          e.getPropertyName(), "unknown field '" + e.getPropertyName() + "'");
    } catch (ValueInstantiationException e) {
      if (e.getCause() instanceof InvalidInputException iie) {
        throw iie;
      }
      throw new InvalidInputException(fieldOf(e), "bad value: " + e.getOriginalMessage());
    } catch (JsonParseException e) {
      throw new InvalidInputException(
          "body", "request body is not valid JSON: " + e.getOriginalMessage());
    } catch (JsonMappingException e) {
      String field = fieldOf(e);
      throw new InvalidInputException(
          field,
          field.equals("body")
              ? "request body does not have the expected shape: " + e.getOriginalMessage()
              : "'" + field + "' has the wrong type or shape");
    } catch (IOException e) {
      throw new InvalidInputException("body", "request body could not be read: " + e.getMessage());
    }
  }

  /** The dotted path of the value Jackson failed on ({@code items[2].name}), or {@code body}. */
  static String fieldOf(JsonMappingException e) {
    if (e.getPath() == null || e.getPath().isEmpty()) {
      return "body";
    }
    return e.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }
}
