package org.casebook.banknote;

import static org.casebook.banknote.BanknoteSchema.H;
import static org.casebook.banknote.BanknoteSchema.RECORD;
import static org.casebook.banknote.BanknoteSchema.W;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * The watch list's rows (one an entry, keyed by its id) and the hits' rows; the hits are written
 * with the notes that make them ({@link BanknoteStore#rows}), read here.
 */
final class WatchStore {
  static final byte[] PATTERN = BanknoteKeys.COLUMN.encode("p");
  private static final byte[] DENOMINATION = BanknoteKeys.COLUMN.encode("d");
  private static final byte[] NOTE = BanknoteKeys.COLUMN.encode("n");
  private static final byte[] BY = BanknoteKeys.COLUMN.encode("b");
  private static final byte[] ADDED = BanknoteKeys.COLUMN.encode("t");

  /** A hits row: its key (for cursors) and the hit. */
  record HitRow(byte[] key, WatchHit hit) {}

  /** A watch row: its key (for cursors) and the entry. */
  record EntryRow(byte[] key, WatchEntry entry) {}

  private final Connection connection;
  private final BanknoteSchema schema;

  WatchStore(Connection connection, BanknoteSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.schema = Objects.requireNonNull(schema, "schema is null");
  }

  /** The hits row of {@code n} matching {@code e}; {@code value} is the note's encoded record. */
  static Put hitRow(Note n, int day, byte[] origin, WatchEntry e, byte[] value) {
    return new Put(BanknoteKeys.hit(n, day, origin, e.id()))
        .addColumn(H, RECORD, value)
        .addColumn(H, PATTERN, Bytes.toBytes(e.pattern()));
  }

  /** The whole list, at most {@code max} entries (one scan of the table). */
  List<WatchEntry> entries(int max) {
    return scanEntries(new RowWindow(new byte[0], true, new byte[0], max)).stream()
        .map(EntryRow::entry)
        .toList();
  }

  List<EntryRow> scanEntries(RowWindow window) {
    List<EntryRow> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.watch());
        ResultScanner s = t.getScanner(scan(window).addFamily(W))) {
      for (Result r : s) {
        out.add(new EntryRow(r.getRow(), entry(r)));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read the watch list", e);
    }
  }

  void put(WatchEntry e) {
    Put p =
        new Put(BanknoteKeys.WATCH.encode(e.id()))
            .addColumn(W, PATTERN, Bytes.toBytes(e.pattern()))
            .addColumn(W, NOTE, Bytes.toBytes(e.note()))
            .addColumn(W, BY, Bytes.toBytes(e.addedBy()))
            .addColumn(W, ADDED, Bytes.toBytes(e.added().toEpochMilli()));
    if (e.denomination() != null) {
      p.addColumn(W, DENOMINATION, Bytes.toBytes(e.denomination().intValue()));
    }
    try (Table t = connection.getTable(schema.watch())) {
      t.put(p);
    } catch (IOException ex) {
      throw StorageException.of("add to the watch list", ex);
    }
  }

  /** Removes entry {@code id}; whether it was there. */
  boolean delete(String id) {
    byte[] row = BanknoteKeys.WATCH.encode(id);
    try (Table t = connection.getTable(schema.watch())) {
      if (!t.exists(new Get(row))) {
        return false;
      }
      t.delete(new Delete(row));
      return true;
    } catch (IOException e) {
      throw StorageException.of("remove from the watch list", e);
    }
  }

  /** Hits rows (a branch's day, newest first). */
  List<HitRow> scanHits(RowWindow window) {
    List<HitRow> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.hits());
        ResultScanner s = t.getScanner(scan(window).addFamily(H))) {
      for (Result r : s) {
        byte[] value = r.getValue(H, RECORD);
        if (value != null) {
          String entry = BanknoteKeys.HIT.decode(r.getRow()).string("entry");
          String pattern = Bytes.toString(r.getValue(H, PATTERN));
          out.add(
              new HitRow(r.getRow(), new WatchHit(NoteCodec.decode(value, null), entry, pattern)));
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan " + schema.hits(), e);
    }
  }

  /** Deletes the watch-list hits of one file's notes on a branch's day (hits are few a day). */
  void deleteHits(String branch, int day, byte[] origin) {
    List<Delete> deletes = new ArrayList<>();
    Scan scan = BanknoteKeys.HIT.range(branch, day).toScan().addFamily(H);
    scan.setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter());
    try (Table t = connection.getTable(schema.hits());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        byte[] rowOrigin = (byte[]) BanknoteKeys.HIT.decode(r.getRow()).get("origin");
        if (java.util.Arrays.equals(rowOrigin, origin)) {
          deletes.add(new Delete(r.getRow()));
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read a file's hits", e);
    }
    if (deletes.isEmpty()) {
      return;
    }
    try (Table t = connection.getTable(schema.hits())) {
      t.delete(deletes);
    } catch (IOException e) {
      throw StorageException.of("delete a file's hits", e);
    }
  }

  private static Scan scan(RowWindow window) {
    return new Scan()
        .withStartRow(window.start(), window.startInclusive())
        .withStopRow(window.stop(), false)
        .setLimit(window.limit())
        .setCaching(Math.min(window.limit(), 1000));
  }

  private static WatchEntry entry(Result r) {
    byte[] d = r.getValue(W, DENOMINATION);
    return new WatchEntry(
        BanknoteKeys.WATCH.decode(r.getRow()).string("id"),
        string(r, PATTERN),
        d == null ? null : Bytes.toInt(d),
        string(r, NOTE),
        string(r, BY),
        Instant.ofEpochMilli(Bytes.toLong(r.getValue(W, ADDED))));
  }

  private static String string(Result r, byte[] column) {
    byte[] v = r.getValue(W, column);
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }
}
