package org.casebook.docs;

import static org.casebook.docs.DocsSchema.DI;
import static org.casebook.docs.DocsSchema.VERSION;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.Futures;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;

/**
 * The HBase writes of one bulk request ({@link BulkWrites} decides them): index entries through a
 * {@link BufferedMutator}, document rows through one per table (blind Puts) or batched
 * check-and-mutates (creates). Buffered writes are durable only once flushed.
 */
final class BulkStore implements AutoCloseable {
  private static final long INDEX_BUFFER_BYTES = 4L << 20;
  private static final long DOCUMENT_BUFFER_BYTES = 8L << 20;

  private final Connection connection;
  private final BufferedMutator index;

  /** Opened by the writer thread while the acknowledging thread flushes those opened before. */
  private final Map<TableName, BufferedMutator> documents = new ConcurrentHashMap<>();

  private final ExecutorService flushers =
      Executors.newCachedThreadPool(Threads.daemon("docs-bulk-flush"));

  BulkStore(Connection connection, DocsSchema schema) {
    this.connection = connection;
    try {
      this.index =
          connection.getBufferedMutator(
              new BufferedMutatorParams(schema.bySource()).writeBufferSize(INDEX_BUFFER_BYTES));
    } catch (IOException e) {
      throw StorageException.of("open index writer", e);
    }
  }

  /** Buffers the source-day index entry of a state about to be written at {@code version}. */
  void putEntry(byte[] key, long version) {
    try {
      index.mutate(IndexStore.entry(key, version));
    } catch (IOException e) {
      throw StorageException.of("write index entries", e);
    }
  }

  /** Buffers the removal of exactly the entry this request wrote at {@code version}. */
  void removeEntry(byte[] key, long version) {
    try {
      index.mutate(IndexStore.exactly(key, version));
    } catch (IOException e) {
      throw StorageException.of("write index entries", e);
    }
  }

  void flushEntries() {
    try {
      index.flush();
    } catch (IOException e) {
      throw StorageException.of("write index entries", e);
    }
  }

  /** Buffers the blind Put of a whole document ({@link DocCodec#wholeDocument}). */
  void index(Target t, DocumentCells cells, long version) {
    BufferedMutator m = documents.computeIfAbsent(t.table(), this::documentMutator);
    try {
      m.mutate(DocCodec.wholeDocument(t.row(), cells, version));
    } catch (IOException e) {
      throw StorageException.of("write documents", e);
    }
  }

  private BufferedMutator documentMutator(TableName table) {
    try {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(table).writeBufferSize(DOCUMENT_BUFFER_BYTES));
    } catch (IOException e) {
      throw StorageException.of("open document writer", e);
    }
  }

  /**
   * Whole documents of one table written only where the row was never written, in one batched call:
   * whether each was, in order.
   */
  List<Boolean> create(TableName table, List<Target> targets, List<DocumentCells> cells, long v) {
    if (targets.isEmpty()) {
      return List.of();
    }
    List<CheckAndMutate> writes = new ArrayList<>(targets.size());
    for (int i = 0; i < targets.size(); i++) {
      byte[] row = targets.get(i).row();
      writes.add(
          CheckAndMutate.newBuilder(row)
              .ifNotExists(DI, VERSION)
              .build(DocCodec.wholeDocument(row, cells.get(i), v)));
    }
    try (Table t = connection.getTable(table)) {
      List<CheckAndMutateResult> results = t.checkAndMutate(writes);
      List<Boolean> out = new ArrayList<>(results.size());
      for (CheckAndMutateResult r : results) {
        out.add(r.isSuccess());
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("write documents", e);
    }
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
  public void close() {
    Threads.shutdown(flushers, Duration.ofMinutes(1));
    IOException first = null;
    for (BufferedMutator m : documents.values()) {
      try {
        m.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    try {
      index.close();
    } catch (IOException e) {
      first = first == null ? e : first;
    }
    if (first != null) {
      throw StorageException.of("write documents", first);
    }
  }
}
