package org.casebook.core.batch.hfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.client.NoServerForRegionException;
import org.junit.jupiter.api.Test;

class HFileBulkLoadTest {
  @Test
  void aRegionWithoutAServerForNowIsWaitedOutAndABrokenFileIsNot() {
    assertThat(HFileBulkLoad.regionUnreachable(new NoServerForRegionException("no server")))
        .isTrue();
    assertThat(
            HFileBulkLoad.regionUnreachable(
                new IOException("wrapped", new NotServingRegionException("moving"))))
        .isTrue();
    assertThat(HFileBulkLoad.regionUnreachable(new ConnectException("refused"))).isTrue();
    assertThat(HFileBulkLoad.regionUnreachable(new FileNotFoundException("no such HFile")))
        .isFalse();
    assertThat(HFileBulkLoad.regionUnreachable(new IOException("Unmatched family names")))
        .isFalse();
  }
}
