package org.casebook.docs;

/** How a single-document write treats what is stored. */
enum WriteMode {
  /** Store only if the document does not exist (bulk {@code create}, comments). */
  CREATE,
  /** Store, replacing every field but the counters (PUT). */
  REPLACE,
  /**
   * Store, replacing every field, counters included, as a bulk {@code index} does: the path of a
   * bulk {@code index} over a document a person edited (the others are blind writes).
   */
  INDEX,
  /** Change the named fields of an existing document (PATCH; null removes a field). */
  PATCH
}
