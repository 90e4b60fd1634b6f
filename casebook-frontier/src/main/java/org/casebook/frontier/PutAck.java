package org.casebook.frontier;

import java.util.Objects;

/** The acknowledgement of one item put: its id (its URL when it had none) and what became of it. */
public record PutAck(String id, PutStatus status) {
  public PutAck {
    Objects.requireNonNull(id, "id is null");
    Objects.requireNonNull(status, "status is null");
  }
}
