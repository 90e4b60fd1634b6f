package org.casebook.docs;

import static org.casebook.docs.DocsSchema.ENTRY;
import static org.casebook.docs.DocsSchema.I;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.StorageException;

/**
 * Every HBase read and write of the source-day index ({@code by_source}) but the buffered writes of
 * bulk loads ({@link BulkStore}). An entry's cell timestamp is the version of the document state it
 * was written for; a delete names the newest version it may remove, so it can never hide an entry
 * that a later state of the document wrote.
 */
final class IndexStore {
  /** Entries a whole-index scan reads per round trip (index repair). */
  private static final int FULL_SCAN_CACHING = 1000;

  private static final byte[] EMPTY = new byte[0];

  private final Connection connection;
  private final DocsSchema schema;

  IndexStore(Connection connection, DocsSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  static Put entry(byte[] key, long version) {
    return new Put(key).addColumn(I, ENTRY, version, EMPTY);
  }

  /** Removes exactly the entry a write of {@code version} made (one that then failed). */
  static Delete exactly(byte[] key, long version) {
    return new Delete(key).addColumn(I, ENTRY, version);
  }

  void put(byte[] key, long version) {
    try (Table t = connection.getTable(schema.bySource())) {
      t.put(entry(key, version));
    } catch (IOException e) {
      throw StorageException.of("write index entry", e);
    }
  }

  void delete(byte[] key, long upToVersion) {
    try (Table t = connection.getTable(schema.bySource())) {
      t.delete(new Delete(key).addColumns(I, ENTRY, upToVersion));
    } catch (IOException e) {
      throw StorageException.of("delete index entry", e);
    }
  }

  /** Entry row keys of {@code range} (of the whole index for {@link RowRange#all}), in order. */
  List<byte[]> keys(RowRange range) {
    Scan scan =
        new Scan()
            .withStartRow(range.start(), range.startInclusive())
            .withStopRow(range.stop(), range.stopInclusive())
            .setReversed(range.reversed())
            .addColumn(I, ENTRY);
    if (range.limit() > 0) {
      scan.setLimit(range.limit()).setCaching(range.limit());
    } else {
      scan.setCaching(FULL_SCAN_CACHING);
    }
    List<byte[]> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.bySource());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(r.getRow());
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan index", e);
    }
  }
}
