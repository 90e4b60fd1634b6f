package org.casebook.tsdb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * Every read and write of the uid table: the id counters, forward (name → id) and reverse (id →
 * name) rows, and the recorded salt bucket count. Thread-safe.
 */
final class UidStore {
  private final Connection connection;
  private final TsdbSchema schema;

  UidStore(Connection connection, TsdbSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  /**
   * The salt bucket count recorded when the tables were first used, recording {@code wanted} if
   * none is.
   */
  int recordedSaltBuckets(int wanted) {
    byte[] row = TsdbKeys.saltRecordRow();
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
    byte[] row = TsdbKeys.forwardRow(kind, name);
    try (Table t = connection.getTable(schema.uid())) {
      return Optional.ofNullable(
          t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.ID)).value());
    } catch (IOException e) {
      throw StorageException.of("read the id of a name", e);
    }
  }

  Optional<String> name(UidKind kind, byte[] id) {
    byte[] row = TsdbKeys.reverseRow(kind, id);
    try (Table t = connection.getTable(schema.uid())) {
      byte[] v = t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.NAME)).value();
      return Optional.ofNullable(v).map(Bytes::toString);
    } catch (IOException e) {
      throw StorageException.of("read the name of an id", e);
    }
  }

  /** A new id of {@code kind}: the kind's counter, incremented (never handed out twice). */
  long nextUid(UidKind kind) {
    byte[] row = TsdbKeys.counterRow(kind);
    try (Table t = connection.getTable(schema.uid())) {
      return t.incrementColumnValue(row, TsdbSchema.U, TsdbSchema.NEXT, 1);
    } catch (IOException e) {
      throw StorageException.of("allocate an id", e);
    }
  }

  /** The last id the kind's counter handed out (0 if none). */
  long lastUid(UidKind kind) {
    byte[] row = TsdbKeys.counterRow(kind);
    try (Table t = connection.getTable(schema.uid())) {
      byte[] v = t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.NEXT)).value();
      return v == null ? 0 : Bytes.toLong(v);
    } catch (IOException e) {
      throw StorageException.of("read an id counter", e);
    }
  }

  void putReverse(UidKind kind, byte[] id, String name) {
    byte[] row = TsdbKeys.reverseRow(kind, id);
    try (Table t = connection.getTable(schema.uid())) {
      t.put(new Put(row).addColumn(TsdbSchema.U, TsdbSchema.NAME, Bytes.toBytes(name)));
    } catch (IOException e) {
      throw StorageException.of("write the name of an id", e);
    }
  }

  /** Maps {@code name} to {@code id} unless it already maps to something: true if this call did. */
  boolean putForwardIfAbsent(UidKind kind, String name, byte[] id) {
    byte[] row = TsdbKeys.forwardRow(kind, name);
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

  /**
   * Removes the forward mapping of {@code name} if it still maps to {@code id}. The delete covers
   * the mapping's own time, not the millisecond it is sent in: a marker there would hide the name
   * given an id again within that millisecond (its put would succeed, and be invisible).
   */
  boolean deleteForward(UidKind kind, String name, byte[] id) {
    byte[] row = TsdbKeys.forwardRow(kind, name);
    try (Table t = connection.getTable(schema.uid())) {
      Cell mapping =
          t.get(new Get(row).addColumn(TsdbSchema.U, TsdbSchema.ID))
              .getColumnLatestCell(TsdbSchema.U, TsdbSchema.ID);
      if (mapping == null) {
        return false;
      }
      return t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifEquals(TsdbSchema.U, TsdbSchema.ID, id)
                  .build(
                      new Delete(row)
                          .addColumns(TsdbSchema.U, TsdbSchema.ID, mapping.getTimestamp())))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("remove the id of a name", e);
    }
  }

  /** Names of {@code kind} starting with {@code prefix}, in byte order, at most {@code max}. */
  List<UidName> names(UidKind kind, String prefix, int max) {
    List<UidName> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.uid());
        ResultScanner s =
            t.getScanner(
                TsdbKeys.forwardRowsStartingWith(kind, prefix)
                    .toScan()
                    .addColumn(TsdbSchema.U, TsdbSchema.ID)
                    .setCaching(Math.min(max, 1000))
                    .setLimit(max))) {
      for (Result r : s) {
        out.add(new UidName(kind, TsdbKeys.forwardName(r.getRow()), r.value()));
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
}
