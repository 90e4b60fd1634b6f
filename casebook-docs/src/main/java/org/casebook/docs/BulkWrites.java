package org.casebook.docs;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.CasebookException;
import org.casebook.core.Futures;
import org.casebook.core.NotFoundException;
import org.casebook.core.Threads;

/**
 * The writes of one bulk request's batches, on its writer thread, and their acknowledgement.
 *
 * <p>A batch takes one version from the {@link VersionClock} (its rows are distinct: a repeated id
 * starts a new batch). An {@code index} is a blind write — one Put of the whole document at that
 * version, with the version as the row's base, so no read, no check and no delete: the higher
 * version wins whole whatever the order of arrival (see {@link DocCodec#wholeDocument}). A {@code
 * create} is the same Put sent as a check-and-mutate "if the row does not exist", batched per
 * table; a row that exists (live: 409, or deleted) takes the single-document path. Index entries of
 * the new states are flushed before the rows; entries of replaced states are left to the listing's
 * read-repair (an index does not read the state it replaces).
 *
 * <p>Documents a person edited are the exception: their {@code index} actions come marked {@link
 * WriteMode#INDEX} by the parser threads ({@link BulkLoader}) and take the single-document path
 * (read, merge, check-and-mutate on the version), so that the crawl keeps the corrected fields and
 * enters the document's history. A correction made after that check and before the blind write is
 * still kept: reads show corrected fields over the crawl's cells.
 */
final class BulkWrites implements AutoCloseable {
  private final BulkStore store;
  private final DocumentStore rows;
  private final DocumentWrites documents;

  /**
   * The third stage: flushes a batch's rows, checks its comments' parents again and reports its
   * results, while the writer thread already writes the next batch's entries and rows (the region
   * server gets work without waiting for each acknowledgement), in order.
   */
  private final ExecutorService acker =
      Executors.newSingleThreadExecutor(Threads.daemon("docs-bulk-ack"));

  /** The acknowledgement of the last batch handed to {@link #acker}; null before the first. */
  private volatile Future<?> lastAck;

  /**
   * Rows of documents the batch being acknowledged stores (written, maybe not yet flushed): a
   * comment on one of them in the next batch needs no read of its parent before it is written (the
   * check after the write reads the parent, once that batch is acknowledged). Writer thread only.
   */
  private Set<ByteBuffer> pendingRows = Set.of();

  BulkWrites(BulkStore store, DocumentStore rows, DocumentWrites documents) {
    this.store = store;
    this.rows = rows;
    this.documents = documents;
  }

  /** Waits until every batch handed over is acknowledged. */
  void awaitAcks() {
    Future<?> ack = lastAck;
    if (ack != null) {
      Futures.await(ack);
    }
  }

  /** A delete, on the single-document path (it reads the row and removes the comments). */
  void delete(BulkOp op) {
    try {
      documents.delete(op.target, OptionalLong.empty());
      op.result = op.ok(200, null);
    } catch (CasebookException e) {
      op.fail(e, op.target.type().name(), op.target.id());
    }
  }

  /**
   * Writes a batch (on the writer thread) and hands it to the acknowledging stage: entries,
   * flushed, then rows (blind Puts for index into the buffered writers, one batched
   * check-and-mutate per table for create). {@link #acknowledge} flushes the rows, checks that the
   * parents of new comments are still there (a parent deleted meanwhile takes its comment with it)
   * and reports. At most one batch waits for its acknowledgement while the next one is written.
   */
  void write(List<BulkOp> batch, Consumer<BulkItem> sink) {
    long version = documents.versions().next();
    Map<ByteBuffer, Boolean> parentsLive = parentsLive(batch, pendingRows);
    for (BulkOp op : batch) {
      if (op.result == null
          && op.parent != null
          && !parentsLive.getOrDefault(parentKey(op), false)) {
        op.fail(parentMissing(op), op.target.type().name(), op.target.id());
      }
    }
    for (BulkOp op : batch) {
      if (op.result == null && op.entry != null && op.mode != WriteMode.INDEX) {
        store.putEntry(op.entry, version);
      }
    }
    store.flushEntries(); // entries before the states they point to

    Map<TableName, List<BulkOp>> creates = new LinkedHashMap<>();
    for (BulkOp op : batch) {
      if (op.result != null) {
        continue;
      }
      if (op.mode == WriteMode.CREATE) {
        creates.computeIfAbsent(op.target.table(), k -> new ArrayList<>()).add(op);
      } else if (op.mode == WriteMode.INDEX) {
        indexCorrected(op);
      } else {
        store.index(op.target, op.cells, version);
        op.result = op.ok(op.generatedId ? 201 : 200, version);
      }
    }
    for (Map.Entry<TableName, List<BulkOp>> e : creates.entrySet()) {
      List<BulkOp> ops = e.getValue();
      List<Boolean> created =
          store.create(
              e.getKey(),
              ops.stream().map(op -> op.target).toList(),
              ops.stream().map(op -> op.cells).toList(),
              version);
      for (int i = 0; i < created.size(); i++) {
        BulkOp op = ops.get(i);
        if (created.get(i)) {
          op.result = op.ok(201, version);
        } else {
          createOverExisting(op, version);
        }
      }
    }
    Set<ByteBuffer> stored = new HashSet<>();
    for (BulkOp op : batch) {
      if (op.result.ok() && op.target.parent() == null) {
        stored.add(ByteBuffer.wrap(op.target.row()));
      }
    }
    awaitAcks();
    pendingRows = stored;
    lastAck = acker.submit(() -> acknowledge(batch, sink));
  }

