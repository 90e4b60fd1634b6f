package org.casebook.docs;

import static org.casebook.docs.DocsSchema.FIELDS;
import static org.casebook.docs.DocsSchema.VERSION;
import static org.casebook.docs.DocsStore.DELETED;
import static org.casebook.docs.DocsStore.DI;
import static org.casebook.docs.DocsStore.LIVE;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.StorageException;
import org.casebook.docs.DocIds.CommentId;
import org.casebook.docs.DocsStore.Meta;
import org.casebook.docs.DocsStore.StoredRow;

/**
 * Single-document reads and writes: assembling both families, optimistic writes with
 * check-and-mutate on the version, counters, deletes with their comments, and the source-day index
 * entries that go with each state.
 *
 * <p>Index protocol (correct under any interleaving of writers, and after a crash at any point): a
 * writer puts the index entry of the state it is about to commit (cell timestamp = that state's
 * version) before the check-and-mutate, and deletes the previous state's entry after it, naming the
 * new version as the newest it may remove. So a committed state always has its entry; an entry left
 * by a failed or crashed writer has a version no newer than the document's, which is how the
 * listing and {@link SourceIndex#repair} recognise it; and a slow writer's delete can never remove
 * an entry that a later state wrote again.
 */
final class Documents {
  /** Attempts of a write without If-Match before it gives up with 409 (each lost to a writer). */
  static final int MAX_ATTEMPTS = 32;

  enum Mode {
    /** Store only if the document does not exist (bulk {@code create}). */
    CREATE,
    /** Store, replacing every field but the counters (PUT, bulk {@code index}). */
    REPLACE,
    /** Change the named fields of an existing document (PATCH; null removes a field). */
    PATCH
  }

  /** Where a document lives: its type, its id as the API shows it, its row, its parent. */
  @SuppressWarnings("ArrayRecordComponent") // keys: never compared with equals, never mutated
  record Target(DocType type, String id, byte[] row, DocRef parent, TableName table) {}

  /** A write worked out against the row as read. */
  @SuppressWarnings("ArrayRecordComponent") // keys: compared with Arrays.equals, never mutated
  record Plan(
      Target target,
      Meta expected,
      long version,
      RowMutations mutations,
      byte[] oldKey,
      byte[] newKey,
      Map<String, Object> values,
      boolean created) {}

  /** A stored document and whether this write created it. */
  record Written(Document document, boolean created) {}

  private final DocsStore store;
  private final TypeRegistry types;
  private final Clock clock;
  private final VersionClock versions;

  Documents(DocsStore store, TypeRegistry types, Clock clock, VersionClock versions) {
    this.store = store;
    this.types = types;
    this.clock = clock;
    this.versions = versions;
  }

  VersionClock versions() {
    return versions;
  }

  Clock clock() {
    return clock;
  }

  // ---- addressing

  /** The target of {@code id} in {@code type}: a canonical id, or a comment's composite id. */
  Target target(DocType type, String id) {
    if (!type.isChild()) {
      String canonical = DocIds.canonical(id, "id");
      return new Target(
          type,
          canonical,
          DocsKeys.DOC.encode(canonical, type.name()),
          null,
          store.schema().table(type.name()));
    }
    CommentId c = DocIds.parseComment(id, "id");
    InvalidInputException.check(
        type.parents().contains(c.parentType()),
        "id",
        type.name() + " documents attach to " + type.parents() + ", not " + c.parentType());
    return commentTarget(type, c);
  }

  Target commentTarget(DocType child, CommentId c) {
    return new Target(
        child,
        c.toString(),
        DocsKeys.COMMENT.encode(c.parentId(), c.parentType(), c.created(), c.cid()),
        new DocRef(c.parentType(), c.parentId()),
        store.schema().table(child.name()));
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
    long created;
    if (values.get("created") instanceof Long given
        && child.field("created").map(f -> f.kind() == FieldKind.TIME).orElse(false)) {
      created = given;
    } else {
      created = clock.millis();
      if (child.field("created").map(f -> f.kind() == FieldKind.TIME).orElse(false)) {
        values.put("created", created);
      }
    }
    String c = cid == null ? DocIds.generate(clock) : DocLimits.cid(cid, "id");
    return commentTarget(
        child, new CommentId(c, created, parentType.name(), DocIds.canonical(parentId, "id")));
  }

