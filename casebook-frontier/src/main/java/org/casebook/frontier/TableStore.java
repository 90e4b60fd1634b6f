package org.casebook.frontier;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table of the frontier as its store uses it: calls, batches, check-and-mutates and range
 * deletes, with every IOException a {@link StorageException}. Each store owns one.
 */
final class TableStore {
  private static final Logger LOG = LoggerFactory.getLogger(TableStore.class);

  /** Rows per delete batch when a queue or a channel is purged. */
  private static final int DELETE_BATCH = 1000;

  /** One call on the table. */
  @FunctionalInterface
  interface Call<T> {
    T on(Table table) throws IOException;
  }

  private final Connection connection;
  private final TableName table;

  TableStore(Connection connection, TableName table) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.table = Objects.requireNonNull(table, "table is null");
  }

  <T> T call(String what, Call<T> call) {
    try (Table t = connection.getTable(table)) {
      return call.on(t);
    } catch (IOException e) {
      throw storage(what, e);
    }
  }

  /** Runs {@code ops} as one batch (nothing when empty); answers each one's result. */
  Object[] batch(List<? extends Row> ops, String what) {
    Object[] results = new Object[ops.size()];
    if (ops.isEmpty()) {
      return results;
    }
    try (Table t = connection.getTable(table)) {
      t.batch(ops, results);
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StorageException.interrupted(what, e);
    } catch (IOException e) {
      throw storage(what, e);
    }
  }

  boolean check(CheckAndMutate cam, String what) {
    return call(what, t -> t.checkAndMutate(cam).isSuccess());
  }

  /** Whether each of {@code cams} succeeded, in order. */
  List<Boolean> checkAll(List<CheckAndMutate> cams, String what) {
    if (cams.isEmpty()) {
      return List.of();
    }
    return call(
        what,
        t -> {
          List<CheckAndMutateResult> results = t.checkAndMutate(cams);
          List<Boolean> out = new ArrayList<>(results.size());
          for (CheckAndMutateResult r : results) {
            out.add(r.isSuccess());
          }
          return out;
        });
  }

  /**
   * Whether each of {@code cams} succeeded, in order, null for one whose call failed: it may have
   * been applied all the same (its answer lost), which the caller settles by reading the row. The
   * others' answers stand, so a failure of some does not leave the rest unanswered.
   */
  List<Boolean> checkEach(List<CheckAndMutate> cams, String what) {
    Object[] results = new Object[cams.size()];
    if (cams.isEmpty()) {
      return List.of();
    }
    try (Table t = connection.getTable(table)) {
      t.batch(cams, results);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StorageException.interrupted(what, e);
    } catch (RetriesExhaustedWithDetailsException e) {
      // Answers of the others are in results; the failed ones are what is uncertain.
    } catch (DoNotRetryIOException e) {
      throw storage(what, e);
    } catch (IOException e) {
      // The batch's time ran out with answers still out (a region moving, its server dead): those
      // are uncertain as above, and the answers received stand. Thrown, the writes made among them
      // would be counted by no one.
      LOG.debug("{}: answers still out: {}", what, e.toString());
    }
    List<Boolean> out = new ArrayList<>(results.length);
    for (Object r : results) {
      out.add(r instanceof CheckAndMutateResult c ? c.isSuccess() : null);
    }
    return out;
  }

  /** Deletes every row of {@code range}; {@code perRow} sees each first (may be null). */
  long deleteRange(KeyRange range, Consumer<Result> perRow) {
    Scan scan = range.toScan().setCaching(DELETE_BATCH);
    if (perRow == null) {
      scan.setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    }
    long n = 0;
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      List<Delete> batch = new ArrayList<>();
      for (Result r : s) {
        if (perRow != null) {
          perRow.accept(r);
        }
        batch.add(new Delete(r.getRow()));
        n++;
        if (batch.size() >= DELETE_BATCH) {
          t.delete(batch);
          batch = new ArrayList<>();
        }
      }
      if (!batch.isEmpty()) {
        t.delete(batch);
      }
      return n;
    } catch (IOException e) {
      throw storage("delete rows of " + table, e);
    }
  }

  /**
   * The failure as a {@link StorageException}, which keeps a real interrupt an interrupt; an RPC
   * whose time ran out (a {@code SocketTimeoutException}, an {@code InterruptedIOException} too)
   * must not leave the thread interrupted, or every later call on it fails at once.
   */
  static StorageException storage(String what, IOException e) {
    return StorageException.of(what, e);
  }

  /**
   * What a cleared column holds: an empty value, not no cell. A delete marker hides every write of
   * its cells in its millisecond, even one sent after it, so a column cleared and written again at
   * once (a setting, a purge batch, a priority, a crawl's name) would lose the write.
   */
  static final byte[] CLEARED = new byte[0];

  /** A column's value, null when it has none: absent or {@link #CLEARED}. */
  static byte[] held(byte[] v) {
    return v == null || v.length == 0 ? null : v;
  }

  /** A number column's value, {@code otherwise} when it has none (see {@link #held}). */
  static long longOr(byte[] v, long otherwise) {
    return held(v) == null ? otherwise : Bytes.toLong(v);
  }

  /** A number column's value, null when it has none (see {@link #held}). */
  static Long longOrNull(byte[] v) {
    return held(v) == null ? null : Bytes.toLong(v);
  }
}