  /** Flushes a written batch, checks its comments' parents again and reports its results. */
  private void acknowledge(List<BulkOp> batch, Consumer<BulkItem> sink) {
    store.flushDocuments();

    Map<ByteBuffer, Boolean> stillLive = parentsLive(batch, null);
    for (BulkOp op : batch) {
      if (op.result.ok() && op.parent != null && !stillLive.getOrDefault(parentKey(op), false)) {
        // The parent was deleted while its comment was being stored: the comment goes too.
        documents.deleteQuietly(op.target);
        op.fail(
            new NotFoundException("parent deleted while storing the comment"),
            op.target.type().name(),
            op.target.id());
      }
    }
    store.flushEntries(); // removals of entries of failed creates, before acknowledging
    for (BulkOp op : batch) {
      sink.accept(op.result);
    }
  }

  /**
   * An {@code index} of a document a person edited, on the single-document path: stored (durable)
   * before the batch is acknowledged, with its own version and index entry.
   */
  private void indexCorrected(BulkOp op) {
    try {
      DocumentWrites.Written w =
          documents.write(
              op.target, op.values, WriteMode.INDEX, OptionalLong.empty(), Author.CRAWL);
      op.result = op.ok(200, w.document().version());
    } catch (CasebookException e) {
      op.fail(e, op.target.type().name(), op.target.id());
    }
  }

  /**
   * A create whose row exists: a live document is a 409; a deleted one is created again on the
   * single-document path (which reads the row, so its version follows the deleted one's). If the
   * create fails, the entry this batch wrote for it goes, unless the stored document has the same.
   */
  private void createOverExisting(BulkOp op, long version) {
    try {
      DocumentWrites.Written w =
          documents.write(
              op.target, op.values, WriteMode.CREATE, OptionalLong.empty(), Author.CRAWL);
      op.result = op.ok(201, w.document().version());
    } catch (CasebookException e) {
      op.fail(e, op.target.type().name(), op.target.id());
      if (op.entry != null) {
        byte[] current =
            rows.read(op.target)
                .filter(StoredRow::live)
                .map(r -> Targets.indexEntry(op.target, r.values()))
                .orElse(null);
        if (!Arrays.equals(current, op.entry)) {
          store.removeEntry(op.entry, version);
        }
      }
    }
  }

  private static NotFoundException parentMissing(BulkOp op) {
    return new NotFoundException(
        "no " + op.target.parent().type() + " document '" + op.target.parent().id() + "'");
  }

  /** A parent's row key, which names it (type and canonical id) uniquely. */
  private static ByteBuffer parentKey(BulkOp op) {
    return ByteBuffer.wrap(op.parent.row());
  }

  /**
   * Liveness of the parents of the batch's comments, read in one call per parent table. Before the
   * write ({@code pending} given), a parent stored earlier in this same batch or in the batch still
   * being acknowledged ({@code pending}) counts as live without a read (it is written before the
   * comment; the check after the write reads it like any other).
   */
  private Map<ByteBuffer, Boolean> parentsLive(List<BulkOp> batch, Set<ByteBuffer> pending) {
    boolean beforeWrite = pending != null;
    Map<ByteBuffer, Boolean> out = new HashMap<>();
    if (beforeWrite) {
      pending.forEach(row -> out.put(row, true));
      for (BulkOp op : batch) {
        if (op.result == null && op.target.parent() == null) {
          out.put(ByteBuffer.wrap(op.target.row()), true);
        }
      }
    }
    Map<TableName, List<Target>> toRead = new LinkedHashMap<>();
    for (BulkOp op : batch) {
      boolean toCheck = beforeWrite ? op.result == null : op.result.ok();
      if (!toCheck || op.parent == null) {
        continue;
      }
      if (out.putIfAbsent(parentKey(op), false) == null) {
        toRead.computeIfAbsent(op.parent.table(), k -> new ArrayList<>()).add(op.parent);
      }
    }
    for (Map.Entry<TableName, List<Target>> e : toRead.entrySet()) {
      List<Boolean> live =
          rows.liveAll(e.getKey(), e.getValue().stream().map(Target::row).toList());
      for (int i = 0; i < live.size(); i++) {
        out.put(ByteBuffer.wrap(e.getValue().get(i).row()), live.get(i));
      }
    }
    return out;
  }

  /** Waits for the acknowledgements, then closes the writers (flushing what is buffered). */
  @Override
  public void close() {
    try {
      Threads.shutdown(acker, Duration.ofMinutes(10));
    } finally {
      store.close();
    }
  }
}
