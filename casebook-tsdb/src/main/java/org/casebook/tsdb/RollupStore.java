package org.casebook.tsdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
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
import org.casebook.core.ConflictException;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;

/**
 * Every read and write of hourly rollups: the rollup table's day cells (one per series and day,
 * holding the rollup of each of its hours) and, on each metric's state row of the series table, the
 * hour before which every hour of the metric is rolled up. Thread-safe.
 *
 * <p>One cell per series and day, not per hour: HBase's cost of a scan is mostly per cell, and a
 * month's query then reads 30 cells per series instead of 720. Each hour in the cell carries the
 * version of the data row it was computed from (the newest cell time in it; every change to a data
 * row leaves a newer cell), and a write replaces an hour only with a newer version, under a check
 * that the cell is still as read (read again and retried when it is not). So a compaction, a rollup
 * pass and a delete writing the same day in any order leave each hour's latest rollup.
 */
final class RollupStore {
  private static final int BATCH = 1000;
  private static final int ATTEMPTS = 8;

  /** An hour held in a day cell: the version of its data row, then its rollup. */
  private static final int SLOT_BYTES = Long.BYTES + HourRollup.BYTES;

  /** A series' list of hours is sized for the range up to a year; longer ranges grow it. */
  private static final int MAX_HOURS_PRESIZED = 24 * 366;

  /** The qualifier of a row's one cell. */
  static final byte[] DAY = {(byte) 'd'};

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

  /** An hour's rollup as a day cell holds it, with the data row version it was computed from. */
  record Slot(HourRollup rollup, long version) {}

  /** Writes rollups, each hour replaced only by a newer version; durable when this returns. */
  void put(List<Rolled> rolled) {
    Map<ByteBuffer, List<Rolled>> byRow = new LinkedHashMap<>();
    for (Rolled r : rolled) {
      byte[] row = keys.row(r.metric(), TsdbKeys.dayOf(r.hour()), r.tags());
      byRow.computeIfAbsent(ByteBuffer.wrap(row), k -> new ArrayList<>()).add(r);
    }
    Map<ByteBuffer, UnaryOperator<Slot[]>> changes = new LinkedHashMap<>();
    byRow.forEach(
        (row, hours) ->
            changes.put(
                row,
                slots -> {
                  for (Rolled r : hours) {
                    int h = r.hour() - TsdbKeys.dayOf(r.hour()) * 24;
                    if (slots[h] == null || slots[h].version() < r.version()) {
                      slots[h] = new Slot(r.rollup(), r.version());
                    }
                  }
                  return slots;
                }));
    update(changes, "write rollups");
  }

