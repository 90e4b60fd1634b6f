package org.casebook.docs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.Scan;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.docs.DocsKeys.Position;
import org.casebook.docs.Documents.Mode;
import org.casebook.docs.Documents.Target;

/**
 * The document store (seed 002): declared types, one table per type with families BI and DI,
 * documents read whole with a version and written back optimistically (check-and-mutate on the
 * version: a stale write-back is a 412, never a silent overwrite), counters as atomic increments,
 * comments under their parent's row key listed by a bounded prefix scan, a listing by source site
 * and day kept consistent with every write, and bulk loads in Elasticsearch's {@code _bulk} shape.
 *
 * <p>Thread-safe; all state is in HBase (the type cache re-reads what it does not know).
 */
public final class DocsService {
  private final DocsStore store;
  private final TypeRegistry types;
  private final Documents documents;
  private final SourceIndex index;
  private final BulkLoader bulk;

  /** The store in the {@code docs} namespace. */
  public DocsService(SystemContext context) {
    this(context, DocsSchema.DEFAULT_NAMESPACE);
  }

  /**
   * The store in another namespace (benchmarks, tests); {@link #schemas(String)} lists the tables
   * that must exist. Stores the default types if they are not stored yet.
   */
  public DocsService(SystemContext context, String namespace) {
    Objects.requireNonNull(context, "context is null");
    this.store = new DocsStore(context.connection(), DocsSchema.in(namespace));
    this.types = new TypeRegistry(store, new SchemaManager(context.connection()), context.clock());
    this.documents =
        new Documents(
            store, types, context.clock(), new VersionClock(context.clock(), store.writerNumber()));
    this.index = new SourceIndex(store, documents);
    this.bulk = new BulkLoader(store, types, documents);
    types.installDefaults();
  }

  /** The tables of {@code namespace}: registry, index and the default types' tables. */
  public static List<TableSpec> schemas(String namespace) {
    return DocsSchema.in(namespace).tables(DefaultTypes.ALL);
  }

  // ---- types

  public List<DocType> types() {
    return types.all();
  }

  public DocType type(String name) {
    return types.get(name, "type");
  }

  /** Declares a type or adds fields (and parents) to one; creates its table. */
  public DocType putType(DocType type) {
    return types.put(type);
  }

  // ---- documents

  public Document get(String type, String id) {
    return documents.get(documents.target(types.get(type, "type"), id));
  }

  /**
   * Stores the whole document (fields not given are removed, except counters — DI longs — of an
   * existing document, which only increments and PATCH change). With {@code ifMatch} the stored
   * version must be that one (412 otherwise); without, the write wins over concurrent ones.
   */
  public WriteResult put(String type, String id, ObjectNode fields, OptionalLong ifMatch) {
    DocType t = typeFor(type, "type", fields);
    Documents.Written w =
        documents.write(documents.target(t, id), parse(t, fields, false), Mode.REPLACE, ifMatch);
    return new WriteResult(w.document(), w.created());
  }

  /**
   * Changes the fields given (null removes one); only the families of those fields are written, so
   * a DI-only patch never rewrites BI.
   */
  public Document patch(String type, String id, ObjectNode fields, OptionalLong ifMatch) {
    DocType t = typeFor(type, "type", fields);
    return documents
        .write(documents.target(t, id), parse(t, fields, true), Mode.PATCH, ifMatch)
        .document();
  }

  /** Deletes the document, its index entry and its comments. */
  public void delete(String type, String id, OptionalLong ifMatch) {
    documents.delete(documents.target(types.get(type, "type"), id), ifMatch);
  }

  /** Adds {@code by} to a long field (views, likes) atomically; no version needed or changed. */
  public long increment(String type, String id, String field, long by) {
    return documents.increment(documents.target(types.get(type, "type"), id), field, by);
  }

  // ---- comments

  /**
   * Stores a comment on a document; {@code childType} may be null when the parent's type has one
   * child type. Its id (returned) is {@code cid:created:parentType:parentId}.
   */
  public Document addComment(
      String parentType, String parentId, String childType, String cid, ObjectNode fields) {
    DocType parent = types.get(parentType, "type");
    DocType child = types.forBody(childType(parent, childType), fields);
    Map<String, Object> values = new LinkedHashMap<>(parse(child, fields, false));
    Target t = documents.newComment(child, parent, parentId, cid, values);
    return documents.write(t, values, Mode.CREATE, OptionalLong.empty()).document();
  }