  Target parentTarget(DocRef parent) {
    DocType t = types.get(parent.type(), "type");
    return target(t, parent.id());
  }

  // ---- reads

  Document get(Target t) {
    StoredRow row =
        store.read(t.table(), t.row()).filter(StoredRow::live).orElseThrow(() -> notFound(t));
    return document(t, row.version(), values(t.type(), row));
  }

  boolean live(Target t) {
    return store.read(t.table(), t.row()).map(StoredRow::live).orElse(false);
  }

  static NotFoundException notFound(Target t) {
    return new NotFoundException("no " + t.type().name() + " document '" + t.id() + "'");
  }

  /** The typed values of a row's fields that the type declares. */
  static Map<String, Object> values(DocType type, StoredRow row) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldDef f : type.fields()) {
      byte[] cell = row.values().get(f.name());
      if (cell != null) {
        out.put(f.name(), DocCodec.decode(f.kind(), cell));
      }
    }
    return out;
  }

  static Document document(Target t, long version, Map<String, Object> values) {
    return new Document(
        t.type().name(), t.id(), version, t.parent(), DocCodec.external(t.type(), values));
  }

  /** The comment documents of a scan of a child table. */
  List<Document> comments(DocType child, List<Result> rows) {
    return rows.stream()
        .map(
            r -> {
              var key = DocsKeys.COMMENT.decode(r.getRow());
              CommentId c =
                  new CommentId(
                      key.string("cid"),
                      key.number("created"),
                      key.string("parentType"),
                      key.string("parentId"));
              StoredRow row = DocsStore.rowOf(r).orElseThrow();
              return document(commentTarget(child, c), row.version(), values(child, row));
            })
        .toList();
  }

  /** A scan of the live rows of a bounded range (comments of one parent). */
  static Scan liveRows(Scan scan) {
    // Reversed scans (newest comments first) refuse on-demand family loading, which the filter
    // would otherwise turn on; rows are read whole anyway.
    return scan.setFilter(DocsStore.liveFilter(null)).setLoadColumnFamiliesOnDemand(false);
  }

  // ---- the source-day index key of a state

  /** The index entry of a document state, or null if the type or the state is not indexed. */
  static byte[] indexKey(Target t, Map<String, Object> values) {
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

  // ---- writes

  /**
   * Works out the write of {@code changes} over the row as read ({@code current}), or throws what
   * the caller did wrong: 404 (no such document, or its parent is gone), 409 (create of an existing
   * one), 412 (If-Match names another version).
   */
  Plan plan(
      Target t,
      Optional<StoredRow> current,
      Map<String, Object> changes,
      Mode mode,
      OptionalLong ifMatch) {
    boolean live = current.map(StoredRow::live).orElse(false);
    if ((mode == Mode.PATCH || ifMatch.isPresent()) && !live) {
      throw notFound(t);
    }
    if (ifMatch.isPresent() && ifMatch.getAsLong() != current.get().version()) {
      throw new PreconditionFailedException(
          t.type().name()
              + " '"
              + t.id()
              + "' is at version "
              + current.get().version()
              + ", not "
              + ifMatch.getAsLong()
              + "; read it again and redo the change");
    }
    if (mode == Mode.CREATE && live) {
      throw new ConflictException(t.type().name() + " '" + t.id() + "' already exists");
    }
    Map<String, Object> old = live ? values(t.type(), current.get()) : Map.of();
    Map<String, Object> next = new LinkedHashMap<>(mode == Mode.PATCH ? old : Map.of());
    for (Map.Entry<String, Object> e : changes.entrySet()) {
      if (e.getValue() == null) {
        next.remove(e.getKey());
      } else {
        next.put(e.getKey(), e.getValue());
      }
    }
    if (live && mode != Mode.PATCH) {
      for (FieldDef f : t.type().fields()) {
        if (isCounter(f)) {
          // A write-back of a page read earlier must not undo the views counted since.
          next.remove(f.name());
          if (old.get(f.name()) != null) {
            next.put(f.name(), old.get(f.name()));
          }
        }
      }
    }
    Map<String, Object> ordered = new LinkedHashMap<>();
    for (FieldDef f : t.type().fields()) {
      if (next.get(f.name()) != null) {
        ordered.put(f.name(), next.get(f.name()));
      }
    }
    // The version after everything in the row, so this write's cells are the newest even if the
    // writer that stored the row runs ahead of this one's clock.
    long version = versions.nextAfter(current.map(StoredRow::maxTimestamp).orElse(0L));
    RowMutations mutations =
        live
            ? overLive(t, current.get().meta(), changes, mode, ordered, version)
            : mutations(wholeDocument(t, ordered, version), new Delete(t.row()));
    return new Plan(
        t,
        current.map(StoredRow::meta).orElse(null),
        version,
        mutations,
        live ? indexKey(t, old) : null,
        indexKey(t, ordered),
        ordered,
        !live);
  }

  /**
   * The cells of a PUT or PATCH over a live document, all at {@code version}, and the version cell
   * (the base stays: this is not a whole-document write). A family's fields but the counters are
   * one cell, written whole with the family's new state: a PATCH writes the cells of the families
   * it names fields of (so a DI-only patch writes no BI cell; a BI patch rewrites the BI cell, its
   * other fields as read) and the counters it names; a PUT writes both family cells and no counter.
   * A counter set to null gets a delete marker (an increment adds to the newest counter cell, which
   * must be a number).
   */
  private static RowMutations overLive(
      Target t,
      Meta read,
      Map<String, Object> changes,
      Mode mode,
      Map<String, Object> next,
      long version) {
    Put put = new Put(t.row());
    Delete delete = new Delete(t.row());
    boolean[] families = new boolean[Family.values().length];
    for (FieldDef f : t.type().fields()) {
      boolean named = mode != Mode.PATCH || changes.containsKey(f.name());
      if (!named) {
        continue;
      }
      if (!isCounter(f)) {
        families[f.family().ordinal()] = true;
      } else if (mode == Mode.PATCH) {
        byte[] qualifier = DocsKeys.FIELD.encode(f.name());
        Object v = next.get(f.name());
        if (v != null) {
          put.addColumn(f.family().bytes(), qualifier, version, DocCodec.encode(f.kind(), v));
        } else {
          delete.addColumns(f.family().bytes(), qualifier, version - 1);
        }
      }
    }
    for (Family family : Family.values()) {
      if (families[family.ordinal()] || (mode != Mode.PATCH && hasFields(t.type(), family))) {
        put.addColumn(
            family.bytes(), FIELDS, version, DocCodec.encodeFamily(t.type(), family, next));
      }
    }
    put.addColumn(DI, VERSION, version, Meta.cell(version, LIVE, read.base()));
    return mutations(put, delete);
  }

  /** Whether a type has fields in {@code family} that live in its family cell (not counters). */
  private static boolean hasFields(DocType type, Family family) {
    return type.fields().stream().anyMatch(f -> f.family() == family && !isCounter(f));
  }

  /**
   * A short random pause after a lost race, growing with the attempts, so that writers hammering
   * one document take turns instead of colliding again in lockstep.
   */
  private static void backOff(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(1 + Math.min(attempt, 10) * 2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StorageException.interrupted("retry a write", e);
    }
  }

  /** DI longs are counters: changed by increments and by explicit PATCHes only. */
  static boolean isCounter(FieldDef f) {
    return f.family() == Family.DI && f.kind() == FieldKind.LONG;
  }

  /**
   * The one Put of a whole-document write (bulk index and create), all at {@code version}: a cell
   * per family holding its fields, a cell per counter given, and the version cell (version, live,
   * base = this version). A family without fields or a counter not given needs no cell: the base
   * hides every older one. One Put is atomic for its row, so a reader sees the old document or the
   * new one, never a mixture, and of two such writes of one id the higher version wins whole, in
   * whatever order they arrive.
   */
  static Put wholeDocument(Target t, Map<String, Object> values, long version) {
    return wholeDocument(t, cells(t, values), version);
  }

  /** As {@link #wholeDocument(Target, Map, long)}, from cells encoded beforehand. */
  static Put wholeDocument(Target t, DocumentCells cells, long version) {
    Put put = new Put(t.row(), version);
    for (int i = 0; i < cells.values().length; i++) {
      put.addColumn(cells.families()[i], cells.qualifiers()[i], version, cells.values()[i]);
    }
    return put.addColumn(DI, VERSION, version, Meta.cell(version, LIVE, version));
  }

  /**
   * A document's field cells, which do not depend on the version: encoded where the document is
   * checked (bulk loads encode on several threads and write on one).
   */
  record DocumentCells(byte[][] families, byte[][] qualifiers, byte[][] values) {}

  /** The field cells of a whole-document write: a cell per family, a cell per counter given. */
  static DocumentCells cells(Target t, Map<String, Object> values) {
    List<byte[]> families = new ArrayList<>();
    List<byte[]> qualifiers = new ArrayList<>();
    List<byte[]> cells = new ArrayList<>();
    boolean[] withFields = new boolean[Family.values().length];
    for (FieldDef f : t.type().fields()) {
      Object v = values.get(f.name());
      if (v == null) {
        continue;
      }
      if (isCounter(f)) {
        families.add(f.family().bytes());
        qualifiers.add(DocsKeys.FIELD.encode(f.name()));
        cells.add(DocCodec.encode(f.kind(), v));
      } else {
        withFields[f.family().ordinal()] = true;
      }
    }
    for (Family family : Family.values()) {
      if (withFields[family.ordinal()]) {
        families.add(family.bytes());
        qualifiers.add(FIELDS);
        cells.add(DocCodec.encodeFamily(t.type(), family, values));
      }
    }
    return new DocumentCells(
        families.toArray(byte[][]::new),
        qualifiers.toArray(byte[][]::new),
        cells.toArray(byte[][]::new));
  }

  private static RowMutations mutations(Put put, Delete delete) {
    try {
      return delete.isEmpty()
          ? RowMutations.of(List.of(put))
          : RowMutations.of(List.of(put, delete));
    } catch (IOException e) {
      throw new IllegalStateException("mutations of one row refused", e);
    }
  }

  /**
   * Stores {@code changes}: once if {@code ifMatch} is given (a lost race is a 412), else retried
   * against the new version until it wins (409 after {@link #MAX_ATTEMPTS}).
   */
  Written write(Target t, Map<String, Object> changes, Mode mode, OptionalLong ifMatch) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<StoredRow> current = store.read(t.table(), t.row());
      Plan plan = plan(t, current, changes, mode, ifMatch);
      if (plan.created() && t.parent() != null && !live(parentTarget(t.parent()))) {
        throw parentGone(t);
      }
      if (plan.newKey() != null) {
        store.putIndex(plan.newKey(), plan.version());
      }
      if (store.commit(t.table(), plan.expected(), plan.mutations())) {
        afterCommit(plan);
        return new Written(document(t, plan.version(), plan.values()), plan.created());
      }
      if (ifMatch.isPresent()) {
        throw new PreconditionFailedException(
            t.type().name() + " '" + t.id() + "' changed while writing; read it again");
      }
      backOff(attempt);
    }
    throw new ConflictException(
        t.type().name() + " '" + t.id() + "' kept changing; gave up after " + MAX_ATTEMPTS);
  }

  /**
   * After a committed write: the previous state's index entry goes, and a comment created while its
   * parent was being deleted is deleted too (the parent's delete marks the parent first and then
   * removes its comments, so one of the two always sees the other).
   */
  void afterCommit(Plan plan) {
    if (plan.oldKey() != null && !Arrays.equals(plan.oldKey(), plan.newKey())) {
      store.deleteIndex(plan.oldKey(), plan.version());
    }
    Target t = plan.target();
    if (plan.created() && t.parent() != null && !live(parentTarget(t.parent()))) {
      deleteQuietly(t);
      throw parentGone(t);
    }
  }

  private static NotFoundException parentGone(Target t) {
    return new NotFoundException(
        "no " + t.parent().type() + " document '" + t.parent().id() + "' to comment on");
  }

  /**
   * Adds {@code by} to a long field; no version involved, so editors never conflict with counters.
   * The count belongs to the document state it was read from: if a whole-document write replaces
   * the document meanwhile, the increment is redone on the new state instead of being lost.
   */
  long increment(Target t, String field, long by) {
    FieldDef f =
        t.type()
            .field(field)
            .orElseThrow(
                () ->
                    new InvalidInputException(
                        "field", "unknown field '" + field + "' for type " + t.type().name()));
    InvalidInputException.check(
        f.kind() == FieldKind.LONG, "field", "only long fields can be incremented");
    byte[] qualifier = DocsKeys.FIELD.encode(field);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      DocsStore.CounterRow row =
          store
              .readCounter(t.table(), t.row(), f.family().bytes(), qualifier)
              .filter(DocsStore.CounterRow::live)
              .orElseThrow(() -> notFound(t));
      Optional<Long> value =
          store.increment(
              t.table(),
              t.row(),
              f.family().bytes(),
              field,
              by,
              row.base(),
              versions.nextAfter(row.maxTimestamp()));
      if (value.isPresent()) {
        return value.get();
      }
      // Deleted, or replaced whole by a bulk index: the count restarts from the new document's.
      backOff(attempt);
    }
    throw new ConflictException(
        t.type().name() + " '" + t.id() + "' kept being replaced; gave up after " + MAX_ATTEMPTS);
  }

  /**
   * Deletes the document, its index entry and its comments. The row keeps its version, state and
   * base (and nothing else), so a document stored again under this id gets a later version and an
   * old If-Match can never match it.
   */
  void delete(Target t, OptionalLong ifMatch) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<StoredRow> current = store.read(t.table(), t.row());
      StoredRow row = current.filter(StoredRow::live).orElseThrow(() -> notFound(t));
      if (ifMatch.isPresent() && ifMatch.getAsLong() != row.version()) {
        throw new PreconditionFailedException(
            t.type().name() + " '" + t.id() + "' is at version " + row.version());
      }
      long version = versions.nextAfter(row.maxTimestamp());
      Put put =
          new Put(t.row()).addColumn(DI, VERSION, version, Meta.cell(version, DELETED, version));
      // The markers free the space; the base alone already hides every older cell, also from a
      // slower write with a lower version arriving after a major compaction dropped the markers.
      Delete delete =
          new Delete(t.row()).addFamily(DocsStore.BI, version - 1).addFamily(DI, version - 1);
      if (store.commit(t.table(), row.meta(), mutations(put, delete))) {
        byte[] key = indexKey(t, values(t.type(), row));
        if (key != null) {
          store.deleteIndex(key, version);
        }
        if (!t.type().isChild()) {
          deleteComments(t);
        }
        return;
      }
      if (ifMatch.isPresent()) {
        throw new PreconditionFailedException(
            t.type().name() + " '" + t.id() + "' changed while deleting; read it again");
      }
      backOff(attempt);
    }
    throw new ConflictException(
        t.type().name() + " '" + t.id() + "' kept changing; gave up after " + MAX_ATTEMPTS);
  }

  /** Deletes unless already deleted (by the parent's delete, which is the outcome wanted). */
  void deleteQuietly(Target t) {
    try {
      delete(t, OptionalLong.empty());
    } catch (NotFoundException alreadyGone) {
      // The parent's delete (or another) removed it first: the outcome wanted, nothing to undo.
    }
  }

  /** Deletes every comment of a parent, a bounded prefix scan at a time. */
  private void deleteComments(Target parent) {
    for (DocType child : types.childrenOf(parent.type().name())) {
      TableName table = store.schema().table(child.name());
      while (true) {
        Scan scan =
            liveRows(DocsKeys.COMMENT.range(parent.id(), parent.type().name()).toScan())
                .setLimit(500)
                .setCaching(500);
        List<Document> batch = comments(child, store.scan(table, scan));
        if (batch.isEmpty()) {
          break;
        }
        for (Document d : batch) {
          deleteQuietly(target(child, d.id()));
        }
      }
    }
  }
}
