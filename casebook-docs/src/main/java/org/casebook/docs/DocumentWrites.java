package org.casebook.docs;

import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.StorageException;

/**
 * Single-document writes: optimistic writes with check-and-mutate on the version, counters, deletes
 * with their comments, and the source-day index entries that go with each state.
 *
 * <p>Index protocol (correct under any interleaving of writers, and after a crash at any point): a
 * writer puts the index entry of the state it is about to commit (cell timestamp = that state's
 * version) before the check-and-mutate, and deletes the previous state's entry after it, naming the
 * new version as the newest it may remove. So a committed state always has its entry; an entry left
 * by a failed or crashed writer has a version no newer than the document's, which is how the
 * listing and {@link SourceIndex#repair} recognise it; and a slow writer's delete can never remove
 * an entry that a later state wrote again.
 */
final class DocumentWrites {
  /** Attempts of a write without If-Match before it gives up with 409 (each lost to a writer). */
  static final int MAX_ATTEMPTS = 32;

  /** Comments a parent's delete reads per round. */
  private static final int DELETE_BATCH = 500;

  /** A stored document and whether this write created it. */
  record Written(Document document, boolean created) {}

  private final DocumentStore store;
  private final IndexStore index;
  private final DocumentReads reads;
  private final Targets targets;
  private final TypeRegistry types;
  private final VersionClock versions;

  DocumentWrites(
      DocumentStore store,
      IndexStore index,
      DocumentReads reads,
      Targets targets,
      TypeRegistry types,
      VersionClock versions) {
    this.store = store;
    this.index = index;
    this.reads = reads;
    this.targets = targets;
    this.types = types;
    this.versions = versions;
  }

  VersionClock versions() {
    return versions;
  }

