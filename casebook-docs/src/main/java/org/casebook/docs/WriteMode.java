package org.casebook.docs;

/** How a single-document write treats what is stored. */
enum WriteMode {
  /** Store only if the document does not exist (bulk {@code create}, comments). */
  CREATE,
  /** Store, replacing every field but the counters (PUT, bulk {@code index} over a deleted row). */
  REPLACE,
  /** Change the named fields of an existing document (PATCH; null removes a field). */
  PATCH
}
