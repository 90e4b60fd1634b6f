package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Test;

/**
 * The connection's settings: a cluster connection's deadlines (the operator's own values kept), and
 * the embedded connection's in-process calls.
 */
class RequestDeadlinesTest {
  @Test
  void theConnectionGetsTheDeadlinesWhereOnlyHBaseDefaultsSpeak() {
    Configuration conf = HBaseConfiguration.create();
    Configuration client = ClientConnections.withRequestDeadlines(conf);
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
    Configuration client = ClientConnections.withRequestDeadlines(conf);
    assertThat(client.getInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 0)).isEqualTo(60_000);
    assertThat(client.getInt(HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, 0)).isEqualTo(10_000);
  }

  @Test
  void inProcessCallsAreOnUnlessTurnedOffAndAnyOtherValueIsRefused() {
    Configuration conf = HBaseConfiguration.create();
    assertThat(ClientConnections.inProcessCalls(conf)).isTrue();
    conf.set(HBaseRuntime.IN_PROCESS_CALLS_KEY, "false");
    assertThat(ClientConnections.inProcessCalls(conf)).isFalse();
    conf.set(HBaseRuntime.IN_PROCESS_CALLS_KEY, "no");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ClientConnections.inProcessCalls(conf))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.field()).isEqualTo(HBaseRuntime.IN_PROCESS_CALLS_KEY));
  }
}
