package org.casebook.docs;

import org.casebook.core.CasebookException;
import org.casebook.core.InvalidInputException;

/**
 * A bulk action on its way through a load ({@link BulkLoader}): resolved on the reading thread, its
 * document checked and encoded on a parser thread, written in a batch ({@link BulkWrites}). Each
 * stage hands the op to the next through an executor, which orders the writes.
 */
final class BulkOp {
  final int line;
  final String action;

  /**
   * Where the document goes; for index and create, until its document is read: type, id, parent.
   */
  Target target;

  /** The document's typed values, once checked. */
  java.util.Map<String, Object> values;

  /** Null for a delete. */
  WriteMode mode;

  /** The action's result; set early when the action fails before it is written. */
  BulkItem result;

  /** The id was generated here, so the document is new (201 without a read). */
  boolean generatedId;

  /** The source-day index entry written for this document, or null. */
  byte[] entry;

  /** The document's field cells, encoded by the parser. */
  DocumentCells cells;

  /** A comment's parent, resolved once. */
  Target parent;

  /** The document until a parser read it; null for a delete, and after. */
  BulkDocument document;

  /** Bytes of the document as sent, for the batch's size. */
  long documentBytes;

  BulkOp(int line, String action) {
    this.line = line;
    this.action = action;
  }

  boolean isDelete() {
    return result == null && mode == null;
  }

  void fail(CasebookException e, String type, String id) {
    result =
        new BulkItem(
            line,
            action,
            type,
            id,
            e.kind().httpStatus(),
            null,
            e.getMessage(),
            e instanceof InvalidInputException iie ? iie.field() : null);
  }

  /** The result of a stored action. */
  BulkItem ok(int status, Long version) {
    return new BulkItem(
        line, action, target.type().name(), target.id(), status, version, null, null);
  }
}
