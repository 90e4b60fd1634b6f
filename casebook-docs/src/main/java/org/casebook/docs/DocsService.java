package org.casebook.docs;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.WriteGate;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;

/**
 * The document store (seed 002): declared types, one table per type with families BI and DI,
 * documents read whole with a version and written back optimistically (check-and-mutate on the
 * version: a stale write-back is a 412, never a silent overwrite), counters as atomic increments,
 * comments under their parent's row key listed by a bounded prefix scan, a listing by source site
 * and day kept consistent with every write, and bulk loads in Elasticsearch's {@code _bulk} shape.
 *
 * <p>Documents are given as their fields' values: a String for text, keyword and time (ISO-8601),
 * an integral Number for long and time (epoch milliseconds), a Number for double, a List of Strings
 * for keywords — what a JSON reader gives, and what {@link Document#fields()} holds.
 *
 * <p>Thread-safe; all state is in HBase (the type cache re-reads what it does not know).
 */
public final class DocsService {
  private final TypeRegistry types;
  private final Targets targets;
  private final DocumentReads reads;
  private final DocumentWrites writes;
  private final SourceIndex index;
  private final BulkLoader bulk;
  private final DocumentStore store;
  private final HistoryStore history;
  private final DocsRetention retention;
  private final java.time.Clock clock;
  private final WriteGate gate;

  /**
   * The store in the namespace of the {@code namespace} setting ({@code docs} on a context that is
   * not the system's own). Creates its tables if they are missing and stores the default types if
   * they are not stored yet.
   */
  public DocsService(SystemContext context) {
    Objects.requireNonNull(context, "context is null");
    DocsSchema schema = DocsSchema.in(DocsSettings.of(context).get(DocsSettings.NAMESPACE));
    SchemaManager schemas = new SchemaManager(context.connection());
    schemas.ensureAll(schema.tables(DefaultTypes.ALL));
    DocumentStore store = new DocumentStore(context.connection());
    this.store = store;
    this.history = new HistoryStore(context.connection());
    this.retention = DocsSettings.of(context).get(DocsSettings.RETENTION);
    this.clock = context.clock();
    this.gate = context.writes();
    IndexStore entries = new IndexStore(context.connection(), schema);
    TypeStore registry = new TypeStore(context.connection(), schema);
    this.types = new TypeRegistry(registry, schemas, schema, context.clock());
    this.targets = new Targets(schema, types, context.clock());
    this.reads = new DocumentReads(store, targets);
    this.writes =
        new DocumentWrites(
            store,
            entries,
            reads,
            targets,
            types,
            new VersionClock(context.clock(), registry.writerNumber()));
    this.index = new SourceIndex(store, entries, targets);
    this.bulk =
        new BulkLoader(
            () -> new BulkStore(context.connection(), schema),
            store,
            types,
            targets,
            writes,
            DocsSettings.of(context).get(DocsSettings.RECRAWL_HISTORY));
    types.installDefaults();
  }

  /** The tables of {@code namespace}: registry, index and the default types' tables. */
  static List<TableSpec> schemas(String namespace) {
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
    return reads.get(targets.of(types.get(type, "type"), id));
  }

  /**
   * Stores the whole document (fields not given are removed, except counters — DI longs — of an
   * existing document, which only increments and PATCH change). With {@code ifMatch} the stored
   * version must be that one (412 otherwise); without, the write wins over concurrent ones.
   */
  public WriteResult put(String type, String id, Map<String, ?> fields, OptionalLong ifMatch) {
    return put(type, id, fields, ifMatch, null);
  }

  /**
   * As {@link #put(String, String, Map, OptionalLong)}. With {@code ifMatch} the write is a
   * person's edit: the fields it changes are marked corrected, under {@code editor} (null: {@code
   * person}); without, it is a crawler's, which keeps corrected fields as they are. An editor
   * without {@code ifMatch} is a 400 naming {@code editor}.
   */
  public WriteResult put(
      String type, String id, Map<String, ?> fields, OptionalLong ifMatch, String editor) {
    Author author = author(ifMatch, editor);
    DocType t = typeFor(type, fields);
    DocumentWrites.Written w =
        writes.write(
            targets.of(t, id),
            FieldValues.typed(t, fields, false),
            WriteMode.REPLACE,
            ifMatch,
            author);
    return new WriteResult(w.document(), w.created());
  }

  /**
   * Changes the fields given (null removes one); only the families of those fields are written, so
   * a DI-only patch never rewrites BI.
   */
  public Document patch(String type, String id, Map<String, ?> fields, OptionalLong ifMatch) {
    return patch(type, id, fields, ifMatch, null);
  }

  /**
   * As {@link #patch(String, String, Map, OptionalLong)}, with the editor of a person's edit (see
   * {@link #put(String, String, Map, OptionalLong, String)}).
   */
  public Document patch(
      String type, String id, Map<String, ?> fields, OptionalLong ifMatch, String editor) {
    Author author = author(ifMatch, editor);
    DocType t = typeFor(type, fields);
    return writes
        .write(
            targets.of(t, id), FieldValues.typed(t, fields, true), WriteMode.PATCH, ifMatch, author)
        .document();
  }

