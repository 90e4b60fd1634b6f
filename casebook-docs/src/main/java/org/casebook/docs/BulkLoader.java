package org.casebook.docs;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.CasebookException;
import org.casebook.core.Futures;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Threads;

/**
 * The seed's "write server that splits documents into cells and batches writes": bulk actions (the
 * {@code _bulk} shape: index, create, delete), checked document by document, written in batches
 * ({@link BulkWrites}) and acknowledged per document only once flushed (durable in the WAL).
 *
 * <p>Four stages: the caller's thread takes the actions from their reader and resolves them; parser
 * threads (one per core) read and check chunks of documents side by side and encode their cells,
 * which do not depend on the version; the chunks come back in order and are cut into batches here;
 * one writer thread writes batch n+1 while the acknowledging thread finishes batch n.
 */
final class BulkLoader {
  private static final int CHUNK_ACTIONS = 1000;
  private static final long CHUNK_BYTES = 4L << 20;

  /** Actions a parser thread checks at a time. */
  private static final int PARSE_CHUNK = 250;

  private static final int PARSE_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

  private final Supplier<BulkStore> writers;
  private final DocumentStore store;
  private final TypeRegistry types;
  private final Targets targets;
  private final DocumentWrites documents;
  private final boolean findCorrected;

  /**
   * {@code writers} opens the buffered writers of one request; {@code findCorrected} says whether
   * {@code index} rows are checked for corrections ({@link DocsSettings#RECRAWL_HISTORY}).
   */
  BulkLoader(
      Supplier<BulkStore> writers,
      DocumentStore store,
      TypeRegistry types,
      Targets targets,
      DocumentWrites documents,
      boolean findCorrected) {
    this.writers = writers;
    this.store = store;
    this.types = types;
    this.targets = targets;
    this.documents = documents;
    this.findCorrected = findCorrected;
  }

  BulkSummary load(Iterator<BulkAction> actions, Consumer<BulkItem> sink) {
    long start = System.nanoTime();
    long[] counts = new long[4]; // actions, stored, deleted, failed
    Consumer<BulkItem> counting =
        item -> {
          counts[0]++;
          if (!item.ok()) {
            counts[3]++;
          } else if (item.action().equals("delete")) {
            counts[2]++;
          } else {
            counts[1]++;
          }
          sink.accept(item);
        };
    ExecutorService parsers =
        Executors.newFixedThreadPool(PARSE_THREADS, Threads.daemon("docs-bulk-parse"));
    ExecutorService writer = Executors.newSingleThreadExecutor(Threads.daemon("docs-bulk-writer"));
    BulkWrites writes = new BulkWrites(writers.get(), store, documents);
    Batcher batcher = new Batcher(writer, writes, counting);
    ArrayDeque<Future<List<BulkOp>>> parsing = new ArrayDeque<>();
    try {
      List<BulkOp> chunk = new ArrayList<>(PARSE_CHUNK);
      while (actions.hasNext()) {
        chunk.add(resolve(actions.next()));
        if (chunk.size() >= PARSE_CHUNK) {
          parsing.add(parsers.submit(parseDocuments(chunk)));
          chunk = new ArrayList<>(PARSE_CHUNK);
          while (parsing.size() > 2 * PARSE_THREADS) {
            batcher.add(Futures.await(parsing.poll()));
          }
        }
      }
      parsing.add(parsers.submit(parseDocuments(chunk)));
      while (!parsing.isEmpty()) {
        batcher.add(Futures.await(parsing.poll()));
      }
      batcher.finish();
    } finally {
      // A failed read of the actions leaves the batch in flight to finish before the writers close.
      parsing.forEach(f -> f.cancel(true));
      Threads.shutdown(parsers, Duration.ofMinutes(1));
      Threads.shutdown(writer, Duration.ofMinutes(10));
      writes.close();
    }
    return new BulkSummary(
        counts[0], counts[1], counts[2], counts[3], (System.nanoTime() - start) / 1_000_000);
  }

  /** The op of an action: its type and (for a delete) its row resolved, or its failure. */
  private BulkOp resolve(BulkAction a) {
    BulkOp op = new BulkOp(a.line(), a.action());
    op.document = a.document();
    op.documentBytes = a.document() == null ? 0 : a.document().bytes();
    if (a.problem() != null) {
      op.fail(a.problem(), a.type(), a.id());
      return op;
    }
    try {
      InvalidInputException.check(a.type() != null, "_index", "_index (the type) is required");
      DocType type = types.get(a.type(), "_index");
      if (a.isDelete()) {
        InvalidInputException.check(a.id() != null, "_id", "delete needs an _id");
        op.target = targets.of(type, a.id());
      } else {
        op.mode = a.action().equals("create") ? WriteMode.CREATE : WriteMode.REPLACE;
        op.target = new Target(type, a.id(), null, a.parent(), null); // resolved with the document
      }
    } catch (CasebookException e) {
      op.fail(e, a.type(), a.id());
    }
    return op;
  }

