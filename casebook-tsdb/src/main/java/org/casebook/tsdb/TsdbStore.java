package org.casebook.tsdb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every HBase read and write of the time-series store. Thread-safe. */
final class TsdbStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TsdbStore.class);

  private final Connection connection;
  private final TsdbSchema schema;
  private final int saltBuckets;
  private final BufferedMutator data;
  private final AtomicLong asyncFailures = new AtomicLong();

  TsdbStore(Connection connection, TsdbSchema schema, int saltBuckets) {
    this.connection = connection;
    this.schema = schema;
    this.saltBuckets = saltBuckets;
    try {
      this.data =
          connection.getBufferedMutator(
              new BufferedMutatorParams(schema.data())
                  // Telnet points are acknowledged when queued, as OpenTSDB's are: a short
                  // periodic flush bounds what a crash can lose (with the point writer's
                  // gathering period, 200 ms); HTTP puts with ?sync flush before answering.
                  .setWriteBufferPeriodicFlushTimeoutMs(200 - PointWriter.GATHER_PERIOD_MS)
                  // The timer looks once a second by default, which would stretch the bound
                  // to over a second.
                  .setWriteBufferPeriodicFlushTimerTickMs(25)
                  .writeBufferSize(4L << 20)
                  .listener(
                      (e, mutator) -> {
                        asyncFailures.addAndGet(e.getNumExceptions());
                        LOG.warn("{} buffered point write(s) failed", e.getNumExceptions(), e);
                      }));
    } catch (IOException e) {
      throw StorageException.of("open the data table", e);
    }
  }

  int saltBuckets() {
    return saltBuckets;
  }

  long asyncFailures() {
    return asyncFailures.get();
  }

  // ---- uid table ----

  /**
   * The salt bucket count recorded when the tables were first used, recording {@code wanted} if
   * none is.
   */
  int recordedSaltBuckets(int wanted) {
    byte[] row = TsdbKeys.UID_COUNTER.encode(TsdbKeys.COUNTER_SPACE, 0xFF);
    try (Table t = connection.getTable(schema.uid())) {
      t.checkAndMutate(
          CheckAndMutate.newBuilder(row)
              .ifNotExists(TsdbSchema.U, TsdbSchema.SALT)
              .build(new Put(row).addColumn(TsdbSchema.U, TsdbSchema.SALT, Bytes.toBytes(wanted))));
      byte[] v = t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.SALT)).value();
      return Bytes.toInt(v);
    } catch (IOException e) {
      throw StorageException.of("read the salt setting", e);
    }
  }

  Optional<byte[]> uid(UidKind kind, String name) {
    byte[] row = TsdbKeys.UID_FORWARD.encode(TsdbKeys.FORWARD_SPACE, (int) kind.code(), name);
    try (Table t = connection.getTable(schema.uid())) {
      return Optional.ofNullable(
          t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.ID)).value());
    } catch (IOException e) {
      throw StorageException.of("read the id of a name", e);
    }
  }

  Optional<String> name(UidKind kind, byte[] id) {
    byte[] row = TsdbKeys.UID_REVERSE.encode(TsdbKeys.REVERSE_SPACE, (int) kind.code(), id);
    try (Table t = connection.getTable(schema.uid())) {
      byte[] v = t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.NAME)).value();
      return Optional.ofNullable(v).map(Bytes::toString);
    } catch (IOException e) {
      throw StorageException.of("read the name of an id", e);
    }
  }

  /** A new id of {@code kind}: the kind's counter, incremented (never handed out twice). */
  long nextUid(UidKind kind) {
    byte[] row = TsdbKeys.UID_COUNTER.encode(TsdbKeys.COUNTER_SPACE, (int) kind.code());
    try (Table t = connection.getTable(schema.uid())) {
      return t.incrementColumnValue(row, TsdbSchema.U, TsdbSchema.NEXT, 1);
    } catch (IOException e) {
      throw StorageException.of("allocate an id", e);
    }
  }

  /** The highest id of {@code kind} handed out so far. */
  long maxUid(UidKind kind) {
    byte[] row = TsdbKeys.UID_COUNTER.encode(TsdbKeys.COUNTER_SPACE, (int) kind.code());
    try (Table t = connection.getTable(schema.uid())) {
      byte[] v = t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.NEXT)).value();
      return v == null ? 0 : Bytes.toLong(v);
    } catch (IOException e) {
      throw StorageException.of("read an id counter", e);
    }
  }

  void putReverse(UidKind kind, byte[] id, String name) {
    byte[] row = TsdbKeys.UID_REVERSE.encode(TsdbKeys.REVERSE_SPACE, (int) kind.code(), id);
    try (Table t = connection.getTable(schema.uid())) {
      t.put(new Put(row).addColumn(TsdbSchema.U, TsdbSchema.NAME, Bytes.toBytes(name)));
    } catch (IOException e) {
      throw StorageException.of("write the name of an id", e);
    }
  }

  /** Maps {@code name} to {@code id} unless it already maps to something: true if this call did. */
  boolean putForwardIfAbsent(UidKind kind, String name, byte[] id) {
    byte[] row = TsdbKeys.UID_FORWARD.encode(TsdbKeys.FORWARD_SPACE, (int) kind.code(), name);
    try (Table t = connection.getTable(schema.uid())) {
      return t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifNotExists(TsdbSchema.U, TsdbSchema.ID)
                  .build(new Put(row).addColumn(TsdbSchema.U, TsdbSchema.ID, id)))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write the id of a name", e);
    }
  }

  /** Removes the forward mapping of {@code name} if it still maps to {@code id}. */
  boolean deleteForward(UidKind kind, String name, byte[] id) {
    byte[] row = TsdbKeys.UID_FORWARD.encode(TsdbKeys.FORWARD_SPACE, (int) kind.code(), name);
    try (Table t = connection.getTable(schema.uid())) {
      return t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifEquals(TsdbSchema.U, TsdbSchema.ID, id)
                  .build(new Delete(row).addColumns(TsdbSchema.U, TsdbSchema.ID)))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("remove the id of a name", e);
    }
  }

  /** Names of {@code kind} starting with {@code prefix}, in byte order, at most {@code max}. */
  List<UidName> names(UidKind kind, String prefix, int max) {
    byte[] kindPrefix = TsdbKeys.UID_FORWARD.prefix(TsdbKeys.FORWARD_SPACE, (int) kind.code());
    byte[] escaped = KeyBuilder.create().addString(prefix).build();
    // The escaped form of a prefix is a prefix of the escaped name: drop the 2-byte terminator.
    byte[] start = Bytes.add(kindPrefix, Arrays.copyOf(escaped, escaped.length - 2));
    KeyRange range = KeyRange.prefix(start);
    List<UidName> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.uid());
        ResultScanner s =
            t.getScanner(
                range
                    .toScan()
                    .addColumn(TsdbSchema.U, TsdbSchema.ID)
                    .setCaching(Math.min(max, 1000))
                    .setLimit(max))) {
      for (Result r : s) {
        KeyLayout.Key k = TsdbKeys.UID_FORWARD.decode(r.getRow());
        out.add(new UidName(kind, k.string("name"), r.value()));
        if (out.size() >= max) {
          break;
        }
      }
    } catch (IOException e) {
      throw StorageException.of("list names", e);
    }
    return out;
  }

  /** A name with its id. */
  record UidName(UidKind kind, String name, byte[] id) {}

  // ---- data table ----

  byte[] rowKey(byte[] metric, int hour, byte[] tags) {
    if (saltBuckets > 1) {
      return TsdbKeys.SALTED_DATA.encode(saltOf(metric, tags), metric, hour, tags);
    }
    return TsdbKeys.DATA.encode(metric, hour, tags);
  }

  private int saltOf(byte[] metric, byte[] tags) {
    return Hashing.bucket(Bytes.add(metric, tags), saltBuckets);
  }

  /** The parts of a data row key. */
  record DataRow(byte[] metric, int hour, byte[] tags) {}

  DataRow decodeRow(byte[] row) {
    KeyLayout.Key k = (saltBuckets > 1 ? TsdbKeys.SALTED_DATA : TsdbKeys.DATA).decode(row);
    return new DataRow((byte[]) k.get("metric"), k.integer("hour"), (byte[]) k.get("tags"));
  }

  String describe(byte[] row) {
    return (saltBuckets > 1 ? TsdbKeys.SALTED_DATA : TsdbKeys.DATA).describe(row);
  }

  /** Queues puts of points (flushed within 150 ms, or by {@link #flush}). */
  void write(List<Put> puts) {
    try {
      data.mutate(puts);
    } catch (IOException e) {
      throw StorageException.of("write points", e);
    }
  }

  /** Returns once every queued point is durable in HBase. */
  void flush() {
    try {
      data.flush();
    } catch (RetriesExhaustedWithDetailsException e) {
      throw StorageException.of("write points", e);
    } catch (IOException e) {
      throw StorageException.of("write points", e);
    }
  }

  /**
   * Every row of {@code metric} whose hour is in {@code [fromHour, toHour]}, in each salt bucket,
   * handed to {@code rows} (bucket by bucket; each bucket in key order).
   */
  void scanRows(byte[] metric, int fromHour, int toHour, Consumer<Result> rows) {
    scanRows(metric, fromHour, toHour, false, null, rows);
  }

  /** Bytes before the tags in a data row: salt, metric id, hour. */
  int keyPrefixBytes() {
    return (saltBuckets > 1 ? 1 : 0) + TsdbKeys.UID_WIDTH + 4;
  }

  /** As {@link #scanRows(byte[], int, int, Consumer)}; {@code keysOnly} reads row keys only. */
  void scanRows(
      byte[] metric,
      int fromHour,
      int toHour,
      boolean keysOnly,
      org.apache.hadoop.hbase.filter.Filter rowFilter,
      Consumer<Result> rows) {
    int buckets = Math.max(1, saltBuckets);
    try (Table t = connection.getTable(schema.data())) {
      for (int b = 0; b < buckets; b++) {
        byte[] start;
        byte[] stop;
        if (saltBuckets > 1) {
          start = TsdbKeys.SALTED_DATA.prefix(b, metric, fromHour);
          stop = TsdbKeys.SALTED_DATA.prefix(b, metric, toHour + 1);
        } else {
          start = TsdbKeys.DATA.prefix(metric, fromHour);
          stop = TsdbKeys.DATA.prefix(metric, toHour + 1);
        }
        Scan scan =
            KeyRange.between(start, stop)
                .toScan()
                .addFamily(TsdbSchema.T)
                .setCaching(keysOnly ? 4096 : 256)
                .setCacheBlocks(!keysOnly)
                // A query reads a few MB at most: positional reads throughout. By default the
                // region server switches a scan past 4 blocks to stream reads, opening a new
                // reader on every store file for each query (seen in a profile as file opens).
                .setReadType(keysOnly ? Scan.ReadType.DEFAULT : Scan.ReadType.PREAD);
        if (keysOnly) {
          scan.setFilter(
              new org.apache.hadoop.hbase.filter.FilterList(
                  new org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter(),
                  new org.apache.hadoop.hbase.filter.KeyOnlyFilter()));
        } else if (rowFilter != null) {
          scan.setFilter(rowFilter);
        }
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            rows.accept(r);
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read points", e);
    }
  }

  /**
   * Rows of {@code metric} from hour {@code toHour} back to {@code fromHour}, newest hour first,
   * until {@code rows} returns false.
   */
  void scanRowsBackwards(
      byte[] metric, int fromHour, int toHour, java.util.function.Predicate<Result> rows) {
    int buckets = Math.max(1, saltBuckets);
    try (Table t = connection.getTable(schema.data())) {
      for (int b = 0; b < buckets; b++) {
        byte[] newest;
        byte[] oldest;
        if (saltBuckets > 1) {
          newest = TsdbKeys.SALTED_DATA.prefix(b, metric, toHour + 1);
          oldest = TsdbKeys.SALTED_DATA.prefix(b, metric, fromHour);
        } else {
          newest = TsdbKeys.DATA.prefix(metric, toHour + 1);
          oldest = TsdbKeys.DATA.prefix(metric, fromHour);
        }
        // A reversed scan starts at its start row (inclusive) and walks down to its stop row.
        Scan scan =
            new Scan()
                .withStartRow(newest, false)
                .withStopRow(oldest, true)
                .setReversed(true)
                .addFamily(TsdbSchema.T)
                .setCaching(64);
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            if (!rows.test(r)) {
              break;
            }
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read the last points", e);
    }
  }

  /** The family map of one data row (qualifier → value), or null if the row is gone. */
  Result readRow(byte[] row) {
    try (Table t = connection.getTable(schema.data())) {
      return t.get(new Get(row).addFamily(TsdbSchema.T));
    } catch (IOException e) {
      throw StorageException.of("read a row to compact", e);
    }
  }

  /**
   * Replaces the raw point columns read in {@code read} by one compacted cell, unless the row's
   * compacted cell changed since (another compactor): raw columns written after the read have later
   * cell times and survive the delete. True if the row was rewritten.
   */
  boolean replaceWithCompacted(Result read, byte[] compacted) {
    byte[] row = read.getRow();
    byte[] oldCompacted = read.getValue(TsdbSchema.T, PointCodec.COMPACTED);
    RowMutations m = new RowMutations(row);
    try {
      m.add(new Put(row).addColumn(TsdbSchema.T, PointCodec.COMPACTED, compacted));
      Delete d = new Delete(row);
      int raw = 0;
      for (Cell c : read.rawCells()) {
        byte[] q = CellUtil.cloneQualifier(c);
        if (PointCodec.isPointColumn(q)) {
          d.addColumns(TsdbSchema.T, q, c.getTimestamp());
          raw++;
        }
      }
      if (raw > 0) {
        m.add(d);
      }
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
      CheckAndMutate cam =
          oldCompacted == null
              ? b.ifNotExists(TsdbSchema.T, PointCodec.COMPACTED).build(m)
              : b.ifEquals(TsdbSchema.T, PointCodec.COMPACTED, oldCompacted).build(m);
      try (Table t = connection.getTable(schema.data())) {
        return t.checkAndMutate(cam).isSuccess();
      }
    } catch (IOException e) {
      throw StorageException.of("compact a row", e);
    }
  }

  /** Rows whose hour is before {@code beforeHour}, with more than the compacted cell. */
  void scanUncompacted(int beforeHour, Consumer<byte[]> rows) {
    try (Table t = connection.getTable(schema.data());
        ResultScanner s =
            t.getScanner(
                new Scan()
                    .addFamily(TsdbSchema.T)
                    .setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter())
                    .setCaching(512))) {
      for (Result r : s) {
        DataRow d = decodeRow(r.getRow());
        if (d.hour() < beforeHour && needsCompaction(r.rawCells())) {
          rows.accept(r.getRow());
        }
      }
    } catch (IOException e) {
      throw StorageException.of("find rows to compact", e);
    }
  }

  /** Whether a row's cells are more than its one compacted cell (raw points to merge). */
  static boolean needsCompaction(Cell[] cells) {
    return cells.length > 0 && !(cells.length == 1 && PointCodec.isCompacted(cells[0]));
  }

  @Override
  public void close() {
    try {
      data.close();
    } catch (IOException e) {
      throw StorageException.of("flush points at shutdown", e);
    }
  }
}
