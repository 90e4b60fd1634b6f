package org.casebook.docs;

import static org.casebook.docs.DocsSchema.DEFINITION;
import static org.casebook.docs.DocsSchema.ENTRY;
import static org.casebook.docs.DocsSchema.FIELDS;
import static org.casebook.docs.DocsSchema.I;
import static org.casebook.docs.DocsSchema.STATE_OFFSET;
import static org.casebook.docs.DocsSchema.T;
import static org.casebook.docs.DocsSchema.VERSION;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * Every HBase read and write of the document store, in one place; keys through the layouts of
 * {@link DocsKeys}. Storage errors become {@link StorageException}s.
 */
final class DocsStore {
  static final byte[] BI = Family.BI.bytes();
  static final byte[] DI = Family.DI.bytes();
  static final byte LIVE = 1;
  static final byte DELETED = 0;

  private static final byte[] EMPTY = new byte[0];
  private static final long INDEX_BUFFER_BYTES = 4L << 20;
  private static final long DOCUMENT_BUFFER_BYTES = 8L << 20;

  /** Registry row and column of the counter that numbers writers (see {@link VersionClock}). */
  private static final byte[] WRITERS_ROW = DocsKeys.TYPE.encode("_writers");

  private static final byte[] WRITERS_COLUMN = DocsKeys.FIELD.encode("n");

  /**
   * The version cell of a row ({@code DI:_v}): version, state and base in one cell.
   *
   * @param version the version of the write that stored the row's current state
   * @param live whether the document exists (a deleted row keeps its version)
   * @param base the version of the last whole-document write: cells older than it are not shown
   */
  record Meta(long version, boolean live, long base) {
    static Optional<Meta> of(byte[] cell) {
      if (cell == null || cell.length != 17) {
        return Optional.empty();
      }
      return Optional.of(
          new Meta(
              Bytes.toLong(cell, 0),
              cell[STATE_OFFSET] == LIVE,
              Bytes.toLong(cell, STATE_OFFSET + 1)));
    }

    byte[] cell() {
      return cell(version, live ? LIVE : DELETED, base);
    }

    static byte[] cell(long version, byte state, long base) {
      byte[] out = new byte[17];
      Bytes.putLong(out, 0, version);
      out[STATE_OFFSET] = state;
      Bytes.putLong(out, STATE_OFFSET + 1, base);
      return out;
    }
  }

  /**
   * One document row as read: its version cell, the value of each field it shows (as the cell bytes
   * of one field: {@link DocCodec#encode}), and the newest timestamp in the row (a write over this
   * row takes a version after it).
   */
  record StoredRow(Meta meta, long maxTimestamp, Map<String, byte[]> values) {
    long version() {
      return meta.version();
    }

    boolean live() {
      return meta.live();
    }
  }

  /**
   * A filter passing rows that are live and (if {@code base} is given) still have that base: the
   * bytes of the version cell after the version, compared in place.
   */
  static SingleColumnValueFilter liveFilter(Long base) {
    byte[] component = base == null ? new byte[] {LIVE} : new byte[9];
    if (base != null) {
      component[0] = LIVE;
      Bytes.putLong(component, 1, base);
    }
    SingleColumnValueFilter f =
        new SingleColumnValueFilter(
            DI,
            VERSION,
            CompareOperator.EQUAL,
            new BinaryComponentComparator(component, STATE_OFFSET));
    f.setFilterIfMissing(true);
    return f;
  }

  private final Connection connection;
  private final DocsSchema schema;

  DocsStore(Connection connection, DocsSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  DocsSchema schema() {
    return schema;
  }

  /** The row, or empty if it was never written. */
  Optional<StoredRow> read(TableName table, byte[] row) {
    try (Table t = connection.getTable(table)) {
      return rowOf(t.get(new Get(row)));
    } catch (IOException e) {
      throw StorageException.of("read document", e);
    }
  }

  /** Several rows in one batched call, in the order asked. */
  List<Optional<StoredRow>> readAll(TableName table, List<byte[]> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(new Get(r));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<Optional<StoredRow>> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(rowOf(r));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read documents", e);
    }
  }

