package org.casebook.docs;

import static org.casebook.docs.DocsSchema.DEFINITION;
import static org.casebook.docs.DocsSchema.T;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.StorageException;

/**
 * Every HBase read and write of the registry: one row per type, its definition as JSON, and the
 * counter that numbers writers.
 */
final class TypeStore {
  /** Registry row and column of the counter that numbers writers (see {@link VersionClock}). */
  private static final byte[] WRITERS_ROW = DocsKeys.TYPE.encode("_writers");

  private static final byte[] WRITERS_COLUMN = DocsKeys.FIELD.encode("n");

  private final Connection connection;
  private final DocsSchema schema;

  TypeStore(Connection connection, DocsSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  /** Every stored definition by type name. */
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
}
