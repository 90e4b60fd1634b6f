package org.casebook.docs;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The result of one action of a bulk request: HTTP-like {@code status} (201 created, 200 replaced
 * or deleted, 400 bad document naming {@code field}, 404, 409), the document's id and version when
 * stored. {@code line} is the action's line number in the request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BulkItem(
    int line,
    String action,
    String type,
    String id,
    int status,
    Long version,
    String error,
    String field) {
  public boolean ok() {
    return status < 300;
  }
}