  /** A document's comments, newest or oldest first: one bounded prefix scan per page. */
  public Page<Document> comments(
      String parentType, String parentId, String childType, CommentOrder order, PageRequest page) {
    DocType parent = types.get(parentType, "type");
    DocType child = childType(parent, childType);
    Target p = documents.target(parent, parentId);
    if (!documents.live(p)) {
      throw Documents.notFound(p);
    }
    String scope = order == CommentOrder.NEWEST ? DocsKeys.NEWEST_SCOPE : DocsKeys.OLDEST_SCOPE;
    KeyRange range = DocsKeys.COMMENT.range(p.id(), parent.name());
    Scan scan = new Scan().setLimit(page.fetchSize()).setCaching(page.fetchSize());
    byte[] after =
        page.cursor()
            .map(c -> DocsKeys.parseCursor(scope, c))
            .map(pos -> DocsKeys.COMMENT.encode(p.id(), parent.name(), pos.created(), pos.id()))
            .orElse(null);
    if (order == CommentOrder.NEWEST) {
      scan.setReversed(true)
          .withStartRow(after == null ? range.stop() : after, false)
          .withStopRow(range.start(), true);
    } else {
      scan.withStartRow(after == null ? range.start() : after, after == null)
          .withStopRow(range.stop(), false);
    }
    List<Document> found =
        documents.comments(
            child, store.scan(store.schema().table(child.name()), Documents.liveRows(scan)));
    return Page.of(
        found,
        page.limit(),
        d -> {
          DocIds.CommentId c = DocIds.parseComment(d.id(), "id");
          return DocsKeys.cursor(scope, new Position(c.created(), c.cid()));
        });
  }

  private DocType childType(DocType parent, String childType) {
    if (childType != null) {
      DocType child = types.get(childType, "childType");
      InvalidInputException.check(
          child.parents().contains(parent.name()),
          "childType",
          child.name() + " documents do not attach to " + parent.name());
      return child;
    }
    List<DocType> children = types.childrenOf(parent.name());
    InvalidInputException.check(
        !children.isEmpty(), "type", parent.name() + " documents take no comments");
    InvalidInputException.check(
        children.size() == 1,
        "childType",
        parent.name() + " has several child types " + names(children) + "; name one");
    return children.get(0);
  }

  private static List<String> names(List<DocType> list) {
    List<String> out = new ArrayList<>();
    list.forEach(t -> out.add(t.name()));
    return out;
  }

  // ---- listing by source and day

  /**
   * Documents of {@code type} whose URL's host is {@code source} and whose {@code created} falls on
   * {@code day} (UTC, YYYY-MM-DD), oldest first.
   */
  public Page<Document> bySource(String type, String source, String day, PageRequest page) {
    return index.list(
        types.get(type, "type"), SourceIndex.source(source), SourceIndex.day(day), page);
  }

  /**
   * Makes the source-day index of {@code type} exactly its live documents' entries (stale entries
   * of crashed writers removed, missing ones written): a full scan, safe while writers run.
   */
  public IndexRepair repairIndex(String type) {
    SourceIndex.Repair r = index.repair(types.get(type, "type"));
    return new IndexRepair(type, r.entriesChecked(), r.staleRemoved(), r.missingAdded());
  }

  // ---- bulk

  /**
   * Runs a bulk request: UTF-8 NDJSON, read to its end (the caller closes it), an action line
   * ({@code {"index"|"create"|"delete": {"_index": type, "_id": id, "parent": {"type", "id"}}}})
   * then, except for delete, the document. Each action's result goes to {@code onItem} once
   * durable, in order; a bad document is reported and the rest stored.
   */
  public BulkSummary bulk(InputStream ndjson, Consumer<BulkItem> onItem) {
    return bulk.load(ndjson, onItem);
  }

  private static Map<String, Object> parse(DocType type, ObjectNode body, boolean nullsRemove) {
    return DocCodec.parse(type, body, nullsRemove);
  }

  /**
   * The type of a document body: re-read from the registry when the body names a field the cached
   * type lacks (another process may have added it).
   */
  private DocType typeFor(String name, String field, ObjectNode body) {
    return types.forBody(types.get(name, field), body);
  }
}
