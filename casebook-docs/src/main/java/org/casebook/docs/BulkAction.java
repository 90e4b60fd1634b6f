package org.casebook.docs;

import java.util.Objects;
import org.casebook.core.InvalidInputException;

/**
 * One action of a bulk request, as a reader of its format gives it (the REST API's and the CLI's:
 * Elasticsearch's {@code _bulk} NDJSON).
 *
 * @param line where the action is in the request (its results name it)
 * @param action {@code index} (store, replacing), {@code create} (store if absent) or {@code
 *     delete}; anything else only with a {@code problem} ({@code ?} for a line that could not be
 *     read)
 * @param type the document type ({@code _index}); null if the action names none
 * @param id the document's id; null in an {@code index} or {@code create}: generated
 * @param parent a comment's parent; null for other documents
 * @param document the document to store; null for {@code delete}
 * @param problem why the action cannot run as given (reported for it, its document skipped); null
 *     if it can
 */
public record BulkAction(
    int line,
    String action,
    String type,
    String id,
    DocRef parent,
    BulkDocument document,
    InvalidInputException problem) {
  public BulkAction {
    Objects.requireNonNull(action, "action is null");
  }

  public boolean isDelete() {
    return action.equals("delete");
  }
}