  /**
   * Works out the write of {@code changes} over the row as read ({@code current}), or throws what
   * the caller did wrong: 404 (no such document, or its parent is gone), 409 (create of an existing
   * one), 412 (If-Match names another version). Over a live document the correction rule applies
   * ({@link CorrectionRules}): a person's edit marks the fields it changes, any other write keeps
   * the marked ones.
   */
  WritePlan plan(
      Target t,
      Optional<StoredRow> current,
      Map<String, Object> changes,
      WriteMode mode,
      OptionalLong ifMatch,
      Author author) {
    boolean live = current.map(StoredRow::live).orElse(false);
    if ((mode == WriteMode.PATCH || ifMatch.isPresent()) && !live) {
      throw DocumentReads.notFound(t);
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
    if (mode == WriteMode.CREATE && live) {
      throw new ConflictException(t.type().name() + " '" + t.id() + "' already exists");
    }
    Map<String, Object> old = live ? current.get().values() : Map.of();
    Map<String, Object> next = new LinkedHashMap<>(mode == WriteMode.PATCH ? old : Map.of());
    for (Map.Entry<String, Object> e : changes.entrySet()) {
      if (e.getValue() == null) {
        next.remove(e.getKey());
      } else {
        next.put(e.getKey(), e.getValue());
      }
    }
    if (live && mode == WriteMode.REPLACE) {
      for (FieldDef f : t.type().fields()) {
        if (FieldDef.isCounter(f)) {
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
    CorrectionRules.Outcome o =
        live
            ? CorrectionRules.apply(
                t.type(),
                old,
                ordered,
                mode == WriteMode.PATCH ? changes.keySet() : fieldNames(t.type()),
                current.get().corrections(),
                author,
                version,
                targets.clock().millis())
            : CorrectionRules.Outcome.plain(ordered);
    return new WritePlan(
        t,
        current.map(StoredRow::state).orElse(null),
        version,
        mode,
        Set.copyOf(changes.keySet()),
        o.values(),
        live ? Targets.indexEntry(t, old) : null,
        Targets.indexEntry(t, o.values()),
        !live,
        o.state(),
        o.entry(),
        o.evicted(),
        o.changed());
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

  /**
   * Stores {@code changes}: once if {@code ifMatch} is given (a lost race is a 412), else retried
   * against the new version until it wins (409 after {@link #MAX_ATTEMPTS}). A bulk {@code index}
   * that changes nothing stores nothing: a re-crawl of the same page, or a write retried after it
   * was stored, adds no version and no history entry.
   */
  Written write(
      Target t, Map<String, Object> changes, WriteMode mode, OptionalLong ifMatch, Author author) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<StoredRow> current = store.read(t);
      WritePlan plan = plan(t, current, changes, mode, ifMatch, author);
      if (mode == WriteMode.INDEX && !plan.created() && !plan.changed()) {
        return new Written(Targets.document(t, current.get()), false);
      }
      if (plan.created() && t.parent() != null && !reads.live(targets.parentOf(t.parent()))) {
        throw parentGone(t);
      }
      if (plan.newKey() != null) {
        index.put(plan.newKey(), plan.version());
      }
      if (store.commit(plan)) {
        afterCommit(plan);
        return new Written(
            Targets.document(t, plan.version(), plan.values(), stored(plan, current)),
            plan.created());
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

  private static Set<String> fieldNames(DocType type) {
    Set<String> out = new HashSet<>();
    type.fields().forEach(f -> out.add(f.name()));
    return out;
  }

  /** The corrections cell a committed plan leaves. */
  private static CorrectionState stored(WritePlan plan, Optional<StoredRow> read) {
    if (plan.created()) {
      return null;
    }
    return plan.corrections() != null ? plan.corrections() : read.get().corrections();
  }

  /**
   * Drops the correction of {@code field}: the field keeps its value, unmarked, so the next crawl
   * changes it. Recorded in the history as the person's. 404 if the field is not corrected.
   */
  Document dropCorrection(Target t, String field, OptionalLong ifMatch, Author author) {
    InvalidInputException.check(
        t.type().field(field).isPresent(),
        "field",
        "unknown field '" + field + "' for type " + t.type().name());
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      StoredRow row =
          store.read(t).filter(StoredRow::live).orElseThrow(() -> DocumentReads.notFound(t));
      if (ifMatch.isPresent() && ifMatch.getAsLong() != row.version()) {
        throw new PreconditionFailedException(
            t.type().name() + " '" + t.id() + "' is at version " + row.version());
      }
      CorrectionState state = row.corrections();
      if (state == null || !state.marks().containsKey(field)) {
        throw new NotFoundException(
            "no correction of '" + field + "' in " + t.type().name() + " '" + t.id() + "'");
      }
      long version = versions.nextAfter(row.maxTimestamp());
      CorrectionRules.Outcome o =
          CorrectionRules.drop(
              row.values(), state, field, author, version, targets.clock().millis());
      // A PATCH naming the field: its family cell is rewritten with the value the person left,
      // which the crawl's next write may then replace.
      WritePlan plan =
          new WritePlan(
              t,
              row.state(),
              version,
              WriteMode.PATCH,
              Set.of(field),
              row.values(),
              null,
              null,
              false,
              o.state(),
              o.entry(),
              o.evicted(),
              true);
      if (store.commit(plan)) {
        return Targets.document(t, version, row.values(), o.state());
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
  private void afterCommit(WritePlan plan) {
    if (plan.oldKey() != null && !Arrays.equals(plan.oldKey(), plan.newKey())) {
      index.delete(plan.oldKey(), plan.version());
    }
    Target t = plan.target();
    if (plan.created() && t.parent() != null && !reads.live(targets.parentOf(t.parent()))) {
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
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      StoredRow row =
          store
              .readCounter(t, f)
              .filter(StoredRow::live)
              .orElseThrow(() -> DocumentReads.notFound(t));
      Optional<Long> value =
          store.increment(t, f, by, row.state().base(), versions.nextAfter(row.maxTimestamp()));
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
      StoredRow row =
          store.read(t).filter(StoredRow::live).orElseThrow(() -> DocumentReads.notFound(t));
      if (ifMatch.isPresent() && ifMatch.getAsLong() != row.version()) {
        throw new PreconditionFailedException(
            t.type().name() + " '" + t.id() + "' is at version " + row.version());
      }
      long version = versions.nextAfter(row.maxTimestamp());
      if (store.markDeleted(t, row.state(), version)) {
        byte[] key = Targets.indexEntry(t, row.values());
        if (key != null) {
          index.delete(key, version);
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
      while (true) {
        List<Document> batch = reads.comments(parent, child, DELETE_BATCH);
        if (batch.isEmpty()) {
          break;
        }
        for (Document d : batch) {
          deleteQuietly(targets.of(child, d.id()));
        }
      }
    }
  }
}
