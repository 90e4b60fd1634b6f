package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class FrontierStorageFloorIT {
  @Test
  void putsEveryUrlOnceThenCompletesEveryOneAndDropsItsTables(HBaseRuntime runtime)
      throws Exception {
    String namespace = TestIds.unique("floor").replace('-', '_');
    int urls = 5_000;
    // Fewer hosts than URLs, and 2,000-URL batches on 3 threads: batches of one host interleave.
    FrontierStorageFloor.Rates rates =
        FrontierStorageFloor.measure(
            runtime.connection(),
            namespace,
            "floor-test",
            urls,
            3,
            i -> FrontierBenchmark.url(i, 40));

    assertThat(rates.putNew()).as("every URL was new once").isEqualTo(urls);
    assertThat(rates.completedQueued()).as("every URL put was found queued").isEqualTo(urls);
    assertThat(rates.put()).isPositive();
    assertThat(rates.complete()).isPositive();
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.tableExists(TableName.valueOf(namespace, "floor_known"))).isFalse();
      assertThat(admin.tableExists(TableName.valueOf(namespace, "floor_urls"))).isFalse();
    }
  }
}
