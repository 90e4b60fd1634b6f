package org.casebook.docs;

import java.util.List;

/**
 * One change in a document's history: who made it ({@code crawl} or {@code person}), when, the
 * version it stored, the fields it changed and the corrections it dropped.
 *
 * @param by the editor of a person's change ({@code person} when the edit named none); null for a
 *     crawl
 */
public record HistoryEntry(
    long version,
    String at,
    String side,
    String by,
    List<FieldChange> changes,
    List<String> dropped) {
  public static final String CRAWL = "crawl";
  public static final String PERSON = "person";

  public HistoryEntry {
    changes = changes == null ? List.of() : List.copyOf(changes);
    dropped = dropped == null ? List.of() : List.copyOf(dropped);
  }
}
