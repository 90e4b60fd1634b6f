package org.casebook.trails;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;

/**
 * Every write of the Put ingest: buffered writers on the events and history tables, fed with the
 * rows {@link TrailsRowCodec#rowsOf} makes of each event (the bulk load writes the same rows as
 * HFiles).
 */
final class IngestStore {
  private final Connection connection;
  private final TrailsSchema schema;
  private final TrailsRowCodec rows;

  IngestStore(SystemContext context, TrailsSchema schema) {
    this.connection = context.connection();
    this.schema = schema;
    this.rows = TrailsRowCodec.of(schema);
  }

  Writers writers(HistoryTables history) {
    try {
      return new Writers(history);
    } catch (IOException e) {
      throw StorageException.of("open the trails writers", e);
    }
  }

  /**
   * Buffered writers for one ingest run; failures are collected, then raised by {@link
   * Writers#close()}.
   */
  final class Writers implements AutoCloseable {
    private final BufferedMutator events;
    private final BufferedMutator tall;
    private final BufferedMutator wide;
    private final List<RetriesExhaustedWithDetailsException> failures =
        new CopyOnWriteArrayList<>();

    private final HistoryTables history;

    private Writers(HistoryTables history) throws IOException {
      this.history = history;
      events = open(schema.events());
      tall = history.tall() ? open(schema.tall()) : null;
      wide = history.wide() ? open(schema.wide()) : null;
    }

    private BufferedMutator open(TableName table) throws IOException {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(table)
              .writeBufferSize(8L << 20)
              .listener((e, m) -> failures.add(e)));
    }

    /** Writes one event to every table; returns the cells written. */
    int write(Event e) {
      int[] cells = {0};
      try {
        rows.rowsOf(
            e,
            history,
            (table, put) -> {
              BufferedMutator m =
                  table.equals(schema.events())
                      ? events
                      : table.equals(schema.tall()) ? tall : wide;
              m.mutate(put);
              cells[0] += put.size();
            });
      } catch (IOException ex) {
        throw StorageException.of("write events", ex);
      }
      return cells[0];
    }

    /** Flushes and closes every writer; the first failure (a rejected mutation first) is raised. */
    @Override
    public void close() {
      IOException first = null;
      for (BufferedMutator m : new BufferedMutator[] {events, tall, wide}) {
        if (m != null) {
          try {
            m.close();
          } catch (IOException e) {
            first = first == null ? e : first;
          }
        }
      }
      if (!failures.isEmpty()) {
        throw StorageException.of("write events", failures.get(0));
      }
      if (first != null) {
        throw StorageException.of("flush events", first);
      }
    }
  }
}
