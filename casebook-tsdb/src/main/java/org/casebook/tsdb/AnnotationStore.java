package org.casebook.tsdb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
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
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;

/** The annotation table: one row per annotation, its JSON in one cell ({@code a:j}). */
final class AnnotationStore {
  private final Connection connection;
  private final TsdbSchema schema;

  AnnotationStore(Connection connection, TsdbSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  /**
   * An annotation as stored, with its cell's bytes (what a later check-and-put compares) and time
   * (what a delete of it is placed at).
   */
  record StoredNote(Annotation note, byte[] cell, long timestamp) {}

  Optional<StoredNote> get(byte[] row) {
    try (Table t = connection.getTable(schema.annotation())) {
      Result r = t.get(new Get(row).addColumn(TsdbSchema.A, TsdbSchema.NOTE));
      Cell c = r.getColumnLatestCell(TsdbSchema.A, TsdbSchema.NOTE);
      if (c == null) {
        return Optional.empty();
      }
      byte[] cell = CellUtil.cloneValue(c);
      return Optional.of(new StoredNote(AnnotationCodec.decode(cell), cell, c.getTimestamp()));
    } catch (IOException e) {
      throw StorageException.of("read an annotation", e);
    }
  }

  /**
   * Writes {@code note} at {@code row} if the cell still holds {@code expected} (null: if there is
   * none): false when another writer changed it in between.
   */
  boolean replace(byte[] row, byte[] expected, Annotation note) {
    Put put = new Put(row).addColumn(TsdbSchema.A, TsdbSchema.NOTE, AnnotationCodec.encode(note));
    CheckAndMutate.Builder check =
        CheckAndMutate.newBuilder(row).ifEquals(TsdbSchema.A, TsdbSchema.NOTE, expected);
    if (expected == null) {
      check = CheckAndMutate.newBuilder(row).ifNotExists(TsdbSchema.A, TsdbSchema.NOTE);
    }
    try (Table t = connection.getTable(schema.annotation())) {
      return t.checkAndMutate(check.build(put)).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write an annotation", e);
    }
  }

  /**
   * Deletes {@code stored} at {@code row} if the cell still holds it: false when another writer
   * changed it in between. The delete covers the note's own time and earlier only: a marker at the
   * current millisecond would hide a note saved again within that millisecond.
   */
  boolean delete(byte[] row, StoredNote stored) {
    CheckAndMutate delete =
        CheckAndMutate.newBuilder(row)
            .ifEquals(TsdbSchema.A, TsdbSchema.NOTE, stored.cell())
            .build(deleteUpTo(row, stored.timestamp()));
    try (Table t = connection.getTable(schema.annotation())) {
      return t.checkAndMutate(delete).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("delete an annotation", e);
    }
  }

  private static Delete deleteUpTo(byte[] row, long timestamp) {
    return new Delete(row).addColumns(TsdbSchema.A, TsdbSchema.NOTE, timestamp);
  }

  /** A row read by a scan: its key, its annotation and its cell's time. */
  record Row(byte[] key, Annotation note, long timestamp) {}

  /** The annotations in {@code range} whose row {@code keep} accepts, in key order. */
  List<Row> scan(KeyRange range, Predicate<byte[]> keep) {
    List<Row> out = new ArrayList<>();
    Scan scan = range.toScan().addColumn(TsdbSchema.A, TsdbSchema.NOTE).setCaching(500);
    try (Table t = connection.getTable(schema.annotation());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        if (!keep.test(r.getRow())) {
          continue;
        }
        Cell c = r.getColumnLatestCell(TsdbSchema.A, TsdbSchema.NOTE);
        out.add(
            new Row(r.getRow(), AnnotationCodec.decode(CellUtil.cloneValue(c)), c.getTimestamp()));
      }
    } catch (IOException e) {
      throw StorageException.of("scan annotations", e);
    }
    return out;
  }

  /**
   * Deletes the notes of {@code rows} as read, up to their time (see {@link #delete}): how many.
   */
  int deleteAll(List<Row> rows) {
    if (rows.isEmpty()) {
      return 0;
    }
    List<Delete> deletes = new ArrayList<>(rows.size());
    rows.forEach(r -> deletes.add(deleteUpTo(r.key(), r.timestamp())));
    try (Table t = connection.getTable(schema.annotation())) {
      t.delete(deletes);
    } catch (IOException e) {
      throw StorageException.of("delete annotations", e);
    }
    return rows.size();
  }
}
