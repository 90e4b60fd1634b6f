package org.casebook.docs;

import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.page.Cursors;

/**
 * Row keys and qualifiers of the document store, each a declared {@link KeyLayout}; the store
 * builds and reads every key through these.
 *
 * <pre>
 * docs:&lt;type&gt;      row  bucket(md5 of id, 4 bytes) | id | type          one document
 * docs:&lt;child&gt;     row  bucket(md5 of parent id) | parent id | parent type | created | cid
 *                         = the parent's row key, then the comment's ordering part
 * docs:by_source   row  bucket(salt of source) | source | type | day | created | id
 * docs:registry    row  type name
 * every family     qualifier  field name: {@code _d} (the family's fields), {@code _v}, {@code _c},
 *                             counters
 * H (history)      qualifier  reverse version: a document's changes, newest first
 * </pre>
 *
 * The type follows the id so that a comment's key is literally its parent's row key followed by its
 * own part, and a blog and a BBS post with the same id have different row keys, so their comments
 * (one comment table for both) never mix. The hash comes from the id, the first given part, so a
 * prefix of the id's key is still a bounded range.
 */
final class DocsKeys {
  /** Buckets of the source-day index: one site's listing stays in one bucket (one scan). */
  static final int INDEX_BUCKETS = 16;

  static final KeyLayout DOC =
      KeyLayout.named("document row")
          .hash("bucket", 4, "id")
          .part("id", PartType.STRING)
          .part("type", PartType.STRING)
          .build();

  static final KeyLayout COMMENT =
      KeyLayout.named("comment row")
          .hash("bucket", 4, "parentId")
          .part("parentId", PartType.STRING)
          .part("parentType", PartType.STRING)
          .part("created", PartType.LONG)
          .part("cid", PartType.STRING)
          .build();

  static final KeyLayout SOURCE_DAY =
      KeyLayout.named("source-day index row")
          .salt("bucket", INDEX_BUCKETS, "source")
          .part("source", PartType.STRING)
          .part("type", PartType.STRING)
          .part("day", PartType.INT)
          .part("created", PartType.LONG)
          .part("id", PartType.STRING)
          .build();

  static final KeyLayout TYPE = KeyLayout.named("type row").part("type", PartType.STRING).build();

  static final KeyLayout FIELD =
      KeyLayout.named("field qualifier").part("field", PartType.STRING).build();

  /**
   * A history entry's column in its document's row: the version of the change it records, newest
   * first, so a page of the history is one read of a run of columns.
   */
  static final KeyLayout HISTORY =
      KeyLayout.named("history qualifier").part("version", PartType.REVERSE_TIMESTAMP).build();

  /** Every layout above, for the descriptor. */
  static final List<KeyLayout> ALL = List.of(DOC, COMMENT, SOURCE_DAY, TYPE, FIELD, HISTORY);

  // One cursor scope per listing (and per comment order): a cursor of one is refused by another.
  static final String SOURCE_SCOPE = "docs.source";
  static final String OLDEST_SCOPE = "docs.comments.oldest";
  static final String NEWEST_SCOPE = "docs.comments.newest";
  static final String HISTORY_SCOPE = "docs.history";

  private DocsKeys() {}

  /** A position in an ordered listing: the created time and the id that breaks ties. */
  record Position(long created, String id) {}

  static String cursor(String scope, Position last) {
    return Cursors.encode(
        scope, KeyBuilder.create().addLong(last.created()).addString(last.id()).build());
  }

  static Position parseCursor(String scope, String cursor) {
    return Cursors.decode(scope, cursor, r -> new Position(r.readLong(), r.readString()));
  }

  /** A position in a document's history: the version of the last entry shown. */
  static String historyCursor(long version) {
    return Cursors.encode(HISTORY_SCOPE, KeyBuilder.create().addLong(version).build());
  }

  static long parseHistoryCursor(String cursor) {
    long version = Cursors.decode(HISTORY_SCOPE, cursor, r -> r.readLong());
    InvalidInputException.check(version > 0, "cursor", "cursor is not one this listing gave");
    return version;
  }
}
