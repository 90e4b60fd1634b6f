package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Test;

/** The deadlines a cluster connection gets, and the operator's own values left alone. */
class RequestDeadlinesTest {
  @Test
  void theConnectionGetsTheDeadlinesWhereOnlyHBaseDefaultsSpeak() {
    Configuration conf = HBaseConfiguration.create();
    Configuration client = HBaseRuntime.withRequestDeadlines(conf);
    assertThat(client.getInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 0)).isEqualTo(10_000);
    assertThat(client.getInt(HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, 0)).isEqualTo(10_000);
    assertThat(conf.getInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 0))
        .as("batch work keeps HBase's default")
        .isEqualTo(1_200_000);
  }

  @Test
  void aValueTheOperatorSetIsKept() {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, "60000");
    Configuration client = HBaseRuntime.withRequestDeadlines(conf);
    assertThat(client.getInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 0)).isEqualTo(60_000);
    assertThat(client.getInt(HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, 0)).isEqualTo(10_000);
  }
}
