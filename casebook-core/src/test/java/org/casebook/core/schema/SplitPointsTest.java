package org.casebook.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SplitPointsTest {
  @Test
  void routesKeysLikeHBase() {
    SplitPoints s = SplitPoints.of(List.of(new byte[] {10}, new byte[] {20}), "test");
    assertThat(s.regionCount()).isEqualTo(3);
    assertThat(s.regionOf(new byte[] {0})).isZero();
    assertThat(s.regionOf(new byte[] {9, (byte) 0xFF})).isZero();
    assertThat(s.regionOf(new byte[] {10})).isEqualTo(1);   // a split point starts its region
    assertThat(s.regionOf(new byte[] {19})).isEqualTo(1);
    assertThat(s.regionOf(new byte[] {20, 0})).isEqualTo(2);
    assertThat(s.regionOf(new byte[] {(byte) 0xFF})).isEqualTo(2);
  }

  @Test
  void bucketsAndUniformPoints() {
    assertThat(SplitPoints.leadingByteBuckets(8).regionCount()).isEqualTo(8);
    assertThat(SplitPoints.leadingByteBuckets(8).regionOf(new byte[] {7, 1})).isEqualTo(7);
    SplitPoints u = SplitPoints.uniform(4);
    assertThat(u.points()).extracting(p -> (p[0] & 0xFF)).containsExactly(0x40, 0x80, 0xC0);
  }

  @Test
  void rejectsDuplicatesAndEmptyPoints() {
    assertThatThrownBy(() -> SplitPoints.of(List.of(new byte[] {1}, new byte[] {1}), "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SplitPoints.of(List.of(new byte[0]), "x")).isInstanceOf(IllegalArgumentException.class);
  }
}
