package org.casebook.docs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.casebook.core.CasebookException;
import org.casebook.core.Futures;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;
import org.casebook.core.net.ByteLines;
import org.casebook.docs.DocsStore.StoredRow;
import org.casebook.docs.Documents.Mode;
import org.casebook.docs.Documents.Target;

/**
 * The seed's "write server that splits documents into cells and batches writes": newline-delimited
 * JSON in Elasticsearch's {@code _bulk} shape (an action line, then a document line for {@code
 * index} and {@code create}), checked document by document, written in batches through {@link
 * BufferedMutator}s, and acknowledged per document only once flushed (durable in the WAL).
 *
 * <p>A batch takes one version from the {@link VersionClock} (its rows are distinct: a repeated id
 * starts a new batch). An {@code index} is a blind write — one Put of the whole document at that
 * version, with the version as the row's base, so no read, no check and no delete: the higher
 * version wins whole whatever the order of arrival (see {@link Documents#wholeDocument}). A {@code
 * create} is the same Put sent as a check-and-mutate "if the row does not exist", batched per
 * table; a row that exists (live: 409, or deleted) takes the single-document path. Index entries of
 * the new states are flushed before the rows; entries of replaced states are left to the listing's
 * read-repair (an index does not read the state it replaces).
 */
final class BulkLoader {
  private static final int CHUNK_ACTIONS = 1000;
  private static final long CHUNK_BYTES = 4L << 20;

  /** Actions a parser thread checks at a time. */
  private static final int PARSE_CHUNK = 250;

  private static final int PARSE_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

  /** An action line: exactly one of the three. */
  record BulkAction(BulkTarget index, BulkTarget create, BulkTarget delete) {}

  /** What an action acts on: {@code _index} is the type; {@code parent} for comments. */
  record BulkTarget(
      @JsonProperty("_index") String type, @JsonProperty("_id") String id, DocRef parent) {}

  /** A parsed action waiting in a batch. */
  private static final class Op {
    final int line;
    final String action;
    Target target;
    Map<String, Object> values;
    Mode mode;
    BulkItem result;

    /** The id was generated here, so the document is new (201 without a read). */
    boolean generatedId;

    /** The source-day index entry written for this document, or null. */
    byte[] entry;

    /** The document's field cells, encoded by the parser. */
    Documents.DocumentCells cells;

    /** A comment's parent, resolved once. */
    Target parent;

    /** The document line's bytes until a parser checked it (null: missing). */
    byte[] document;

    /** Whether the action takes a document line (all but delete). */
    boolean hasDocumentLine;

    /** Bytes of the document line, for the batch's size. */
    long documentBytes;

    Op(int line, String action) {
      this.line = line;
      this.action = action;
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
  }

  /** The buffered writers of one bulk request: index entries and one per document table. */
  private final class Writers implements AutoCloseable {
    final BufferedMutator index = store.indexMutator();
    final Map<TableName, BufferedMutator> documents = new LinkedHashMap<>();
    final ExecutorService flushers =
        Executors.newCachedThreadPool(Threads.daemon("docs-bulk-flush"));

    /**
     * The third stage: flushes a batch's rows, checks its comments' parents again and reports its
     * results, while the writer thread already writes the next batch's entries and rows (the region
     * server gets work without waiting for each acknowledgement), in order.
     */
    final ExecutorService acker =
        Executors.newSingleThreadExecutor(Threads.daemon("docs-bulk-ack"));

    /** The acknowledgement of the last batch handed to {@link #acker}; null before the first. */
    volatile Future<?> lastAck;

    /**
     * Rows of documents the batch being acknowledged stores (written, maybe not yet flushed): a
     * comment on one of them in the next batch needs no read of its parent before it is written
     * (the check after the write reads the parent, once that batch is acknowledged). Writer thread
     * only.
     */
    Set<ByteBuffer> pendingRows = Set.of();

    /** Waits until every batch handed over is acknowledged. */
    void awaitAcks() {
      Future<?> ack = lastAck;
      if (ack != null) {
        Futures.await(ack);
      }
    }

    BufferedMutator documents(TableName table) {
      return documents.computeIfAbsent(table, store::documentMutator);
    }

    /**
     * Flushes the tables' writers at once: each flush is one request that a region server handler
     * applies, so tables flushed one after another would leave the other core idle.
     */
    void flushDocuments() {
      List<Future<?>> flushes = new ArrayList<>(documents.size());
      for (BufferedMutator m : documents.values()) {
        flushes.add(
            flushers.submit(
                () -> {
                  try {
                    m.flush();
                  } catch (IOException e) {
                    throw StorageException.of("write documents", e);
                  }
                }));
      }
      flushes.forEach(Futures::await);
    }

