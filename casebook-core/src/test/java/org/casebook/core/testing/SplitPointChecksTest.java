package org.casebook.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.junit.jupiter.api.Test;

class SplitPointChecksTest {
  private static final TableName T = TableName.valueOf("ns", "t");
  private static final TableSpec FOUR_BUCKETS =
      new TableSpec(T, List.of(FamilySpec.of("f")), SplitPoints.leadingByteBuckets(4), "bucket");

  private static List<byte[]> keys(int... perBucket) {
    List<byte[]> keys = new ArrayList<>();
    for (int b = 0; b < perBucket.length; b++) {
      for (int i = 0; i < perBucket[b]; i++) {
        keys.add(new byte[] {(byte) b, (byte) i});
      }
    }
    return keys;
  }

  @Test
  void evenKeysPass() {
    assertThat(SplitPointChecks.verify(List.of(FOUR_BUCKETS), Map.of(T, keys(30, 25, 20, 25))))
        .singleElement()
        .satisfies(r -> assertThat(r.maxShare()).isEqualTo(0.3));
  }

  @Test
  void aRegionNoKeyReachesFails() {
    assertThatThrownBy(
            () -> SplitPointChecks.verify(List.of(FOUR_BUCKETS), Map.of(T, keys(40, 40, 0, 20))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no key reaches");
  }

  @Test
  void aRegionTakingMoreThanItsShareFails() {
    assertThatThrownBy(
            () -> SplitPointChecks.verify(List.of(FOUR_BUCKETS), Map.of(T, keys(70, 10, 10, 10))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("largest region share");
  }

  @Test
  void aPreSplitTableWithoutKeysFailsAndAnUnsplitOneIsSkipped() {
    TableSpec unsplit =
        new TableSpec(
            TableName.valueOf("ns", "u"), List.of(FamilySpec.of("f")), SplitPoints.none(), "x");
    assertThat(SplitPointChecks.verify(List.of(unsplit), Map.of())).isEmpty();
    assertThatThrownBy(() -> SplitPointChecks.verify(List.of(FOUR_BUCKETS), Map.of()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("keys written to ns:t");
  }
}
