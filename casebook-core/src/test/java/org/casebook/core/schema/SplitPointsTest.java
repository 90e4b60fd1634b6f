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
    assertThat(s.regionOf(new byte[] {10})).isEqualTo(1); // a split point starts its region
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
  void regionIdentifiersMapOneToOneOntoRegions() {
    SplitPoints s = SplitPoints.regionPrefixes(300);
    assertThat(s.regionCount()).isEqualTo(300);
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
    for (int i = 0; i < 5000; i++) {
      int region = rnd.nextInt(300);
      byte[] key =
          org.casebook.core.key.KeyBuilder.create()
              .addRegionId(region, 300)
              .addString("user" + rnd.nextInt())
              .addLong(rnd.nextLong())
              .build();
      assertThat(s.regionOf(key)).isEqualTo(region);
      assertThat(new org.casebook.core.key.KeyReader(key).readRegionId()).isEqualTo(region);
    }
    assertThatThrownBy(() -> org.casebook.core.key.KeyBuilder.create().addRegionId(300, 300))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsDuplicatesAndEmptyPoints() {
    assertThatThrownBy(() -> SplitPoints.of(List.of(new byte[] {1}, new byte[] {1}), "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SplitPoints.of(List.of(new byte[0]), "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