  /** Checks the documents of a chunk of actions, on a parser thread. */
  private Callable<List<BulkOp>> parseDocuments(List<BulkOp> chunk) {
    return () -> {
      // Comments come in runs under one parent: its target (canonical id, row key) is worked
      // out once per chunk.
      Map<DocRef, Target> parents = new HashMap<>();
      for (BulkOp op : chunk) {
        if (op.document != null && op.result == null) {
          document(op, parents);
        }
        op.document = null;
      }
      if (findCorrected) {
        findCorrected(chunk);
      }
      return chunk;
    };
  }

  /**
   * Marks {@link WriteMode#INDEX} the {@code index} actions of rows that have a corrections cell (a
   * person edited the document): one existence check per table, here on a parser thread, so that it
   * runs beside the writes of the batches before instead of ahead of its own. Generated ids are new
   * rows: not checked.
   */
  private void findCorrected(List<BulkOp> chunk) {
    Map<TableName, List<BulkOp>> byTable = new HashMap<>();
    for (BulkOp op : chunk) {
      if (op.result == null && op.mode == WriteMode.REPLACE && !op.generatedId) {
        byTable.computeIfAbsent(op.target.table(), k -> new ArrayList<>()).add(op);
      }
    }
    for (Map.Entry<TableName, List<BulkOp>> e : byTable.entrySet()) {
      List<BulkOp> ops = e.getValue();
      List<Boolean> corrected =
          store.correctedAll(e.getKey(), ops.stream().map(op -> op.target.row()).toList());
      for (int i = 0; i < corrected.size(); i++) {
        if (corrected.get(i)) {
          ops.get(i).mode = WriteMode.INDEX;
        }
      }
    }
  }

  /** Checks the document and resolves the row (a comment's key needs its created time). */
  private void document(BulkOp op, Map<DocRef, Target> parents) {
    Target pending = op.target;
    try {
      Map<String, Object> fields = op.document.fields();
      DocType type = types.forFields(pending.type(), fields.keySet());
      Map<String, Object> values = FieldValues.typed(type, fields, false);
      if (type.isChild()) {
        InvalidInputException.check(
            pending.parent() != null, "parent", "a " + type.name() + " needs parent {type, id}");
        DocType parentType = types.get(pending.parent().type(), "parent.type");
        op.target =
            targets.newComment(type, parentType, pending.parent().id(), pending.id(), values);
        if (parents.size() > 4096) {
          parents.clear();
        }
        op.parent = parents.computeIfAbsent(op.target.parent(), targets::parentOf);
      } else {
        InvalidInputException.check(
            pending.parent() == null, "parent", type.name() + " documents have no parent");
        op.generatedId = pending.id() == null;
        String id = op.generatedId ? DocIds.generate(targets.clock()) : pending.id();
        op.target = targets.of(type, id);
      }
      op.values = values;
      // Encoded here, on a parser thread: the writer thread only assembles the Puts.
      op.cells = DocCodec.cells(op.target.type(), values);
      op.entry = Targets.indexEntry(op.target, values);
    } catch (CasebookException e) {
      op.target = null;
      op.fail(e, pending.type().name(), pending.id());
    }
  }

  /** Cuts the checked actions, in order, into batches and hands them to the writer thread. */
  private static final class Batcher {
    private final ExecutorService writer;
    private final BulkWrites writes;
    private final Consumer<BulkItem> sink;
    private List<BulkOp> batch = new ArrayList<>();
    private final Set<ByteBuffer> rowsInBatch = new HashSet<>();
    private long batchBytes;
    private Future<?> inFlight;

    Batcher(ExecutorService writer, BulkWrites writes, Consumer<BulkItem> sink) {
      this.writer = writer;
      this.writes = writes;
      this.sink = sink;
    }

    void add(List<BulkOp> ops) {
      for (BulkOp op : ops) {
        add(op);
      }
    }

    private void add(BulkOp op) {
      batchBytes += op.documentBytes;
      ByteBuffer row = op.target == null ? null : ByteBuffer.wrap(op.target.row());
      boolean isDelete = op.isDelete();
      if (isDelete || (row != null && rowsInBatch.contains(row))) {
        // Deletes and repeated rows keep the request's order: the batch before them goes first,
        // acknowledged (and a batch's rows share one version, so each must be distinct).
        handOverBatch();
        handOver(writes::awaitAcks);
      }
      if (isDelete) {
        handOver(
            () -> {
              writes.delete(op);
              sink.accept(op.result);
            });
        return;
      }
      batch.add(op);
      if (row != null) {
        rowsInBatch.add(row);
      }
      if (batch.size() >= CHUNK_ACTIONS || batchBytes >= CHUNK_BYTES) {
        handOverBatch();
      }
    }

    /** Hands over the last batch and waits until every action is acknowledged. */
    void finish() {
      handOverBatch();
      if (inFlight != null) {
        Futures.await(inFlight);
      }
      writes.awaitAcks();
    }

    /** Hands the batch to the writer thread (after the write in flight) and starts a new one. */
    private void handOverBatch() {
      if (!batch.isEmpty()) {
        List<BulkOp> full = batch;
        handOver(() -> writes.write(full, sink));
      }
      batch = new ArrayList<>();
      rowsInBatch.clear();
      batchBytes = 0;
    }

    /** Waits for the write in flight, then starts {@code task} on the writer thread. */
    private void handOver(Runnable task) {
      if (inFlight != null) {
        Futures.await(inFlight);
      }
      inFlight = writer.submit(task);
    }
  }
}
