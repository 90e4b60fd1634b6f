package org.casebook.banknote;

import static org.casebook.banknote.BanknoteSchema.C;
import static org.casebook.banknote.BanknoteSchema.P;
import static org.casebook.banknote.BanknoteSchema.RECORD;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;

/**
 * The settlement table: a summary row for each piece's notes of a branch's day (built with the
 * notes' own rows, {@link Pieces}, and written in the same group commit) and a row for each
 * device's declaration that it delivered its files of that day. A branch's day is one prefix scan.
 *
 * <p>Times here are cell timestamps, which the region server sets when it writes the cell: a
 * piece's summary row carries the time it was (last) stored, a declaration the time it was made,
 * both from the clock of the server holding the day's rows, so they compare without clock skew
 * between collectors.
 */
final class SettlementStore {
  /** The declaration's columns: its first and its latest time (the cells' timestamps). */
  static final byte[] FIRST = BanknoteKeys.COLUMN.encode("f");

  static final byte[] LAST = BanknoteKeys.COLUMN.encode("l");

  private static final byte[] EMPTY = new byte[0];

  /** A summary row: which piece of which file, when it was last stored, what it counted. */
  record PieceRow(String device, String source, long first, long stored, PieceCounts counts) {}

  /** A delivered declaration: its first and its latest time (epoch ms). */
  record DeclarationRow(String device, long first, long last) {}

  /** The rows of a branch's day (or of one device's part of it), in key order. */
  record DayRows(List<DeclarationRow> declarations, List<PieceRow> pieces) {}

  private final Connection connection;
  private final BanknoteSchema schema;

  SettlementStore(Connection connection, BanknoteSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.schema = Objects.requireNonNull(schema, "schema is null");
  }

  /**
   * The summary rows of a batch of notes, built as the notes' rows are: one for each (branch, day,
   * device, file) among them, keyed by the lowest record it counts, so the same batch sent again
   * makes the same rows. The notes of one file come in runs; each run reuses its group.
   */
  static final class Pieces {
    private final LocalHours hours;
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private Group current;

    private record Group(
        String branch, int day, String device, String source, PieceCounts.Builder counts) {}

    Pieces(ZoneId zone) {
      this.hours = new LocalHours(zone);
    }

    void add(Note n) {
      hours.at(n.time().toEpochMilli());
      int day = hours.day();
      Group g = current;
      if (g == null
          || g.day() != day
          || !g.source().equals(n.source())
          || !g.device().equals(n.device())
          || !g.branch().equals(n.branch())) {
        String key = n.branch() + '\u0000' + day + '\u0000' + n.device() + '\u0000' + n.source();
        g = groups.get(key);
        if (g == null) {
          g = new Group(n.branch(), day, n.device(), n.source(), new PieceCounts.Builder());
          groups.put(key, g);
        }
        current = g;
      }
      g.counts().add(n, hours.hour());
    }

    List<Put> puts() {
      List<Put> out = new ArrayList<>(groups.size());
      for (Group g : groups.values()) {
        PieceCounts counts = g.counts().build();
        out.add(
            new Put(
                    BanknoteKeys.SETTLEMENT.encode(
                        g.branch(), g.day(), g.device(), g.source(), counts.first()))
                .addColumn(P, RECORD, SettlementCodec.encode(counts)));
      }
      return out;
    }
  }

  /** The declarations and summary rows of {@code branch}'s {@code day}: one prefix scan. */
  DayRows day(String branch, int day) {
    return scan(BanknoteKeys.SETTLEMENT.range(branch, day));
  }

  /** As {@link #day}, for one device. */
  DayRows device(String branch, int day, String device) {
    return scan(BanknoteKeys.SETTLEMENT.range(branch, day, device));
  }

  private DayRows scan(KeyRange range) {
    List<DeclarationRow> declarations = new ArrayList<>();
    List<PieceRow> pieces = new ArrayList<>();
    Scan scan = range.toScan().addFamily(P).addFamily(C).setCaching(1000);
    try (Table t = connection.getTable(schema.settlement());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        Cell counts = r.getColumnLatestCell(P, RECORD);
        if (counts != null) {
          KeyLayout.Key k = BanknoteKeys.SETTLEMENT.decode(r.getRow());
          pieces.add(
              new PieceRow(
                  k.string("device"),
                  k.string("source"),
                  k.number("first"),
                  counts.getTimestamp(),
                  SettlementCodec.decode(CellUtil.cloneValue(counts))));
          continue;
        }
        Cell first = r.getColumnLatestCell(C, FIRST);
        Cell last = r.getColumnLatestCell(C, LAST);
        if (last != null) {
          declarations.add(
              new DeclarationRow(
                  BanknoteKeys.DELIVERED.decode(r.getRow()).string("device"),
                  first == null ? last.getTimestamp() : first.getTimestamp(),
                  last.getTimestamp()));
        }
      }
      return new DayRows(declarations, pieces);
    } catch (IOException e) {
      throw StorageException.of("read the settlement of " + range, e);
    }
  }

  /**
   * Records that {@code device} delivered its files of {@code branch}'s {@code day}: the latest
   * declaration's cell, and the first's when {@code first}. The region server stamps both.
   */
  void declare(String branch, int day, String device, boolean first) {
    Put p = new Put(BanknoteKeys.DELIVERED.encode(branch, day, device)).addColumn(C, LAST, EMPTY);
    if (first) {
      p.addColumn(C, FIRST, EMPTY);
    }
    try (Table t = connection.getTable(schema.settlement())) {
      t.put(p);
    } catch (IOException e) {
      throw StorageException.of("record a delivered declaration", e);
    }
  }

  /** Deletes the summary rows of one file's notes on a branch's day (a purge). */
  void deleteFile(String branch, int day, String device, String source) {
    List<Delete> deletes = new ArrayList<>();
    Scan scan =
        BanknoteKeys.SETTLEMENT
            .range(branch, day, device, source)
            .toScan()
            .addFamily(P)
            .setFilter(new KeyOnlyFilter());
    try (Table t = connection.getTable(schema.settlement());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        deletes.add(new Delete(r.getRow()));
      }
      if (!deletes.isEmpty()) {
        t.delete(deletes);
      }
    } catch (IOException e) {
      throw StorageException.of("delete a file's settlement rows", e);
    }
  }
}
