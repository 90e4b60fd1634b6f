package org.casebook.bench;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.StorageException;

/**
 * OpenTSDB's four tables in a Casebook HBase, as its {@code src/create_table.sh} creates them,
 * except for compression and data block encoding: by default the same as Casebook's tables (none
 * and none, see {@code FamilySpec}), so bytes per point compare storage layouts, not codecs.
 */
final class OpenTsdbTables {
  private OpenTsdbTables() {}

  /**
   * Creates the four tables as {@code create_table.sh} does (families, one version for {@code t},
   * row bloom filters), idempotently; the namespace of a {@code "ns:"} prefix too.
   */
  static void create(HBaseRuntime runtime, OpenTsdbOptions options) {
    try (Admin admin = runtime.connection().getAdmin()) {
      TableName data = options.dataTable();
      if (!data.getNamespaceAsString().equals(NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR)) {
        ensureNamespace(admin, data.getNamespaceAsString());
      }
      List<TableName> all =
          List.of(data, options.uidTable(), options.treeTable(), options.metaTable());
      if (options.dropExistingTables()) {
        for (TableName t : all) {
          if (admin.tableExists(t)) {
            if (admin.isTableEnabled(t)) {
              admin.disableTable(t);
            }
            admin.deleteTable(t);
          }
        }
      }
      // create '$UID_TABLE', {NAME => 'id', …}, {NAME => 'name', …}
      createOne(admin, options, options.uidTable(), null, "id", "name");
      // create '$TSDB_TABLE', {NAME => 't', VERSIONS => 1, …, TTL => 'FOREVER'}
      createOne(admin, options, data, saltSplits(options), "t");
      // create '$TREE_TABLE', {NAME => 't', VERSIONS => 1, …}
      createOne(admin, options, options.treeTable(), null, "t");
      // create '$META_TABLE', {NAME => 'name', …}
      createOne(admin, options, options.metaTable(), null, "name");
    } catch (IOException e) {
      throw StorageException.of("create OpenTSDB's tables", e);
    }
  }

  private static void ensureNamespace(Admin admin, String namespace) throws IOException {
    try {
      admin.getNamespaceDescriptor(namespace);
    } catch (NamespaceNotFoundException e) {
      try {
        admin.createNamespace(NamespaceDescriptor.create(namespace).build());
      } catch (org.apache.hadoop.hbase.NamespaceExistException raced) {
        // Another process created it in between: what we wanted.
      }
    }
  }

  private static void createOne(
      Admin admin, OpenTsdbOptions options, TableName name, byte[][] splits, String... families)
      throws IOException {
    if (admin.tableExists(name)) {
      return;
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
    for (String f : families) {
      // create_table.sh leaves VERSIONS at HBase's default (1 since 0.96) for id/name; the same.
      b.setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(f))
              .setMaxVersions(1)
              .setBloomFilterType(BloomType.ROW)
              .setCompressionType(options.compression())
              .setDataBlockEncoding(options.dataBlockEncoding())
              .build());
    }
    try {
      if (splits == null) {
        admin.createTable(b.build());
      } else {
        admin.createTable(b.build(), splits);
      }
    } catch (TableExistsException raced) {
      // Created by another process in between: idempotent either way.
    }
  }

  /** One region per salt bucket (OpenTSDB's salting advice), keyed on the salt's first byte. */
  private static byte[][] saltSplits(OpenTsdbOptions options) {
    if (options.saltWidth() == 0 || options.saltBuckets() < 2) {
      return null;
    }
    byte[][] splits = new byte[options.saltBuckets() - 1][];
    for (int i = 1; i < options.saltBuckets(); i++) {
      byte[] key = new byte[options.saltWidth()];
      // OpenTSDB writes the bucket number big-endian in saltWidth bytes.
      int v = i;
      for (int j = options.saltWidth() - 1; j >= 0; j--) {
        key[j] = (byte) v;
        v >>>= 8;
      }
      splits[i - 1] = key;
    }
    return splits;
  }
}
