package org.casebook.docs;

import java.util.Objects;

/** A document by type and id (a comment's parent, a bulk result). */
public record DocRef(String type, String id) {
  public DocRef {
    Objects.requireNonNull(type, "type is null");
    Objects.requireNonNull(id, "id is null");
  }
}
