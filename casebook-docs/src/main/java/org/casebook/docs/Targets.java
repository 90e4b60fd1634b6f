package org.casebook.docs;

import java.time.Clock;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyLayout;
import org.casebook.docs.DocIds.CommentId;

/**
 * Where documents live ({@link Target}): the row of a canonical id or of a comment's composite id,
 * a new comment's key, and the key of a document state's source-day index entry.
 */
final class Targets {
  private final DocsSchema schema;
  private final TypeRegistry types;
  private final Clock clock;

  Targets(DocsSchema schema, TypeRegistry types, Clock clock) {
    this.schema = schema;
    this.types = types;
    this.clock = clock;
  }

  Clock clock() {
    return clock;
  }

  /** The table of {@code type}'s documents. */
  TableName table(DocType type) {
    return schema.table(type.name());
  }

  /** The target of {@code id} in {@code type}: a canonical id, or a comment's composite id. */
  Target of(DocType type, String id) {
    if (!type.isChild()) {
      String canonical = DocIds.canonical(id, "id");
      return new Target(
          type, canonical, DocsKeys.DOC.encode(canonical, type.name()), null, table(type));
    }
    CommentId c = DocIds.parseComment(id, "id");
    InvalidInputException.check(
        type.parents().contains(c.parentType()),
        "id",
        type.name() + " documents attach to " + type.parents() + ", not " + c.parentType());
    return comment(type, c);
  }

  Target comment(DocType child, CommentId c) {
    return new Target(
        child,
        c.toString(),
        DocsKeys.COMMENT.encode(c.parentId(), c.parentType(), c.created(), c.cid()),
        new DocRef(c.parentType(), c.parentId()),
        table(child));
  }

  /** The target of a row of {@code type}'s table (a document or a comment row). */
  Target ofRow(DocType type, byte[] row) {
    if (type.isChild()) {
      KeyLayout.Key k = DocsKeys.COMMENT.decode(row);
      return comment(
          type,
          new CommentId(
              k.string("cid"), k.number("created"), k.string("parentType"), k.string("parentId")));
    }
    return of(type, DocsKeys.DOC.decode(row).string("id"));
  }

  /**
   * A new comment's target: its ordering part is its {@code created} value (now if absent, and then
   * filled in) and its cid (generated if absent).
   */
  Target newComment(
      DocType child, DocType parentType, String parentId, String cid, Map<String, Object> values) {
    InvalidInputException.check(
        child.parents().contains(parentType.name()),
        "type",
        child.name() + " documents attach to " + child.parents() + ", not " + parentType.name());
    boolean timed = child.field("created").map(f -> f.kind() == FieldKind.TIME).orElse(false);
    long created;
    if (values.get("created") instanceof Long given && timed) {
      created = given;
    } else {
      created = clock.millis();
      if (timed) {
        values.put("created", created);
      }
    }
    String c = cid == null ? DocIds.generate(clock) : DocLimits.cid(cid, "id");
    return comment(
        child, new CommentId(c, created, parentType.name(), DocIds.canonical(parentId, "id")));
  }

  Target parentOf(DocRef parent) {
    return of(types.get(parent.type(), "type"), parent.id());
  }

  /** The source-day index entry of a document state, or null if the type or state is unlisted. */
  static byte[] indexEntry(Target t, Map<String, Object> values) {
    if (!t.type().indexedBySource()
        || !(values.get("url") instanceof String url)
        || !(values.get("created") instanceof Long created)) {
      return null;
    }
    return DocsKeys.SOURCE_DAY.encode(
        DocIds.host(url, "url"),
        t.type().name(),
        (int) Math.floorDiv(created, 86_400_000L),
        created,
        t.id());
  }

  /** The document a read shows of a stored state of {@code t}. */
  static Document document(
      Target t, long version, Map<String, Object> values, CorrectionState corrections) {
    return new Document(
        t.type().name(),
        t.id(),
        version,
        t.parent(),
        FieldValues.external(t.type(), values),
        CorrectionRules.shown(corrections));
  }

  /** The document a read shows of a row of {@code t}. */
  static Document document(Target t, StoredRow row) {
    return document(t, row.version(), row.values(), row.corrections());
  }
}
