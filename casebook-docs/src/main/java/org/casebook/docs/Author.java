package org.casebook.docs;

/**
 * Who a write comes from: a person's edit (the write-back over a version read, If-Match) or a
 * crawler (every other write: bulk loads, and PUT or PATCH without If-Match).
 *
 * @param name the editor's name; null for a crawl
 */
record Author(boolean person, String name) {
  static final Author CRAWL = new Author(false, null);

  /** The name a person's edit is recorded under when it names no editor. */
  static final String UNNAMED = "person";

  static Author person(String name) {
    return new Author(true, name == null ? UNNAMED : name);
  }
}