  /**
   * Drops a person's correction of {@code field}: the field keeps its value, unmarked, and the next
   * crawl replaces it. 404 if the field is not corrected; {@code ifMatch} as for edits.
   */
  public Document dropCorrection(
      String type, String id, String field, OptionalLong ifMatch, String editor) {
    return writes.dropCorrection(
        targets.of(types.get(type, "type"), id),
        field,
        ifMatch,
        Author.person(DocLimits.editor(editor, "editor")));
  }

  /**
   * A page of the document's history, newest change first — the changes of people and, once a
   * person edited it, of crawls — and the fields corrected now.
   */
  public DocumentHistory history(String type, String id, PageRequest page) {
    Target t = targets.of(types.get(type, "type"), id);
    StoredRow row =
        store.read(t).filter(StoredRow::live).orElseThrow(() -> DocumentReads.notFound(t));
    Long before = page.cursor().map(DocsKeys::parseHistoryCursor).orElse(null);
    Page<HistoryEntry> entries =
        Page.of(
            history.read(t, before, page.fetchSize()),
            page.limit(),
            e -> DocsKeys.historyCursor(e.version()));
    return new DocumentHistory(
        CorrectionRules.shown(row.corrections()), entries.items(), entries.nextOrNull());
  }

  /** A person's edit goes over a version read; any other write is a crawler's. */
  private static Author author(OptionalLong ifMatch, String editor) {
    if (ifMatch.isEmpty()) {
      InvalidInputException.check(
          editor == null,
          "editor",
          "editor names the person of an edit over a version read; send it with If-Match");
      return Author.CRAWL;
    }
    return Author.person(DocLimits.editor(editor, "editor"));
  }

  /** Deletes the document, its index entry and its comments. */
  public void delete(String type, String id, OptionalLong ifMatch) {
    writes.delete(targets.of(types.get(type, "type"), id), ifMatch);
  }

  /** Adds {@code by} to a long field (views, likes) atomically; no version needed or changed. */
  public long increment(String type, String id, String field, long by) {
    return writes.increment(targets.of(types.get(type, "type"), id), field, by);
  }

  // ---- comments

  /**
   * Stores a comment on a document; {@code childType} may be null when the parent's type has one
   * child type. Its id (returned) is {@code cid:created:parentType:parentId}.
   */
  public Document addComment(
      String parentType, String parentId, String childType, String cid, Map<String, ?> fields) {
    DocType parent = types.get(parentType, "type");
    DocType child = types.forFields(childType(parent, childType), keys(fields));
    Map<String, Object> values = new LinkedHashMap<>(FieldValues.typed(child, fields, false));
    Target t = targets.newComment(child, parent, parentId, cid, values);
    return writes.write(t, values, WriteMode.CREATE, OptionalLong.empty(), Author.CRAWL).document();
  }

  /** A document's comments, newest or oldest first: one bounded prefix scan per page. */
  public Page<Document> comments(
      String parentType, String parentId, String childType, CommentOrder order, PageRequest page) {
    DocType parent = types.get(parentType, "type");
    DocType child = childType(parent, childType);
    return reads.comments(targets.of(parent, parentId), child, order, page);
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
    return index.repair(types.get(type, "type"));
  }

  // ---- retention

  /** The retention setting's rules as written (empty: every document kept). */
  public String retention() {
    return retention.toString();
  }

  /**
   * Applies the retention setting once: every live document whose last change is older than its
   * type's rule is deleted as {@link #delete} does (its index entry and comments with it), under
   * the version read, so a document changed meanwhile stays. Returns the documents deleted per
   * type, types with none left out. A pass stopped half-way leaves documents either deleted or
   * untouched; the next pass takes the rest.
   */
  public Map<String, Long> purgeExpired() {
    Map<String, Long> out = new LinkedHashMap<>();
    if (retention.keepsEverything()) {
      return out;
    }
    long now = clock.millis();
    for (DocType type : types.all()) {
      java.util.OptionalLong keep = retention.keepMs(type.name());
      if (keep.isEmpty()) {
        continue;
      }
      long before = VersionClock.firstVersionAt(Math.max(0, now - keep.getAsLong()));
      long[] deleted = {0};
      store.liveBefore(
          targets.table(type),
          before,
          (row, version) -> {
            try (WriteGate.Pass pass = gate.enter()) {
              writes.delete(targets.ofRow(type, row), OptionalLong.of(version));
              deleted[0]++;
            } catch (org.casebook.core.PreconditionFailedException
                | org.casebook.core.NotFoundException changedOrGone) {
              // Changed since the scan read it (it is younger now), or deleted by its parent.
            }
          });
      if (deleted[0] > 0) {
        out.put(type.name(), deleted[0]);
      }
    }
    return out;
  }

  // ---- bulk

  /**
   * Runs a bulk request: the actions in order, read to their end (a reader of the request's format
   * gives them; each document is read on one of the load's parser threads). Each action's result
   * goes to {@code onItem} once durable, in order; a bad action or document is reported and the
   * rest stored.
   */
  public BulkSummary bulk(Iterator<BulkAction> actions, Consumer<BulkItem> onItem) {
    return bulk.load(actions, onItem);
  }

  /**
   * The type of a document's fields: re-read from the registry when they name a field the cached
   * type lacks (another process may have added it).
   */
  private DocType typeFor(String name, Map<String, ?> fields) {
    return types.forFields(types.get(name, "type"), keys(fields));
  }

  private static java.util.Collection<String> keys(Map<String, ?> fields) {
    return fields == null ? List.of() : fields.keySet();
  }
}