    @Override
    public void close() throws IOException {
      Threads.shutdown(acker, Duration.ofMinutes(10));
      Threads.shutdown(flushers, Duration.ofMinutes(1));
      IOException first = null;
      for (BufferedMutator m : documents.values()) {
        try {
          m.close();
        } catch (IOException e) {
          first = first == null ? e : first;
        }
      }
      index.close();
      if (first != null) {
        throw first;
      }
    }
  }

  private final DocsStore store;
  private final TypeRegistry types;
  private final Documents documents;

  BulkLoader(DocsStore store, TypeRegistry types, Documents documents) {
    this.store = store;
    this.types = types;
    this.documents = documents;
  }

  BulkSummary load(InputStream ndjson, Consumer<BulkItem> sink) {
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
    int lineNo = 0;
    // Three stages: this thread splits the lines into actions (an action line says whether a
    // document line follows) and hands chunks of them to the parsers, which check the documents
    // side by side (most of the client's CPU); the chunks come back in order and are batched here;
    // one writer thread stores the previous batch meanwhile (the wait for a flush is idle).
    ExecutorService parsers =
        Executors.newFixedThreadPool(PARSE_THREADS, Threads.daemon("docs-bulk-parse"));
    ExecutorService writer = Executors.newSingleThreadExecutor(Threads.daemon("docs-bulk-writer"));
    Writers writers = new Writers();
    Batcher batcher = new Batcher(writer, writers, counting);
    ArrayDeque<Future<List<Op>>> parsing = new ArrayDeque<>();
    // Lines stay bytes until a parser reads them (Jackson decodes UTF-8 as it parses): no decoding
    // and no String of a whole document on this thread.
    ByteLines lines = new ByteLines(ndjson, DocLimits.MAX_LINE_BYTES);
    try {
      List<Op> chunk = new ArrayList<>(PARSE_CHUNK);
      while (nextLine(lines)) {
        lineNo++;
        if (!lines.tooLong() && lines.blank()) {
          continue;
        }
        Op op = parseAction(lineNo, lines);
        if (!op.action.equals("delete")) {
          if (nextLine(lines)) {
            op.document = lines.tooLong() ? TOO_LONG : lines.copy();
          }
          op.hasDocumentLine = true;
          lineNo++;
        }
        chunk.add(op);
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
      // A failed read of the lines leaves the batch in flight to finish before the writers close.
      parsing.forEach(f -> f.cancel(true));
      Threads.shutdown(parsers, Duration.ofMinutes(1));
      Threads.shutdown(writer, Duration.ofMinutes(10));
      try {
        writers.close();
      } catch (IOException e) {
        throw StorageException.of("write documents", e);
      }
    }
    return new BulkSummary(
        counts[0], counts[1], counts[2], counts[3], (System.nanoTime() - start) / 1_000_000);
  }

  /** A document line longer than {@link DocLimits#MAX_LINE_BYTES}, whose bytes were skipped. */
  private static final byte[] TOO_LONG = new byte[0];

  private static boolean nextLine(ByteLines lines) {
    try {
      return lines.next();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Checks the documents of a chunk of actions, on a parser thread. */
  private Callable<List<Op>> parseDocuments(List<Op> chunk) {
    return () -> {
      // Comments come in runs under one parent: its target (canonical id, row key) is worked
      // out once per chunk.
      Map<DocRef, Target> parents = new HashMap<>();
      for (Op op : chunk) {
        if (op.hasDocumentLine) {
          op.documentBytes = op.document == null ? 0 : op.document.length;
          if (op.result == null) {
            document(op, op.document, parents);
          }
          op.document = null;
        }
      }
      return chunk;
    };
  }

  /** Cuts the checked actions, in order, into batches and hands them to the writer thread. */
  private final class Batcher {
    private final ExecutorService writer;
    private final Writers writers;
    private final Consumer<BulkItem> sink;
    private List<Op> batch = new ArrayList<>();
    private final Set<ByteBuffer> rowsInBatch = new HashSet<>();
    private long batchBytes;
    private Future<?> inFlight;

    Batcher(ExecutorService writer, Writers writers, Consumer<BulkItem> sink) {
      this.writer = writer;
      this.writers = writers;
      this.sink = sink;
    }

    void add(List<Op> ops) {
      for (Op op : ops) {
        add(op);
      }
    }

    private void add(Op op) {
      batchBytes += op.documentBytes;
      ByteBuffer row = op.target == null ? null : ByteBuffer.wrap(op.target.row());
      boolean isDelete = op.result == null && op.mode == null;
      if (isDelete || (row != null && rowsInBatch.contains(row))) {
        // Deletes and repeated rows keep the file's order: the batch before them goes first,
        // acknowledged (and a batch's rows share one version, so each must be distinct).
        inFlight = handOver(writer, inFlight, batch, writers, sink);
        inFlight = handOver(writer, inFlight, writers::awaitAcks);
        batch = new ArrayList<>();
        rowsInBatch.clear();
        batchBytes = 0;
      }
      if (isDelete) {
        inFlight =
            handOver(
                writer,
                inFlight,
                () -> {
                  delete(op);
                  sink.accept(op.result);
                });
        return;
      }
      batch.add(op);
      if (row != null) {
        rowsInBatch.add(row);
      }
      if (batch.size() >= CHUNK_ACTIONS || batchBytes >= CHUNK_BYTES) {
        inFlight = handOver(writer, inFlight, batch, writers, sink);
        batch = new ArrayList<>();
        rowsInBatch.clear();
        batchBytes = 0;
      }
    }

    /** Hands over the last batch and waits until every action is acknowledged. */
    void finish() {
      inFlight = handOver(writer, inFlight, batch, writers, sink);
      if (inFlight != null) {
        Futures.await(inFlight);
      }
      writers.awaitAcks();
    }
  }

  /** Waits for the write in flight, then starts {@code task} on the writer thread. */
  private static Future<?> handOver(ExecutorService writer, Future<?> inFlight, Runnable task) {
    if (inFlight != null) {
      Futures.await(inFlight);
    }
    return writer.submit(task);
  }

  private Future<?> handOver(
      ExecutorService writer,
      Future<?> inFlight,
      List<Op> batch,
      Writers writers,
      Consumer<BulkItem> sink) {
    if (batch.isEmpty()) {
      return inFlight;
    }
    return handOver(
        writer,
        inFlight,
        () -> {
          try {
            flush(batch, writers, sink);
          } catch (IOException e) {
            throw StorageException.of("write documents", e);
          }
        });
  }

  private Op parseAction(int line, ByteLines text) {
    BulkAction a;
    try {
      InvalidInputException.check(
          !text.tooLong(),
          "action",
          "an action line is longer than " + DocLimits.MAX_LINE_BYTES + " bytes");
      a = plainAction(text.array(), text.offset(), text.length());
      if (a == null) {
        a = Json.readBody(text.copy(), BulkAction.class);
      }
    } catch (InvalidInputException e) {
      Op op = new Op(line, "?");
      op.fail(e, null, null);
      return op;
    }
    int given =
        (a.index() == null ? 0 : 1) + (a.create() == null ? 0 : 1) + (a.delete() == null ? 0 : 1);
    String action = a.delete() != null ? "delete" : a.create() != null ? "create" : "index";
    Op op = new Op(line, action);
    BulkTarget t = a.delete() != null ? a.delete() : a.create() != null ? a.create() : a.index();
    try {
      InvalidInputException.check(
          given == 1, "action", "an action line has exactly one of index, create, delete");
      InvalidInputException.check(t.type() != null, "_index", "_index (the type) is required");
      DocType type = types.get(t.type(), "_index");
      op.mode =
          action.equals("delete") ? null : action.equals("create") ? Mode.CREATE : Mode.REPLACE;
      if (action.equals("delete")) {
        InvalidInputException.check(t.id() != null, "_id", "delete needs an _id");
        op.target = documents.target(type, t.id());
      } else {
        op.target = new Target(type, t.id(), null, t.parent(), null); // resolved with the document
      }
    } catch (CasebookException e) {
      op.fail(e, t == null ? null : t.type(), t == null ? null : t.id());
    }
    return op;
  }

  /**
   * An action line in its usual form — one action, string values, no other field — read with the
   * streaming parser; null for anything else (or anything wrong), which the strict record binding
   * then reads or rejects with its exact error. Half the parsing time of a line went to binding.
   */
  static BulkAction plainAction(byte[] text, int offset, int length) {
    try (JsonParser p = Json.mapper().createParser(text, offset, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME) {
        return null;
      }
      String action = p.currentName();
      if (!List.of("index", "create", "delete").contains(action)
          || p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      Map<String, String> values = new HashMap<>();
      DocRef parent = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        if (name.equals("parent") && parent == null) {
          if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
          }
          Map<String, String> ref = new HashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (!(key.equals("type") || key.equals("id"))
                || p.nextToken() != JsonToken.VALUE_STRING) {
              return null;
            }
            ref.put(key, p.getText());
          }
          parent = new DocRef(ref.get("type"), ref.get("id"));
        } else if ((name.equals("_index") || name.equals("_id"))
            && !values.containsKey(name)
            && p.nextToken() == JsonToken.VALUE_STRING) {
          values.put(name, p.getText());
        } else {
          return null;
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT
          || p.nextToken() != JsonToken.END_OBJECT
          || p.nextToken() != null) {
        return null;
      }
      BulkTarget t = new BulkTarget(values.get("_index"), values.get("_id"), parent);
      return new BulkAction(
          action.equals("index") ? t : null,
          action.equals("create") ? t : null,
          action.equals("delete") ? t : null);
    } catch (IOException | RuntimeException e) {
      return null; // the strict binding reads it again and words the error
    }
  }

  /** Checks the document line and resolves the row (a comment's key needs its created time). */
  private void document(Op op, byte[] line, Map<DocRef, Target> parents) {
    Target pending = op.target;
    try {
      InvalidInputException.check(line != null, "document", "the action has no document line");
      InvalidInputException.check(
          line != TOO_LONG,
          "document",
          "the document line is longer than " + DocLimits.MAX_LINE_BYTES + " bytes");
      // One streaming pass from the line to checked typed values; the Put encodes them once.
      DocType[] typed = {pending.type()};
      Map<String, Object> values =
          DocCodec.parse(pending.type(), line, t -> typed[0] = types.reloaded(t));
      DocType type = typed[0];
      if (type.isChild()) {
        InvalidInputException.check(
            pending.parent() != null, "parent", "a " + type.name() + " needs parent {type, id}");
        DocType parentType = types.get(pending.parent().type(), "parent.type");
        op.target =
            documents.newComment(type, parentType, pending.parent().id(), pending.id(), values);
        if (parents.size() > 4096) {
          parents.clear();
        }
        op.parent = parents.computeIfAbsent(op.target.parent(), documents::parentTarget);
      } else {
        InvalidInputException.check(
            pending.parent() == null, "parent", type.name() + " documents have no parent");
        op.generatedId = pending.id() == null;
        String id = op.generatedId ? DocIds.generate(documents.clock()) : pending.id();
        op.target = documents.target(type, id);
      }
      op.values = values;
      // Encoded here, on a parser thread: the writer thread only assembles the Puts.
      op.cells = Documents.cells(op.target, values);
      op.entry = Documents.indexKey(op.target, values);
    } catch (CasebookException e) {
      op.target = null;
      op.fail(e, pending.type().name(), pending.id());
    }
  }

  private void delete(Op op) {
    try {
      documents.delete(op.target, OptionalLong.empty());
      op.result = ok(op, 200, null);
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
  private void flush(List<Op> batch, Writers writers, Consumer<BulkItem> sink) throws IOException {
    long version = documents.versions().next();
    Map<ByteBuffer, Boolean> parentsLive = parentsLive(batch, writers.pendingRows);
    for (Op op : batch) {
      if (op.result != null) {
        continue;
      }
      if (op.parent != null && !parentsLive.getOrDefault(parentKey(op), false)) {
        op.fail(parentMissing(op), op.target.type().name(), op.target.id());
        continue;
      }
      if (op.entry != null) {
        writers.index.mutate(DocsStore.indexPut(op.entry, version));
      }
    }
    writers.index.flush(); // entries before the states they point to

    Map<TableName, List<Op>> creates = new LinkedHashMap<>();
    for (Op op : batch) {
      if (op.result != null) {
        continue;
      }
      if (op.mode == Mode.CREATE) {
        creates.computeIfAbsent(op.target.table(), k -> new ArrayList<>()).add(op);
      } else {
        writers
            .documents(op.target.table())
            .mutate(Documents.wholeDocument(op.target, op.cells, version));
        op.result = ok(op, op.generatedId ? 201 : 200, version);
      }
    }
    for (Map.Entry<TableName, List<Op>> e : creates.entrySet()) {
      List<CheckAndMutate> writes = new ArrayList<>();
      for (Op op : e.getValue()) {
        writes.add(
            CheckAndMutate.newBuilder(op.target.row())
                .ifNotExists(DocsStore.DI, DocsSchema.VERSION)
                .build(Documents.wholeDocument(op.target, op.cells, version)));
      }
      List<Boolean> created = store.commitAll(e.getKey(), writes);
      for (int i = 0; i < created.size(); i++) {
        Op op = e.getValue().get(i);
        if (created.get(i)) {
          op.result = ok(op, 201, version);
        } else {
          createOverExisting(op, version, writers.index);
        }
      }
    }
    Set<ByteBuffer> stored = new HashSet<>();
    for (Op op : batch) {
      if (op.result.ok() && op.target.parent() == null) {
        stored.add(ByteBuffer.wrap(op.target.row()));
      }
    }
    writers.awaitAcks();
    writers.pendingRows = stored;
    writers.lastAck =
        writers.acker.submit(
            () -> {
              try {
                acknowledge(batch, writers, sink);
              } catch (IOException e) {
                throw StorageException.of("write documents", e);
              }
            });
  }

  /** Flushes a written batch, checks its comments' parents again and reports its results. */
  private void acknowledge(List<Op> batch, Writers writers, Consumer<BulkItem> sink)
      throws IOException {
    writers.flushDocuments();

    Map<ByteBuffer, Boolean> stillLive = parentsLive(batch, null);
    for (Op op : batch) {
      if (op.result.ok() && op.parent != null && !stillLive.getOrDefault(parentKey(op), false)) {
        // The parent was deleted while its comment was being stored: the comment goes too.
        documents.deleteQuietly(op.target);
        op.fail(
            new NotFoundException("parent deleted while storing the comment"),
            op.target.type().name(),
            op.target.id());
      }
    }
    writers.index.flush(); // removals of entries of failed creates, before acknowledging
    for (Op op : batch) {
      sink.accept(op.result);
    }
  }

  /**
   * A create whose row exists: a live document is a 409; a deleted one is created again on the
   * single-document path (which reads the row, so its version follows the deleted one's). If the
   * create fails, the entry this batch wrote for it goes, unless the stored document has the same.
   */
  private void createOverExisting(Op op, long version, BufferedMutator index) throws IOException {
    try {
      Documents.Written w =
          documents.write(op.target, op.values, Mode.CREATE, OptionalLong.empty());
      op.result = ok(op, 201, w.document().version());
    } catch (CasebookException e) {
      op.fail(e, op.target.type().name(), op.target.id());
      if (op.entry != null) {
        byte[] current =
            store
                .read(op.target.table(), op.target.row())
                .filter(StoredRow::live)
                .map(r -> Documents.indexKey(op.target, Documents.values(op.target.type(), r)))
                .orElse(null);
        if (!Arrays.equals(current, op.entry)) {
          index.mutate(DocsStore.indexDeleteExactly(op.entry, version));
        }
      }
    }
  }

  private static NotFoundException parentMissing(Op op) {
    return new NotFoundException(
        "no " + op.target.parent().type() + " document '" + op.target.parent().id() + "'");
  }

  private static BulkItem ok(Op op, int status, Long version) {
    return new BulkItem(
        op.line, op.action, op.target.type().name(), op.target.id(), status, version, null, null);
  }

  /** A parent's row key, which names it (type and canonical id) uniquely. */
  private static ByteBuffer parentKey(Op op) {
    return ByteBuffer.wrap(op.parent.row());
  }

  /**
   * Liveness of the parents of the batch's comments, read in one call per parent table. Before the
   * write ({@code pending} given), a parent stored earlier in this same batch or in the batch still
   * being acknowledged ({@code pending}) counts as live without a read (it is written before the
   * comment; the check after the write reads it like any other).
   */
  private Map<ByteBuffer, Boolean> parentsLive(List<Op> batch, Set<ByteBuffer> pending) {
    boolean beforeWrite = pending != null;
    Map<ByteBuffer, Boolean> out = new HashMap<>();
    if (beforeWrite) {
      pending.forEach(row -> out.put(row, true));
      for (Op op : batch) {
        if (op.result == null && op.target.parent() == null) {
          out.put(ByteBuffer.wrap(op.target.row()), true);
        }
      }
    }
    Map<TableName, List<Target>> toRead = new LinkedHashMap<>();
    for (Op op : batch) {
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
          store.liveAll(e.getKey(), e.getValue().stream().map(Target::row).toList());
      for (int i = 0; i < live.size(); i++) {
        out.put(ByteBuffer.wrap(e.getValue().get(i).row()), live.get(i));
      }
    }
    return out;
  }
}
