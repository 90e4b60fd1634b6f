package org.casebook.tsdb;

import java.util.List;

/**
 * A query's answer with its annotations, as {@code /api/query} writes them.
 *
 * @param results per sub-query, its groups
 * @param notes per sub-query, per group, the notes of the group's series (empty lists when the
 *     query asked for none)
 * @param globals the global notes in the query's range (empty unless asked for)
 */
public record AnnotatedAnswer(
    List<List<QueryResult>> results, List<List<List<Annotation>>> notes, List<Annotation> globals) {
  public AnnotatedAnswer {
    results = List.copyOf(results);
    notes = notes.stream().map(q -> q.stream().map(List::copyOf).toList()).toList();
    globals = List.copyOf(globals);
  }
}
