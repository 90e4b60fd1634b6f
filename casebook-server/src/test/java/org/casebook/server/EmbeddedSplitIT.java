package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A region of the embedded HBase splits on the server's own class path (every system's jars and
 * their dependencies): the master updates hbase:meta through HBase's legacy protocol classes, which
 * break if another protobuf than Hadoop's 2.5 is on the class path (the split then never finishes
 * and the table stays offline).
 */
@ExtendWith(EmbeddedHBase.class)
class EmbeddedSplitIT {
  @Test
  void aRegionSplitsOnTheServersClassPath(HBaseRuntime runtime) throws Exception {
    TableName table = TableName.valueOf("splitit", TestIds.unique("t"));
    SchemaManager schemas = new SchemaManager(runtime.connection());
    schemas.ensure(
        new TableSpec(table, List.of(FamilySpec.of("f")), SplitPoints.none(), "row:int"));
    try (BufferedMutator m = runtime.connection().getBufferedMutator(table)) {
      for (int i = 0; i < 2000; i++) {
        m.mutate(
            new Put(Bytes.toBytes(i))
                .addColumn(Bytes.toBytes("f"), Bytes.toBytes("v"), new byte[64]));
      }
    }
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.flush(table);
      admin.split(table, Bytes.toBytes(1000));
      long deadline = System.currentTimeMillis() + 60_000;
      while ((admin.getRegions(table).size() < 2 || !admin.isTableAvailable(table))
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      assertThat(admin.getRegions(table)).hasSize(2);
      assertThat(admin.isTableAvailable(table)).isTrue();
      int rows = 0;
      try (Table t = runtime.connection().getTable(table);
          ResultScanner scanner = t.getScanner(new Scan())) {
        for (Result r : scanner) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(2000);
    } finally {
      schemas.drop(table);
    }
  }
}
