package org.casebook.trails;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;

/**
 * Every record of one user, out of all three tables (a user's right to erasure): per table one
 * bounded scan of the user's key range, keys only, and batched deletes of the rows found. Each
 * table's rows are the user's alone (the uid leads every key, terminated), so nothing else is
 * touched; running it again deletes what is left. Records of the user ingested while it runs may
 * stay.
 */
final class ErasureStore {
  private static final int BATCH = 1000;

  private final Connection connection;
  private final TrailsSchema schema;

  ErasureStore(Connection connection, TrailsSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  /** Rows deleted per table ({@code events}, {@code history_tall}, {@code history_wide}). */
  Map<String, Long> erase(String uid) {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put("events", deleteRange(schema.events(), TrailsKeys.EVENT_ROW.range(uid)));
    out.put("history_tall", deleteRange(schema.tall(), TrailsKeys.TALL_ROW.range(uid)));
    out.put("history_wide", deleteRange(schema.wide(), TrailsKeys.WIDE_ROW.range(uid)));
    return out;
  }

  private long deleteRange(TableName table, KeyRange range) {
    Scan scan =
        range
            .toScan()
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
            .setCaching(BATCH)
            .setCacheBlocks(false);
    long deleted = 0;
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      List<Delete> batch = new ArrayList<>(BATCH);
      for (Result r : s) {
        batch.add(new Delete(r.getRow()));
        if (batch.size() == BATCH) {
          deleted += batch.size();
          t.delete(batch);
          batch = new ArrayList<>(BATCH);
        }
      }
      if (!batch.isEmpty()) {
        deleted += batch.size();
        t.delete(batch);
      }
    } catch (IOException e) {
      throw StorageException.of("delete the records of a user from " + table, e);
    }
    return deleted;
  }
}