  /**
   * Applies each row's change to its day cell (a copy of its hours; null: none), under a check that
   * the cell is as read; rows whose check failed are read again and changed again.
   */
  private void update(Map<ByteBuffer, UnaryOperator<Slot[]>> changes, String what) {
    Map<ByteBuffer, UnaryOperator<Slot[]>> pending = new LinkedHashMap<>(changes);
    try (Table t = connection.getTable(schema.rollup())) {
      for (int attempt = 0; attempt < ATTEMPTS && !pending.isEmpty(); attempt++) {
        List<ByteBuffer> rows = new ArrayList<>(pending.keySet());
        for (int from = 0; from < rows.size(); from += BATCH) {
          List<ByteBuffer> part = rows.subList(from, Math.min(rows.size(), from + BATCH));
          List<Get> gets = new ArrayList<>(part.size());
          part.forEach(r -> gets.add(new Get(r.array()).addColumn(TsdbSchema.H, DAY)));
          Result[] read = t.get(gets);
          List<CheckAndMutate> writes = new ArrayList<>(part.size());
          List<ByteBuffer> written = new ArrayList<>(part.size());
          for (int i = 0; i < part.size(); i++) {
            byte[] row = part.get(i).array();
            byte[] old = read[i].getValue(TsdbSchema.H, DAY);
            Slot[] before = slots(old);
            Slot[] after = pending.get(part.get(i)).apply(before.clone());
            if (Arrays.equals(before, after)) {
              pending.remove(part.get(i));
              continue;
            }
            Put put = new Put(row).addColumn(TsdbSchema.H, DAY, encodeDay(after));
            CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
            writes.add(
                old == null
                    ? check.ifNotExists(TsdbSchema.H, DAY).build(put)
                    : check.ifEquals(TsdbSchema.H, DAY, old).build(put));
            written.add(part.get(i));
          }
          if (!writes.isEmpty()) {
            List<CheckAndMutateResult> results = t.checkAndMutate(writes);
            for (int i = 0; i < results.size(); i++) {
              if (results.get(i).isSuccess()) {
                pending.remove(written.get(i));
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.of(what, e);
    }
    if (!pending.isEmpty()) {
      throw new ConflictException(
          pending.size() + " rollup day(s) kept changing while they were written; rerun");
    }
  }

  /** The hours of a day cell (an array of 24, null where an hour has none; all null: no cell). */
  static Slot[] slots(byte[] cell) {
    Slot[] slots = new Slot[24];
    if (cell == null) {
      return slots;
    }
    ByteBuffer b = ByteBuffer.wrap(cell);
    int bits = b.getInt();
    for (int h = 0; h < 24; h++) {
      if ((bits & (1 << h)) != 0) {
        long version = b.getLong();
        slots[h] = new Slot(HourRollup.read(b), version);
      }
    }
    return slots;
  }

  /** A day cell: a bitmap of the hours held, then per hour held its version and rollup. */
  static byte[] encodeDay(Slot[] slots) {
    int held = 0;
    int bits = 0;
    for (int h = 0; h < 24; h++) {
      if (slots[h] != null) {
        bits |= 1 << h;
        held++;
      }
    }
    ByteBuffer b = ByteBuffer.allocate(Integer.BYTES + held * SLOT_BYTES);
    b.putInt(bits);
    for (int h = 0; h < 24; h++) {
      if (slots[h] != null) {
        b.putLong(slots[h].version()).put(slots[h].rollup().encode());
      }
    }
    return b.array();
  }

  /**
   * The rollups of {@code metric}'s hours {@code [fromHour, toHour)}, by tag run in order of first
   * appearance, each series' hours ascending; with a row filter, only rows it keeps. Each row read
   * is reported to {@code budget} with its hours as points.
   */
  Map<ByteBuffer, RolledHours> read(
      byte[] metric, int fromHour, int toHour, Optional<Filter> rowFilter, QueryBudget budget) {
    Map<ByteBuffer, RolledHours> bySeries = new LinkedHashMap<>();
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
                // The family, not its one column: an explicit column makes the region server seek
                // to the next row after each cell, a reseek per day cell.
                .addFamily(TsdbSchema.H)
                .setCaching(512)
                .setReadType(Scan.ReadType.PREAD);
        rowFilter.ifPresent(scan::setFilter);
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            TsdbKeys.DataRow row = keys.decode(r.getRow());
            ByteBuffer series = ByteBuffer.wrap(row.tags());
            RolledHours hours = bySeries.get(series);
            boolean seen = hours != null;
            if (!seen) {
              hours = new RolledHours(Math.min(toHour - fromHour, MAX_HOURS_PRESIZED));
              bySeries.put(series, hours);
            }
            int before = hours.size();
            Cell day = r.getColumnLatestCell(TsdbSchema.H, DAY);
            if (day != null) {
              addHours(day, row.hour() * 24, fromHour, toHour, hours);
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

  /**
   * Appends the hours of a day cell (its first hour {@code firstHour}) that lie in [fromHour,
   * toHour), read in place: a month of a hundred series is thousands of cells per query.
   */
  private static void addHours(Cell day, int firstHour, int fromHour, int toHour, RolledHours to) {
    ByteBuffer b = ByteBuffer.wrap(day.getValueArray(), day.getValueOffset(), day.getValueLength());
    int bits = b.getInt();
    for (int h = 0; h < 24; h++) {
      if ((bits & (1 << h)) == 0) {
        continue;
      }
      int hour = firstHour + h;
      if (hour < fromHour || hour >= toHour) {
        b.position(b.position() + SLOT_BYTES);
        continue;
      }
      b.position(b.position() + Long.BYTES);
      // The fields in HourRollup's order, without an object per hour.
      to.add(hour, b.getInt(), b.getInt(), b.getDouble(), b.getDouble(), b.getDouble());
    }
  }

  /**
   * Deletes {@code metric}'s rollups of hours before {@code beforeHour}: whole rows of earlier
   * days, the earlier hours of its own day's cells.
   */
  void purgeBefore(byte[] metric, int beforeHour) {
    int day = TsdbKeys.dayOf(beforeHour);
    int hoursOfDay = beforeHour - day * 24;
    Map<ByteBuffer, UnaryOperator<Slot[]>> boundary = new LinkedHashMap<>();
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
            if (keys.decode(r.getRow()).hour() < day) {
              batch.add(new Delete(r.getRow()));
            } else if (hoursOfDay > 0) {
              boundary.put(
                  ByteBuffer.wrap(r.getRow()),
                  slots -> {
                    Arrays.fill(slots, 0, hoursOfDay, null);
                    return slots;
                  });
            }
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
    update(boundary, "purge expired rollups");
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
