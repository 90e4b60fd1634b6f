package org.casebook.core.batch.hfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.mapreduce.MultiTableHFileOutputFormat;
import org.apache.hadoop.hbase.mapreduce.MultiTableIncrementalLoad;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The job's tables numbered in the order of HBase's composite keys ({@code table;row}), so that a
 * map output key of one index byte and the row sorts as the composite key would: the shuffle
 * compares a byte instead of a table name repeated in every key (a bench namespace's names run to
 * 35 bytes). The reducer turns the index back into the name for HBase's HFile writers.
 */
final class TableIndex {
  static final String TABLES = "casebook.bulkload.tables";

  private final byte[][] names;

  private TableIndex(byte[][] names) {
    this.names = names;
  }

  /** Records {@code tables} in composite-key order (at most 255). */
  static void set(Configuration conf, List<TableName> tables) {
    if (tables.isEmpty() || tables.size() > 255) {
      throw new IllegalArgumentException(
          "a bulk load writes 1 to 255 tables, got " + tables.size());
    }
    List<byte[]> prefixes = new ArrayList<>();
    for (TableName t : tables) {
      prefixes.add(MultiTableHFileOutputFormat.createCompositeKey(t.getName(), new byte[0]));
    }
    prefixes.sort(Bytes.BYTES_COMPARATOR);
    List<String> ordered = new ArrayList<>();
    for (byte[] p : prefixes) {
      ordered.add(Bytes.toString(MultiTableIncrementalLoad.tableOf(p)));
    }
    conf.setStrings(TABLES, ordered.toArray(String[]::new));
  }

  static TableIndex of(Configuration conf) {
    String[] tables = conf.getStrings(TABLES);
    if (tables == null) {
      throw new IllegalStateException(TABLES + " is not set: configure the job with HFileBulkLoad");
    }
    byte[][] names = new byte[tables.length][];
    for (int i = 0; i < tables.length; i++) {
      names[i] = TableName.valueOf(tables[i]).getName();
    }
    return new TableIndex(names);
  }

  /** The map output key of {@code row} in {@code table}: the table's index, then the row. */
  byte[] key(byte[] table, byte[] row) {
    byte[] key = new byte[1 + row.length];
    key[0] = (byte) indexOf(table);
    System.arraycopy(row, 0, key, 1, row.length);
    return key;
  }

  /** The map output key of a composite key {@code table;row}. */
  byte[] key(byte[] composite) {
    return key(
        MultiTableIncrementalLoad.tableOf(composite), MultiTableIncrementalLoad.rowOf(composite));
  }

  /** HBase's composite key ({@code table;row}) of a map output key. */
  byte[] composite(byte[] key, int offset, int length) {
    return MultiTableHFileOutputFormat.createCompositeKey(
        names[key[offset] & 0xFF], Arrays.copyOfRange(key, offset + 1, offset + length));
  }

  private int indexOf(byte[] table) {
    for (int i = 0; i < names.length; i++) {
      if (Arrays.equals(names[i], table)) {
        return i;
      }
    }
    throw new IllegalArgumentException(
        "table " + Bytes.toString(table) + " is not one of this job's tables");
  }
}
