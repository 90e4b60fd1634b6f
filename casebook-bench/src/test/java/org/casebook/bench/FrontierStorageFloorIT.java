package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class FrontierStorageFloorIT {
  @Test
  void putsEveryUrlOnceThenCompletesEveryOne(HBaseRuntime runtime) throws Exception {
    String namespace = TestIds.unique("floor").replace('-', '_');
    int urls = 5_000;
    // Fewer hosts than URLs, and 2,000-URL batches on 3 threads: batches of one host interleave.
    FrontierStorageFloor floor =
        new FrontierStorageFloor(
            runtime.connection(), namespace, "floor-test", 3, i -> FrontierBenchmark.url(i, 40));
    floor.create();
    try {
      assertThat(floor.put(urls)).isPositive();
      assertThat(rows(runtime, floor.knownTable(), false)).isEqualTo(urls);
      assertThat(rows(runtime, floor.queuedTable(), false)).isEqualTo(urls);

      assertThat(floor.complete(urls)).isPositive();
      assertThat(rows(runtime, floor.queuedTable(), false)).as("every queued row deleted").isZero();
      assertThat(rows(runtime, floor.knownTable(), true))
          .as("every known row done")
          .isEqualTo(urls);
    } finally {
      floor.drop();
    }
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.tableExists(floor.knownTable())).isFalse();
      assertThat(admin.tableExists(floor.queuedTable())).isFalse();
    }
  }

  /** Rows of {@code table}; with {@code done}, only known rows marked done (empty priority). */
  private static long rows(HBaseRuntime runtime, TableName table, boolean done) throws IOException {
    long n = 0;
    try (Table t = runtime.connection().getTable(table);
        ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        byte[] priority = r.getValue(Bytes.toBytes("k"), Bytes.toBytes("p"));
        if (!done || (priority != null && priority.length == 0)) {
          n++;
        }
      }
    }
    return n;
  }
}
