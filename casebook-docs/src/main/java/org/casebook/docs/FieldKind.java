package org.casebook.docs;

/** What a field holds, which decides how its JSON is checked and how its cell is encoded. */
public enum FieldKind {
  /** Free text (UTF-8, line breaks allowed), up to {@link DocLimits#MAX_TEXT_CHARS}. */
  TEXT,
  /** A short exact value (author, site, URL), up to {@link DocLimits#MAX_KEYWORD_CHARS}. */
  KEYWORD,
  /** A 64-bit integer (8-byte cell, so counters can be HBase increments). */
  LONG,
  /** A 64-bit float. */
  DOUBLE,
  /** An instant: ISO-8601 or epoch milliseconds in, ISO-8601 out; an 8-byte millisecond cell. */
  TIME,
  /** A list of keywords (tags). */
  KEYWORDS
}
