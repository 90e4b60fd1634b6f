package org.casebook.banknote;

import static org.casebook.banknote.BanknoteSchema.L;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * The branches table: a row a branch with its latitude, longitude and name. A branch is written
 * whole (every column), so declaring it again replaces it and a retried write changes nothing.
 */
final class BranchStore {
  private static final byte[] LAT = BanknoteKeys.COLUMN.encode("lat");
  private static final byte[] LON = BanknoteKeys.COLUMN.encode("lon");
  private static final byte[] NAME = BanknoteKeys.COLUMN.encode("name");

  /** Gets sent to the region servers in one call. */
  private static final int GETS_PER_CALL = 1000;

  /** A branches row: its key (for cursors) and the location. */
  // The key is handed to the cursor encoder, never compared or hashed.
  @SuppressWarnings("ArrayRecordComponent")
  record BranchRow(byte[] key, BranchLocation location) {}

  private final Connection connection;
  private final BanknoteSchema schema;

  BranchStore(Connection connection, BanknoteSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.schema = Objects.requireNonNull(schema, "schema is null");
  }

  private static Put row(BranchLocation b) {
    // An absent name is written empty, so a branch declared again without one loses its old name.
    return new Put(BanknoteKeys.BRANCH.encode(b.branch()))
        .addColumn(L, LAT, Bytes.toBytes(b.lat()))
        .addColumn(L, LON, Bytes.toBytes(b.lon()))
        .addColumn(
            L, NAME, b.name() == null ? new byte[0] : b.name().getBytes(StandardCharsets.UTF_8));
  }

  void put(BranchLocation b) {
    try (Table t = connection.getTable(schema.branches())) {
      t.put(row(b));
    } catch (IOException e) {
      throw StorageException.of("store branch " + b.branch(), e);
    }
  }

  /** Removes {@code branch}; whether it was there. */
  boolean delete(String branch) {
    byte[] row = BanknoteKeys.BRANCH.encode(branch);
    try (Table t = connection.getTable(schema.branches())) {
      if (!t.exists(new Get(row))) {
        return false;
      }
      t.delete(new Delete(row));
      return true;
    } catch (IOException e) {
      throw StorageException.of("delete branch " + branch, e);
    }
  }

  /**
   * The locations of those of {@code branches} that have one, by branch: multi-Gets of at most
   * {@link #GETS_PER_CALL} rows.
   */
  Map<String, BranchLocation> locations(Collection<String> branches) {
    Map<String, BranchLocation> out = new HashMap<>();
    List<Get> gets = new ArrayList<>(Math.min(branches.size(), GETS_PER_CALL));
    try (Table t = connection.getTable(schema.branches())) {
      for (String b : branches) {
        gets.add(new Get(BanknoteKeys.BRANCH.encode(b)).addFamily(L));
        if (gets.size() == GETS_PER_CALL) {
          collect(t.get(gets), out);
          gets.clear();
        }
      }
      if (!gets.isEmpty()) {
        collect(t.get(gets), out);
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read branch locations", e);
    }
  }

  private static void collect(Result[] results, Map<String, BranchLocation> out) {
    for (Result r : results) {
      if (!r.isEmpty()) {
        BranchLocation b = location(r);
        out.put(b.branch(), b);
      }
    }
  }

  /** Branches rows in key order (the listing). */
  List<BranchRow> scan(RowWindow window) {
    Scan scan =
        new Scan()
            .withStartRow(window.start(), window.startInclusive())
            .withStopRow(window.stop(), false)
            .setLimit(window.limit())
            .setCaching(Math.min(window.limit(), 1000))
            .addFamily(L);
    List<BranchRow> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.branches());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(new BranchRow(r.getRow(), location(r)));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("list branches", e);
    }
  }

  private static BranchLocation location(Result r) {
    byte[] name = r.getValue(L, NAME);
    return new BranchLocation(
        BanknoteKeys.BRANCH.decode(r.getRow()).string("branch"),
        Bytes.toDouble(r.getValue(L, LAT)),
        Bytes.toDouble(r.getValue(L, LON)),
        name == null || name.length == 0 ? null : new String(name, StandardCharsets.UTF_8));
  }

  /** Buffered writes of many branches (a bulk load); durable once {@link Writer#close} returns. */
  Writer writer() {
    return new Writer();
  }

  /**
   * A BufferedMutator on the branches table; a failed write is raised by the next call or close.
   */
  final class Writer implements AutoCloseable {
    private final BufferedMutator mutator;
    private final AtomicReference<RetriesExhaustedWithDetailsException> failure =
        new AtomicReference<>();

    private Writer() {
      try {
        mutator =
            connection.getBufferedMutator(
                new BufferedMutatorParams(schema.branches())
                    .listener((e, m) -> failure.compareAndSet(null, e)));
      } catch (IOException e) {
        throw StorageException.of("open the branches writer", e);
      }
    }

    void write(BranchLocation b) {
      try {
        mutator.mutate(row(b));
      } catch (IOException e) {
        throw StorageException.of("buffer branch " + b.branch(), e);
      }
      raise();
    }

    private void raise() {
      RetriesExhaustedWithDetailsException e = failure.get();
      if (e != null) {
        throw StorageException.of("store branches", e);
      }
    }

    @Override
    public void close() {
      try {
        mutator.close();
      } catch (IOException e) {
        throw StorageException.of("store branches", e);
      }
      raise();
    }
  }
}
