package org.casebook.tsdb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whole rows of the data table, read and rewritten: the scans every read of a metric's hours goes
 * through, a row's points as they are now, the compaction of a row and the rewrite of a delete
 * (both under a check of the row's compacted cell), and the rows a rollup pass reads. Thread-safe.
 */
final class DataRowStore {
  private static final Logger LOG = LoggerFactory.getLogger(DataRowStore.class);

  private final Connection connection;
  private final TsdbSchema schema;
  private final TsdbKeys.DataRows keys;

  DataRowStore(Connection connection, TsdbSchema schema, TsdbKeys.DataRows keys) {
    this.connection = connection;
    this.schema = schema;
    this.keys = keys;
  }

  TsdbKeys.DataRows keys() {
    return keys;
  }

  /** Every row of {@code metric} in the hour range, bucket by bucket, each in key order. */
  void scan(
      byte[] metric,
      int fromHour,
      int toHour,
      boolean keysOnly,
      Filter rowFilter,
      Consumer<Result> rows) {
    try (Table t = connection.getTable(schema.data())) {
      for (int b = 0; b < keys.buckets(); b++) {
        Scan scan =
            KeyRange.between(keys.start(b, metric, fromHour), keys.start(b, metric, toHour + 1))
                .toScan()
                .addFamily(TsdbSchema.T)
                .setCaching(keysOnly ? 4096 : 256)
                .setCacheBlocks(!keysOnly)
                // A query reads a few MB at most: positional reads throughout. By default the
                // region server switches a scan past 4 blocks to stream reads, opening a new
                // reader on every store file for each query (seen in a profile as file opens).
                .setReadType(keysOnly ? Scan.ReadType.DEFAULT : Scan.ReadType.PREAD);
        if (keysOnly) {
          scan.setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
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
   * A data row as read: its key, hour, points in time order, and its version, the newest cell time
   * in it (every change to a row leaves a newer cell, so a later state has a later version).
   */
  record RowPoints(byte[] row, int hour, List<DataPoint> points, long version) {
    static RowPoints of(Result read, int hour, List<DataPoint> points) {
      long version = 0;
      for (Cell c : read.rawCells()) {
        version = Math.max(version, c.getTimestamp());
      }
      return new RowPoints(read.getRow(), hour, points, version);
    }
  }

  /**
   * Replaces a row's raw point columns by one compacted cell, unless the row's compacted cell
   * changed between the read and the write (another compactor; then read and tried once more). Raw
   * columns written after the read have later cell times and survive the delete. The row as read
   * and compacted if it was rewritten; empty if it needed nothing, or raced twice, or holds a cell
   * that is not a point (logged and left as it is).
   */
  Optional<RowPoints> compactRow(byte[] row) {
    for (int attempt = 0; attempt < 2; attempt++) {
      Result read = get(row, "read a row to compact");
      if (read.isEmpty() || !needsCompaction(read.rawCells())) {
        return Optional.empty();
      }
      Optional<RowPoints> points = decode(read);
      if (points.isEmpty()) {
        return points;
      }
      int hour = points.get().hour();
      if (replaceWithCompacted(read, PointCodec.compact(hour, points.get().points()))) {
        return points;
      }
    }
    return Optional.empty();
  }

  /** A row's points as they are now; empty if the row is gone or holds a cell not a point. */
  Optional<RowPoints> readRow(byte[] row) {
    Result read = get(row, "read a row");
    return read.isEmpty() ? Optional.empty() : decode(read);
  }

  private Result get(byte[] row, String what) {
    try (Table t = connection.getTable(schema.data())) {
      return t.get(new Get(row).addFamily(TsdbSchema.T));
    } catch (IOException e) {
      throw StorageException.of(what, e);
    }
  }

  private Optional<RowPoints> decode(Result read) {
    int hour = keys.decode(read.getRow()).hour();
    try {
      return Optional.of(RowPoints.of(read, hour, PointCodec.rowPoints(hour, read.rawCells())));
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "row {} has a cell that is not a point; left as it is", keys.describe(read.getRow()), e);
      return Optional.empty();
    }
  }

  /**
   * Every row of {@code metric} in hours {@code [fromHour, toHour]}, decoded (rows holding a cell
   * that is not a point are logged and skipped).
   */
  void rows(byte[] metric, int fromHour, int toHour, Consumer<RowPoints> rows) {
    scan(metric, fromHour, toHour, false, null, r -> decode(r).ifPresent(rows));
  }

  /** The earliest hour of {@code metric} with a row, if any (one row read per salt bucket). */
  OptionalInt firstHour(byte[] metric) {
    OptionalInt first = OptionalInt.empty();
    try (Table t = connection.getTable(schema.data())) {
      for (int b = 0; b < keys.buckets(); b++) {
        Scan scan =
            KeyRange.between(keys.start(b, metric, 0), keys.start(b, metric, Integer.MAX_VALUE))
                .toScan()
                .addFamily(TsdbSchema.T)
                .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
                .setLimit(1)
                .setCaching(1);
        try (ResultScanner s = t.getScanner(scan)) {
          Result r = s.next();
          if (r != null) {
            int hour = keys.decode(r.getRow()).hour();
            first = OptionalInt.of(first.isEmpty() ? hour : Math.min(first.getAsInt(), hour));
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.of("find a metric's first hour", e);
    }
    return first;
  }

  /** The rewrite of one row, under a check of its compacted cell as read: true if it was done. */
  private boolean replaceWithCompacted(Result read, byte[] compacted) {
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

  /**
   * Deletes the points in {@code [fromMs, toMs]} of one row as read, rewriting it under the same
   * check as a compaction (read again and retried when it changed): the points deleted.
   */
  int deleteInRow(Result read, int hour, long fromMs, long toMs) {
    byte[] row = read.getRow();
    for (int attempt = 0; attempt < 8; attempt++) {
      if (attempt > 0) {
        read = get(row, "read a row to delete from");
        if (read.isEmpty()) {
          return 0;
        }
      }
      List<DataPoint> all = PointCodec.rowPoints(hour, read.rawCells());
      List<DataPoint> kept = new ArrayList<>(all.size());
      for (DataPoint p : all) {
        if (p.timestampMs() < fromMs || p.timestampMs() > toMs) {
          kept.add(p);
        }
      }
      if (kept.size() == all.size()) {
        return 0;
      }
      // An emptied row keeps an empty compacted cell (a few bytes): a compaction that read the row
      // before this delete checks that no compacted cell exists, and would otherwise write the
      // deleted points back. The row goes with its hour's retention.
      if (replaceWithCompacted(read, PointCodec.compact(hour, kept))) {
        return all.size() - kept.size();
      }
    }
    throw new org.casebook.core.ConflictException(
        "the row " + keys.describe(row) + " kept changing while its points were deleted; rerun");
  }

  /** Rows whose hour is before {@code beforeHour}, with more than the compacted cell. */
  void uncompactedRows(int beforeHour, Consumer<byte[]> rows) {
    try (Table t = connection.getTable(schema.data());
        ResultScanner s =
            t.getScanner(
                new Scan()
                    .addFamily(TsdbSchema.T)
                    .setFilter(new KeyOnlyFilter())
                    .setCaching(512))) {
      for (Result r : s) {
        if (keys.decode(r.getRow()).hour() < beforeHour && needsCompaction(r.rawCells())) {
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
}
