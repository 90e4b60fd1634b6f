package org.casebook.docs;

import java.util.List;
import org.casebook.core.NotFoundException;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.docs.DocIds.CommentId;
import org.casebook.docs.DocsKeys.Position;

/** Reads of single documents and of a document's comments, assembled from both families. */
final class DocumentReads {
  private final DocumentStore store;
  private final Targets targets;

  DocumentReads(DocumentStore store, Targets targets) {
    this.store = store;
    this.targets = targets;
  }

  Document get(Target t) {
    StoredRow row = store.read(t).filter(StoredRow::live).orElseThrow(() -> notFound(t));
    return Targets.document(t, row);
  }

  /** Whether {@code t} exists and is not deleted: its version cell only. */
  boolean live(Target t) {
    return store.liveAll(t.table(), List.of(t.row())).get(0);
  }

  static NotFoundException notFound(Target t) {
    return new NotFoundException("no " + t.type().name() + " document '" + t.id() + "'");
  }

  /**
   * The comments of {@code parent} of type {@code child}, newest or oldest first: one bounded
   * prefix scan of the parent's key (reversed for newest first) per page, live rows only.
   */
  Page<Document> comments(Target parent, DocType child, CommentOrder order, PageRequest page) {
    if (!live(parent)) {
      throw notFound(parent);
    }
    String scope = order == CommentOrder.NEWEST ? DocsKeys.NEWEST_SCOPE : DocsKeys.OLDEST_SCOPE;
    String parentType = parent.type().name();
    KeyRange range = DocsKeys.COMMENT.range(parent.id(), parentType);
    byte[] after =
        page.cursor()
            .map(c -> DocsKeys.parseCursor(scope, c))
            .map(pos -> DocsKeys.COMMENT.encode(parent.id(), parentType, pos.created(), pos.id()))
            .orElse(null);
    int n = page.fetchSize();
    RowRange rows =
        order == CommentOrder.NEWEST
            ? new RowRange(
                after == null ? range.stop() : after, false, range.start(), true, true, n)
            : new RowRange(
                after == null ? range.start() : after,
                after == null,
                range.stop(),
                false,
                false,
                n);
    List<Document> found = comments(child, store.scanLive(child, targets.table(child), rows));
    return Page.of(
        found,
        page.limit(),
        d -> {
          CommentId c = DocIds.parseComment(d.id(), "id");
          return DocsKeys.cursor(scope, new Position(c.created(), c.cid()));
        });
  }

  /** Every live comment of {@code parent} of type {@code child}, at most {@code limit}. */
  List<Document> comments(Target parent, DocType child, int limit) {
    KeyRange range = DocsKeys.COMMENT.range(parent.id(), parent.type().name());
    return comments(child, store.scanLive(child, targets.table(child), RowRange.of(range, limit)));
  }

  /** The comment documents of rows of a child table. */
  private List<Document> comments(DocType child, List<StoredRow> rows) {
    return rows.stream().map(r -> Targets.document(targets.ofRow(child, r.row()), r)).toList();
  }
}
