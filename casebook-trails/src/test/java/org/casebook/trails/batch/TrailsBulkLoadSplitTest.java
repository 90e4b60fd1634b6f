package org.casebook.trails.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TrailsBulkLoadSplitTest {
  private static final long MIB = 1L << 20;

  @Test
  void aLargeLogIsSplitSoEachMapsOutputFitsOneSortBuffer() {
    Configuration conf = new Configuration(false);
    conf.setInt("mapreduce.task.io.sort.mb", 128);
    long split = TrailsBulkLoad.localSplitBytes(11_000 * MIB, conf);
    long bufferFill = (long) (128 * MIB * 0.8);
    assertThat(split * TrailsBulkLoad.SHUFFLE_BYTES_PER_LOG_BYTE).isLessThanOrEqualTo(bufferFill);
    assertThat(split).isGreaterThan(bufferFill / TrailsBulkLoad.SHUFFLE_BYTES_PER_LOG_BYTE - 1024);
  }

  @Test
  void aLargerSortBufferOrFillTakesLargerSplits() {
    Configuration small = new Configuration(false);
    small.setInt("mapreduce.task.io.sort.mb", 128);
    Configuration large = new Configuration(false);
    large.setInt("mapreduce.task.io.sort.mb", 512);
    Configuration fuller = new Configuration(false);
    fuller.setInt("mapreduce.task.io.sort.mb", 128);
    fuller.setFloat("mapreduce.map.sort.spill.percent", 0.95f);
    long log = 100_000 * MIB;
    long base = TrailsBulkLoad.localSplitBytes(log, small);
    assertThat(TrailsBulkLoad.localSplitBytes(log, large)).isBetween(4 * base, 4 * base + 4);
    assertThat(TrailsBulkLoad.localSplitBytes(log, fuller)).isGreaterThan(base);
  }

  @Test
  void aSmallLogKeepsEveryCoreMappingAboveAFloor() {
    Configuration conf = new Configuration(false);
    int cores = Runtime.getRuntime().availableProcessors();
    long log = 64 * MIB * cores;
    assertThat(TrailsBulkLoad.localSplitBytes(log, conf))
        .isEqualTo(Math.max(4 * MIB, log / (4L * cores)));
    assertThat(TrailsBulkLoad.localSplitBytes(MIB, conf)).isEqualTo(4 * MIB);
  }
}
