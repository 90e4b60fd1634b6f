package org.casebook.tsdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;

/**
 * Every read and write of hourly rollups: the rollup table's cells (one per series and hour, in a
 * row per series and day) and, on each metric's state row of the series table, the hour before
 * which every hour of the metric is rolled up. Thread-safe.
 *
 * <p>A cell's timestamp is the newest cell time of the data row it was computed from. Every change
 * to a data row (a point, a compaction, a delete) leaves a cell newer than any before it, so of two
 * rollups of one hour the one from the later state has the later timestamp, and HBase keeps it
 * whichever is written last: a compaction and a rollup pass reading the same row at different
 * moments never leave the older answer.
 */
final class RollupStore {
  private static final int BATCH = 1000;

  private final Connection connection;
  private final TsdbSchema schema;
  private final TsdbKeys.DataRows keys;

  RollupStore(Connection connection, TsdbSchema schema, int saltBuckets) {
    this.connection = connection;
    this.schema = schema;
    this.keys = TsdbKeys.rollups(saltBuckets);
  }

  TsdbKeys.DataRows keys() {
    return keys;
  }

  /** One hour of one series rolled up, from its data row as it was at {@code version}. */
  record Rolled(byte[] metric, byte[] tags, int hour, HourRollup rollup, long version) {}

  /** Writes rollups; durable when this returns. */
  void put(List<Rolled> rolled) {
    List<Put> puts = new ArrayList<>(Math.min(rolled.size(), BATCH));
    try (Table t = connection.getTable(schema.rollup())) {
      for (Rolled r : rolled) {
        int day = TsdbKeys.dayOf(r.hour());
        puts.add(
            new Put(keys.row(r.metric(), day, r.tags()))
                .addColumn(
                    TsdbSchema.H,
                    hourQualifier(r.hour() - day * 24),
                    r.version(),
                    r.rollup().encode()));
        if (puts.size() == BATCH) {
          t.put(puts);
          puts = new ArrayList<>(BATCH);
        }
      }
      if (!puts.isEmpty()) {
        t.put(puts);
      }
    } catch (IOException e) {
      throw StorageException.of("write rollups", e);
    }
  }

  private static byte[] hourQualifier(int hourOfDay) {
    return new byte[] {(byte) hourOfDay};
  }

  /**
   * The rollups of {@code metric}'s hours {@code [fromHour, toHour)}, by tag run in order of first
   * appearance, each series' hours ascending; with a row filter, only rows it keeps. Each row read
   * is reported to {@code budget} with its cells as points.
   */
  Map<ByteBuffer, List<RolledHour>> read(
      byte[] metric, int fromHour, int toHour, Optional<Filter> rowFilter, QueryBudget budget) {
    Map<ByteBuffer, List<RolledHour>> bySeries = new LinkedHashMap<>();
    if (fromHour >= toHour) {
      return bySeries;
    }
    int fromDay = TsdbKeys.dayOf(fromHour);
    int toDay = TsdbKeys.dayOf(toHour - 1);
    try (Table t = connection.getTable(schema.rollup())) {
      for (int b = 0; b < keys.buckets(); b++) {
        Scan scan =
            KeyRange.between(keys.start(b, metric, fromDay), keys.start(b, metric, toDay + 1))
                .toScan()
                .addFamily(TsdbSchema.H)
                .setCaching(512)
                .setReadType(Scan.ReadType.PREAD);
        rowFilter.ifPresent(scan::setFilter);
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            TsdbKeys.DataRow row = keys.decode(r.getRow());
            ByteBuffer series = ByteBuffer.wrap(row.tags());
            List<RolledHour> hours = bySeries.get(series);
            boolean seen = hours != null;
            if (!seen) {
              hours = new ArrayList<>();
              bySeries.put(series, hours);
            }
            int before = hours.size();
            for (Cell c : r.rawCells()) {
              int hour = row.hour() * 24 + (c.getQualifierArray()[c.getQualifierOffset()] & 0xFF);
              if (hour >= fromHour && hour < toHour) {
                hours.add(new RolledHour(hour, HourRollup.decode(CellUtil.cloneValue(c))));
              }
            }
            budget.row(series, seen, hours.size() - before);
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read rollups", e);
    }
    return bySeries;
  }

  /** One series' rollup of one hour. */
  record RolledHour(int hour, HourRollup rollup) {}

  /**
   * Deletes {@code metric}'s rollups of hours before {@code beforeHour}: whole rows of earlier
   * days, the earlier hours' cells of its day.
   */
  void purgeBefore(byte[] metric, int beforeHour) {
    int day = TsdbKeys.dayOf(beforeHour);
    int hoursOfDay = beforeHour - day * 24;
    try (Table t = connection.getTable(schema.rollup())) {
      for (int b = 0; b < keys.buckets(); b++) {
        Scan scan =
            KeyRange.between(keys.start(b, metric, 0), keys.start(b, metric, day + 1))
                .toScan()
                .addFamily(TsdbSchema.H)
                .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
                .setCaching(4096)
                .setCacheBlocks(false);
        List<Delete> batch = new ArrayList<>();
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            Delete d = new Delete(r.getRow());
            if (keys.decode(r.getRow()).hour() == day) {
              if (hoursOfDay == 0) {
                continue;
              }
              for (int h = 0; h < hoursOfDay; h++) {
                d.addColumns(TsdbSchema.H, hourQualifier(h));
              }
            }
            batch.add(d);
            if (batch.size() == BATCH) {
              t.delete(batch);
              batch = new ArrayList<>();
            }
          }
        }
        if (!batch.isEmpty()) {
          t.delete(batch);
        }
      }
    } catch (IOException e) {
      throw StorageException.of("purge expired rollups", e);
    }
  }

  /** The hour before which every hour of {@code metric} is rolled up, if a pass recorded one. */
  OptionalInt rolledBefore(byte[] metric) {
    try (Table t = connection.getTable(schema.series())) {
      byte[] v =
          t.get(new Get(TsdbKeys.indexStateRow(metric)).addColumn(TsdbSchema.S, TsdbSchema.ROLLED))
              .value();
      return v == null ? OptionalInt.empty() : OptionalInt.of(Bytes.toInt(v));
    } catch (IOException e) {
      throw StorageException.of("read the rollup state", e);
    }
  }

  /**
   * Records {@code hour} as the hour before which {@code metric} is rolled up, if the record still
   * says {@code expected} (empty: none): true if it did; false if another pass moved it.
   */
  boolean advanceRolled(byte[] metric, OptionalInt expected, int hour) {
    byte[] row = TsdbKeys.indexStateRow(metric);
    Put put = new Put(row).addColumn(TsdbSchema.S, TsdbSchema.ROLLED, Bytes.toBytes(hour));
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
    CheckAndMutate cam =
        expected.isEmpty()
            ? b.ifNotExists(TsdbSchema.S, TsdbSchema.ROLLED).build(put)
            : b.ifEquals(TsdbSchema.S, TsdbSchema.ROLLED, Bytes.toBytes(expected.getAsInt()))
                .build(put);
    try (Table t = connection.getTable(schema.series())) {
      return t.checkAndMutate(cam).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("record the rollup state", e);
    }
  }
}
