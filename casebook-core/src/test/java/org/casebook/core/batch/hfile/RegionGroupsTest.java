package org.casebook.core.batch.hfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RegionGroupsTest {
  private static List<byte[]> keys(String... ks) {
    List<byte[]> out = new ArrayList<>();
    for (String k : ks) {
      out.add(Bytes.toBytes(k));
    }
    return out;
  }

  @Test
  void groupsAreContiguousRunsOfRegions() {
    List<byte[]> starts = keys("a;", "a;2", "a;4", "a;6", "b;", "b;5", "c;");
    assertThat(RegionGroups.cuts(starts, 3))
        .extracting(Bytes::toString)
        .containsExactly("a;6", "c;");
    assertThat(RegionGroups.cuts(starts, 7)).hasSize(6);
    assertThat(RegionGroups.cuts(starts, 100)).as("never more groups than regions").hasSize(6);
    assertThat(RegionGroups.cuts(starts, 1)).isEmpty();
  }

  @Test
  void aKeyBelongsToTheLastRegionStartingAtOrBeforeIt() {
    byte[][] starts = keys("a;", "a;2", "a;4", "b;", "b;5").toArray(new byte[0][]);
    String[] probes = {"a;", "a;1", "a;2", "a;3zz", "a;9", "b;", "b;49", "b;5", "b;99"};
    int[] expected = {0, 0, 1, 1, 2, 3, 3, 4, 4};
    for (int i = 0; i < probes.length; i++) {
      byte[] padded = Bytes.add(Bytes.toBytes("xx"), Bytes.toBytes(probes[i]));
      assertThat(RegionGroups.regionOf(starts, padded, 2, padded.length - 2))
          .as(probes[i])
          .isEqualTo(expected[i]);
    }
  }

  @Test
  void balancedCutsGiveEachGroupAboutTheSameCellsWhereverTheRegionsAre() {
    // One region's table with 90 rows of one cell beside 10 rows of 9 cells: by cells, not by
    // regions or rows.
    List<HFileBulkLoad.SampledRow> sample = new ArrayList<>();
    for (int i = 0; i < 90; i++) {
      sample.add(new HFileBulkLoad.SampledRow(Bytes.toBytes(String.format("t;%03d", i)), 1));
    }
    for (int i = 0; i < 10; i++) {
      sample.add(new HFileBulkLoad.SampledRow(Bytes.toBytes(String.format("a;%03d", i)), 9));
    }
    java.util.Collections.shuffle(sample, new java.util.Random(3));
    List<byte[]> cuts = RegionGroups.balancedCuts(sample, 4);
    assertThat(cuts).extracting(Bytes::toString).containsExactly("a;005", "t;000", "t;045");
    assertThat(RegionGroups.balancedCuts(sample, 1)).isEmpty();
    assertThat(RegionGroups.balancedCuts(List.of(), 4)).isEmpty();
    List<HFileBulkLoad.SampledRow> same = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      same.add(new HFileBulkLoad.SampledRow(Bytes.toBytes("t;x"), 1));
    }
    assertThat(RegionGroups.balancedCuts(same, 4)).as("cuts are distinct").hasSizeLessThan(2);
  }
}
