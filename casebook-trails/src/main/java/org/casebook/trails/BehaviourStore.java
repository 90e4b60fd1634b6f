package org.casebook.trails;

import static org.casebook.trails.TrailsSchema.B;
import static org.casebook.trails.TrailsSchema.DEF;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Json;
import org.casebook.core.StorageException;

/**
 * Every HBase read and write of the behaviour registry ({@code trails:behaviours}): one row per
 * declared behaviour, its id and fields as JSON in {@code b:def}, and the {@code _ids} row whose
 * columns, one per id, name the behaviour that claimed it. Ids are claimed and definitions written
 * with check-and-mutate, so concurrent declarations never share an id.
 */
final class BehaviourStore {
  /** The registry's rows, with room: 251 declared behaviours and the ids row. */
  private static final int MAX_ROWS = 300;

  private static final byte[] IDS_ROW = TrailsKeys.REGISTRY_ROW.encode(TrailsKeys.IDS_ROW_NAME);

  private final Connection connection;
  private final TrailsSchema schema;

  BehaviourStore(Connection connection, TrailsSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  /** A stored definition: the behaviour, and its cell's bytes (for a later check-and-mutate). */
  static final class Stored {
    private final Behaviour behaviour;
    private final byte[] raw;

    Stored(Behaviour behaviour, byte[] raw) {
      this.behaviour = behaviour;
      this.raw = raw;
    }

    Behaviour behaviour() {
      return behaviour;
    }

    byte[] raw() {
      return raw.clone();
    }
  }

  /** The value of {@code b:def}. */
  record Definition(int id, List<FieldDefinition> fields) {}

  /** One field of a {@link Definition}. */
  record FieldDefinition(String name, Behaviour.Kind kind) {}

  /** The built-ins and every declared behaviour. */
  Behaviours load() {
    List<Behaviour> declared = new ArrayList<>();
    Scan scan = new Scan().addColumn(B, DEF).setLimit(MAX_ROWS).setCaching(MAX_ROWS);
    try (Table t = connection.getTable(schema.registry());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        String name = TrailsKeys.REGISTRY_ROW.decode(r.getRow()).string("name");
        declared.add(decode(name, r.getValue(B, DEF)));
      }
    } catch (IOException e) {
      throw StorageException.of("read the behaviour registry", e);
    }
    return Behaviours.withDeclared(declared);
  }

  Optional<Stored> read(String name) {
    try (Table t = connection.getTable(schema.registry())) {
      byte[] raw =
          t.get(new Get(TrailsKeys.REGISTRY_ROW.encode(name)).addColumn(B, DEF)).getValue(B, DEF);
      return raw == null ? Optional.empty() : Optional.of(new Stored(decode(name, raw), raw));
    } catch (IOException e) {
      throw StorageException.of("read a behaviour", e);
    }
  }

  /** Writes the definition of a behaviour not stored yet; false if one is. */
  boolean create(Behaviour b) {
    return checkAndPut(b, null);
  }

  /** Replaces a definition if the stored one is still {@code expected}; false if not. */
  boolean replace(byte[] expected, Behaviour b) {
    return checkAndPut(b, expected);
  }

  private boolean checkAndPut(Behaviour b, byte[] expected) {
    byte[] row = TrailsKeys.REGISTRY_ROW.encode(b.label());
    Put put = new Put(row).addColumn(B, DEF, encode(b));
    CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
    try (Table t = connection.getTable(schema.registry())) {
      return t.checkAndMutate(
              expected == null
                  ? check.ifNotExists(B, DEF).build(put)
                  : check.ifEquals(B, DEF, expected).build(put))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write a behaviour", e);
    }
  }

  /** Every claimed id and the name that claimed it. */
  Map<Integer, String> claims() {
    Map<Integer, String> out = new TreeMap<>();
    try (Table t = connection.getTable(schema.registry())) {
      Result r = t.get(new Get(IDS_ROW).addFamily(B));
      for (Cell c : r.isEmpty() ? new Cell[0] : r.rawCells()) {
        int id = TrailsKeys.REGISTRY_ID_COLUMN.decode(CellUtil.cloneQualifier(c)).integer("id");
        out.put(id, Bytes.toString(CellUtil.cloneValue(c)));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read the behaviour ids", e);
    }
  }

  /** Claims {@code id} for {@code name} if nobody holds it; false if somebody does. */
  boolean claim(int id, String name) {
    byte[] column = TrailsKeys.REGISTRY_ID_COLUMN.encode(id);
    try (Table t = connection.getTable(schema.registry())) {
      return t.checkAndMutate(
              CheckAndMutate.newBuilder(IDS_ROW)
                  .ifNotExists(B, column)
                  .build(new Put(IDS_ROW).addColumn(B, column, Bytes.toBytes(name))))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("claim a behaviour id", e);
    }
  }

  /** Gives back {@code id} if {@code name} still holds it (a declaration that lost its name). */
  void release(int id, String name) {
    byte[] column = TrailsKeys.REGISTRY_ID_COLUMN.encode(id);
    try (Table t = connection.getTable(schema.registry())) {
      t.checkAndMutate(
          CheckAndMutate.newBuilder(IDS_ROW)
              .ifEquals(B, column, Bytes.toBytes(name))
              .build(new Delete(IDS_ROW).addColumns(B, column)));
    } catch (IOException e) {
      throw StorageException.of("release a behaviour id", e);
    }
  }

  private static byte[] encode(Behaviour b) {
    return Json.writeBytes(definition(b));
  }

  private static Behaviour decode(String name, byte[] raw) {
    try {
      return behaviour(name, Json.mapper().readValue(raw, Definition.class));
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("corrupt definition of behaviour " + name, e);
    }
  }

  /** A declared behaviour's definition: what its registry row and a job's configuration hold. */
  static Definition definition(Behaviour b) {
    return new Definition(
        b.id(), b.fields().stream().map(f -> new FieldDefinition(f.name(), f.kind())).toList());
  }

  /** The behaviour {@code name} of a definition. */
  static Behaviour behaviour(String name, Definition d) {
    return Behaviour.declared(
        d.id(),
        name,
        d.fields().stream().map(f -> new Behaviour.Field(f.name(), f.kind())).toList());
  }
}