  /**
   * The document a row shows: the fields of the family cells ({@code BI:_d}, {@code DI:_d}) and the
   * counter cells at or after the base. A whole-document write stores its version as the base, so
   * every cell of a replaced state stops showing without a read or a delete.
   */
  static Optional<StoredRow> rowOf(Result r) {
    if (r == null || r.isEmpty()) {
      return Optional.empty();
    }
    Optional<Meta> meta = Meta.of(r.getValue(DI, VERSION));
    if (meta.isEmpty()) {
      return Optional.empty();
    }
    long base = meta.get().base();
    Map<String, byte[]> values = new HashMap<>();
    long maxTs = 0;
    for (Cell c : r.rawCells()) {
      maxTs = Math.max(maxTs, c.getTimestamp());
      if (c.getTimestamp() < base) {
        continue;
      }
      String name =
          DocsKeys.FIELD
              .decode(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
              .string("field");
      if (CellUtil.matchingQualifier(c, FIELDS)) {
        DocCodec.decodeFamily(c.getValueArray(), c.getValueOffset(), c.getValueLength(), values);
      } else if (!name.startsWith("_")) {
        values.put(name, CellUtil.cloneValue(c)); // a counter
      }
    }
    return Optional.of(new StoredRow(meta.get(), maxTs, values));
  }

  /** Whether each row is a live document, reading only its version cell (comment parents). */
  List<Boolean> liveAll(TableName table, List<byte[]> rows) {
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(new Get(r).addColumn(DI, VERSION));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<Boolean> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(Meta.of(r.getValue(DI, VERSION)).map(Meta::live).orElse(false));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read parents", e);
    }
  }

  /**
   * {@code mutations} applied only if the row's version cell is still {@code expected} (null: the
   * row was never written); false if another writer got there first. Versions are unique, so the
   * whole cell is the same exactly when the version is.
   */
  boolean commit(TableName table, Meta expected, RowMutations mutations) {
    try (Table t = connection.getTable(table)) {
      return t.checkAndMutate(conditional(expected, mutations)).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write document", e);
    }
  }

  /** Many conditional writes in one batched call; one success flag per write, in order. */
  List<Boolean> commitAll(TableName table, List<CheckAndMutate> writes) {
    if (writes.isEmpty()) {
      return List.of();
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

  static CheckAndMutate conditional(Meta expected, RowMutations mutations) {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(mutations.getRow());
    return expected == null
        ? b.ifNotExists(DI, VERSION).build(mutations)
        : b.ifEquals(DI, VERSION, expected.cell()).build(mutations);
  }

  /** What an increment saw before writing: the row's state and base and its newest timestamp. */
  record CounterRow(boolean live, long base, long maxTimestamp) {}

  /** The DI columns an increment depends on. */
  Optional<CounterRow> readCounter(TableName table, byte[] row, byte[] family, byte[] qualifier) {
    Get get = new Get(row).addColumn(DI, VERSION).addColumn(family, qualifier);
    try (Table t = connection.getTable(table)) {
      Result r = t.get(get);
      Optional<Meta> meta = Meta.of(r.getValue(DI, VERSION));
      if (meta.isEmpty()) {
        return Optional.empty();
      }
      long maxTs = 0;
      for (Cell c : r.rawCells()) {
        maxTs = Math.max(maxTs, c.getTimestamp());
      }
      return Optional.of(new CounterRow(meta.get().live(), meta.get().base(), maxTs));
    } catch (IOException e) {
      throw StorageException.of("read counter", e);
    }
  }

  /**
   * Adds {@code by} to a long field if the document is live and its base is still {@code base} (no
   * whole-document write replaced it since it was read); empty otherwise. HBase adds to the newest
   * counter cell at or after the base (an older one belongs to a replaced state) and stamps the sum
   * one after it; with no such cell the sum is {@code by}, stamped {@code stamp} — a version after
   * everything the caller read, so the cell is shown.
   */
  Optional<Long> increment(
      TableName table, byte[] row, byte[] family, String field, long by, long base, long stamp) {
    byte[] qualifier = DocsKeys.FIELD.encode(field);
    try (Table t = connection.getTable(table)) {
      Increment inc =
          new Increment(row)
              .add(new KeyValue(row, family, qualifier, stamp, Bytes.toBytes(by)))
              .setTimeRange(base, Long.MAX_VALUE);
      CheckAndMutateResult r =
          t.checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(liveFilter(base)).build(inc));
      return r.isSuccess()
          ? Optional.of(Bytes.toLong(r.getResult().getValue(family, qualifier)))
          : Optional.empty();
    } catch (IOException e) {
      throw StorageException.of("increment " + field, e);
    }
  }

  /**
   * This writer's number for {@link VersionClock}: the registry's writer counter, incremented. A
   * counter rather than a random number so that writers opened together never share one.
   */
  long writerNumber() {
    try (Table t = connection.getTable(schema.registry())) {
      return t.incrementColumnValue(WRITERS_ROW, T, WRITERS_COLUMN, 1);
    } catch (IOException e) {
      throw StorageException.of("number this writer", e);
    }
  }

  /** A buffered writer for document rows of one table (bulk loads); flush before acknowledging. */
  BufferedMutator documentMutator(TableName table) {
    try {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(table).writeBufferSize(DOCUMENT_BUFFER_BYTES));
    } catch (IOException e) {
      throw StorageException.of("open document writer", e);
    }
  }

