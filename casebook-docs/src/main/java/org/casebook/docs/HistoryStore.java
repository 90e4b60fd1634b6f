package org.casebook.docs;

import static org.casebook.docs.DocsSchema.H;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.casebook.core.StorageException;

/**
 * Reads of a document's history ({@code H} family of its row; written with the changes by {@link
 * DocumentStore#commit}): a run of columns, newest first, bounded by the page asked for.
 */
final class HistoryStore {
  private final Connection connection;

  HistoryStore(Connection connection) {
    this.connection = connection;
  }

  /**
   * Up to {@code n} entries of {@code t}'s history, newest first, older than {@code before} if it
   * is given: one Get of the row's H columns from there.
   */
  List<HistoryEntry> read(Target t, Long before, int n) {
    byte[] from = CorrectionCodec.historyColumn(before == null ? Long.MAX_VALUE : before - 1);
    Get get = new Get(t.row()).addFamily(H).setFilter(new ColumnPaginationFilter(n, from));
    try (Table table = connection.getTable(t.table())) {
      Result r = table.get(get);
      List<HistoryEntry> out = new ArrayList<>();
      if (r.rawCells() != null) {
        for (Cell c : r.rawCells()) {
          out.add(CorrectionCodec.decodeEntry(CellUtil.cloneValue(c)));
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read history", e);
    }
  }
}
