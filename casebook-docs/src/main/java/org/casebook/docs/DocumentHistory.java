package org.casebook.docs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A page of a document's history, newest change first, with the fields a person corrected now.
 *
 * @param next the cursor of the following page; null on the last
 */
public record DocumentHistory(
    Map<String, Correction> corrected, List<HistoryEntry> entries, String next) {
  public DocumentHistory {
    corrected = Collections.unmodifiableMap(new LinkedHashMap<>(corrected));
    entries = List.copyOf(entries);
  }
}
