package org.casebook.docs;

import java.util.Map;

/**
 * The document of a bulk action, read when the load gets to it: on one of its parser threads, so
 * that documents are read side by side.
 */
public interface BulkDocument {
  /** Its size as sent (the bytes of its line), for the size of a batch. */
  long bytes();

  /**
   * Its fields as values {@link DocsService#put} takes, read now; an {@link
   * org.casebook.core.InvalidInputException} if it cannot be read (naming {@code document} or
   * {@code body}), which fails this action only.
   */
  Map<String, Object> fields();
}
