package org.casebook.docs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the corrections cell of a document row ({@code DI:_c}) holds: per corrected field its mark
 * and the value the person left (shown over whatever a crawl wrote since), and the versions of the
 * history entries kept, oldest first (so the oldest can be removed by its column, without a read).
 * A document a person edited keeps the cell, empty of marks once every correction is dropped, so
 * the crawls that follow still enter its history.
 */
record CorrectionState(Map<String, FieldMark> marks, List<Long> history) {
  CorrectionState {
    marks = Collections.unmodifiableMap(new LinkedHashMap<>(marks));
    history = List.copyOf(history);
  }

  /**
   * A corrected field.
   *
   * @param value the field's value as the person left it, as its cell holds it; null when the
   *     person removed the field
   */
  @SuppressWarnings(
      "ArrayRecordComponent") // a cell value: never compared with equals, never mutated
  record FieldMark(String by, long atMs, long version, byte[] value) {}
}
