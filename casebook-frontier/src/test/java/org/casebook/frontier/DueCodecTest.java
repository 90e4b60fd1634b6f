package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class DueCodecTest {
  @Test
  void aStampRoundTripsScheduledOrNot() {
    DueStamp at = DueStamp.at(1_789_000_000_000L);
    DueStamp none = DueStamp.none();
    assertThat(DueCodec.stamp(DueCodec.stamp(at))).isEqualTo(at);
    assertThat(DueCodec.stamp(DueCodec.stamp(none))).isEqualTo(none);
    assertThat(none.scheduled()).isFalse();
    assertThat(DueCodec.stamp((byte[]) null)).isNull();
  }

  @Test
  void aTimeWrittenBeforeTokensReadsAsTokenZeroAndIsWrittenBackAsItWas() {
    byte[] old = Bytes.toBytes(1_789_000_000_000L);
    DueStamp s = DueCodec.stamp(old);
    assertThat(s).isEqualTo(new DueStamp(1_789_000_000_000L, 0));
    assertThat(DueCodec.stamp(s)).isEqualTo(old);
  }

  @Test
  void newStampsNeverRepeatAValue() {
    DueStamp a = DueStamp.at(5);
    DueStamp b = DueStamp.at(5);
    assertThat(a).isNotEqualTo(b);
    assertThat(a.token()).isNotZero();
    assertThat(DueCodec.stamp(a)).isNotEqualTo(DueCodec.stamp(b));
    assertThatThrownBy(() -> new DueStamp(null, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDueRowIsTheStampsOwnOnlyWithItsTimeAndTokenAndPendingOnlyOnTheStampItReplaces() {
    byte[] host = FrontierKeys.hostId("example.com");
    DueStamp before = DueStamp.at(10);
    DueStamp after = DueStamp.at(20);
    DueHost row = DueHost.of(after, host, before);
    assertThat(row.isRowOf(after)).isTrue();
    assertThat(row.isRowOf(new DueStamp(20L, after.token() + 1))).isFalse();
    assertThat(row.isRowOf(before)).isFalse();
    assertThat(row.pendingOn(before)).isTrue();
    assertThat(row.pendingOn(after)).isFalse();
    assertThat(row.pendingOn(DueStamp.at(10))).as("the same time, another stamp").isFalse();
    assertThat(DueHost.of(after, host, null).pendingOn(null)).isTrue();
    assertThat(new DueHost(20, host, 0, null).pendingOn(null))
        .as("a row written before tokens")
        .isFalse();
  }
}