  /** Up to {@code limit} rows of a scan (document rows: comments). */
  List<Result> scan(TableName table, Scan scan) {
    List<Result> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(r);
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan documents", e);
    }
  }

  // The source-day index. An entry's cell timestamp is the version of the document state it was
  // written for; a delete names the newest version it may remove, so it can never hide an entry
  // that a later state of the document wrote.

  static Put indexPut(byte[] key, long version) {
    return new Put(key).addColumn(I, ENTRY, version, EMPTY);
  }

  static Delete indexDelete(byte[] key, long upToVersion) {
    return new Delete(key).addColumns(I, ENTRY, upToVersion);
  }

  /** Removes exactly the entry a write of {@code version} made (one that then failed). */
  static Delete indexDeleteExactly(byte[] key, long version) {
    return new Delete(key).addColumn(I, ENTRY, version);
  }

  void putIndex(byte[] key, long version) {
    try (Table t = connection.getTable(schema.bySource())) {
      t.put(indexPut(key, version));
    } catch (IOException e) {
      throw StorageException.of("write index entry", e);
    }
  }

  void deleteIndex(byte[] key, long upToVersion) {
    try (Table t = connection.getTable(schema.bySource())) {
      t.delete(indexDelete(key, upToVersion));
    } catch (IOException e) {
      throw StorageException.of("delete index entry", e);
    }
  }

  /** Index entry row keys of a scan, at most {@code limit}. */
  List<byte[]> indexKeys(Scan scan) {
    List<byte[]> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.bySource());
        ResultScanner s = t.getScanner(scan.addColumn(I, ENTRY))) {
      for (Result r : s) {
        out.add(r.getRow());
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan index", e);
    }
  }

  /** A buffered writer for index entries (bulk loads); flush before acknowledging. */
  BufferedMutator indexMutator() {
    try {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(schema.bySource()).writeBufferSize(INDEX_BUFFER_BYTES));
    } catch (IOException e) {
      throw StorageException.of("open index writer", e);
    }
  }

  // The type registry: one row per type, the definition as JSON.

  Map<String, byte[]> readTypes() {
    Map<String, byte[]> out = new HashMap<>();
    try (Table t = connection.getTable(schema.registry());
        ResultScanner s = t.getScanner(new Scan().addColumn(T, DEFINITION))) {
      for (Result r : s) {
        out.put(DocsKeys.TYPE.decode(r.getRow()).string("type"), r.getValue(T, DEFINITION));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read types", e);
    }
  }

  Optional<byte[]> readType(String name) {
    try (Table t = connection.getTable(schema.registry())) {
      return Optional.ofNullable(
          t.get(new Get(DocsKeys.TYPE.encode(name)).addColumn(T, DEFINITION))
              .getValue(T, DEFINITION));
    } catch (IOException e) {
      throw StorageException.of("read type", e);
    }
  }

  /** Writes a definition if the stored one is still {@code expected} (null: none yet). */
  boolean writeType(String name, byte[] expected, byte[] definition) {
    byte[] row = DocsKeys.TYPE.encode(name);
    Put put = new Put(row).addColumn(T, DEFINITION, definition);
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
    try (Table t = connection.getTable(schema.registry())) {
      return t.checkAndMutate(
              expected == null
                  ? b.ifNotExists(T, DEFINITION).build(put)
                  : b.ifEquals(T, DEFINITION, expected).build(put))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write type", e);
    }
  }
}
