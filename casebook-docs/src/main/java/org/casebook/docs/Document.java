package org.casebook.docs;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One document as read: both families assembled, in the type's field order, with the version a
 * write-back must name ({@code If-Match}). Values are strings (text, keyword, time as ISO-8601),
 * longs, doubles or lists of strings. {@code parent} is set for comments; {@code corrected} names
 * the fields a person corrected (a re-crawl keeps them), absent when there are none.
 */
public record Document(
    String type,
    String id,
    long version,
    @JsonInclude(JsonInclude.Include.NON_NULL) DocRef parent,
    Map<String, Object> fields,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Correction> corrected) {
  public Document {
    Objects.requireNonNull(type, "type is null");
    Objects.requireNonNull(id, "id is null");
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    corrected =
        corrected == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(corrected));
  }

  /** The HTTP entity tag of this version. */
  public String etag() {
    return "\"" + version + "\"";
  }
}
