package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class PointCodecTest {
  private static final int HOUR = 489_000; // 2025-10-14T00:00Z in hours since the epoch
  private static final long BASE = HOUR * 3_600_000L;

  @Test
  void secondQualifiersAreTwoBytesAsOpenTsdbWritesThem() {
    // 42 s into the hour, an integer of 1 byte: (42 << 4) | 0 = 0x02A0.
    byte[] q = PointCodec.qualifier(BASE + 42_000, false, PointCodec.flags(true, 1));
    assertThat(Bytes.toHex(q)).isEqualTo("02a0");
    // A 4-byte float at the last second of the hour: (3599 << 4) | 0x8 | 3 = 0xE0FB.
    q = PointCodec.qualifier(BASE + 3_599_000, false, PointCodec.flags(false, 4));
    assertThat(Bytes.toHex(q)).isEqualTo("e0fb");
  }

  @Test
  void millisecondQualifiersAreFourBytesWithTheMsFlag() {
    byte[] q = PointCodec.qualifier(BASE + 1_234, true, PointCodec.flags(true, 2));
    assertThat(q).hasSize(4);
    assertThat(q[0] & 0xF0).isEqualTo(0xF0);
    DataPoint p = PointCodec.decodeColumn(HOUR, q, new byte[] {0x01, 0x00});
    assertThat(p).isEqualTo(DataPoint.ofLong(BASE + 1_234, 256));
  }

  @Test
  void valuesTakeTheFewestBytesAndReadBackExactly() {
    long[] ints = {0, -1, 127, -128, 128, 32_767, -32_769, Integer.MAX_VALUE, Long.MIN_VALUE};
    int[] widths = {1, 1, 1, 1, 2, 2, 4, 4, 8};
    for (int i = 0; i < ints.length; i++) {
      DataPoint p = DataPoint.ofLong(BASE + 7_000, ints[i]);
      byte[] v = PointCodec.value(p, false);
      assertThat(v).hasSize(widths[i]);
      byte[] q = PointCodec.qualifier(p.timestampMs(), false, PointCodec.flags(true, v.length));
      assertThat(PointCodec.decodeColumn(HOUR, q, v)).isEqualTo(p);
    }
    DataPoint f = DataPoint.ofDouble(BASE, 1.5);
    assertThat(PointCodec.value(f, true)).hasSize(4);
    DataPoint d = DataPoint.ofDouble(BASE, 1.1);
    byte[] v = PointCodec.value(d, false);
    assertThat(v).hasSize(8);
    assertThat(PointCodec.decodeColumn(HOUR, PointCodec.qualifier(BASE, false, 0xF), v))
        .isEqualTo(d);
  }

  @Test
  void aCompactedCellHoldsEveryPointOfTheRow() {
    Random r = new Random(7);
    for (boolean seconds : new boolean[] {true, false}) {
      List<DataPoint> points = new ArrayList<>();
      long t = BASE;
      long counter = 1_000_000;
      for (int i = 0; i < 360; i++) {
        t += seconds ? 10_000 : 1 + r.nextInt(9_000);
        if (t >= BASE + 3_600_000) {
          break;
        }
        counter += r.nextInt(5000);
        points.add(
            switch (i % 3) {
              case 0 -> DataPoint.ofLong(t, i % 2 == 0 ? counter : -counter);
              case 1 -> DataPoint.ofDouble(t, (float) r.nextGaussian());
              default -> DataPoint.ofDouble(t, r.nextGaussian());
            });
      }
      byte[] cell = PointCodec.compact(HOUR, points);
      assertThat(PointCodec.expand(HOUR, cell)).isEqualTo(points);
    }
  }

  @Test
  void aSteadyCounterCompactsToAboutThreeBytesAPoint() {
    List<DataPoint> points = new ArrayList<>();
    for (int i = 0; i < 360; i++) {
      points.add(DataPoint.ofLong(BASE + i * 10_000L, 5_000_000L + i * 1_000L));
    }
    assertThat(PointCodec.compact(HOUR, points).length).isLessThan(360 * 3 + 8);
  }

  @Test
  void rawColumnsOverrideTheCompactedCellForTheSameTime() {
    List<DataPoint> compacted =
        List.of(DataPoint.ofLong(BASE, 1), DataPoint.ofLong(BASE + 10_000, 2));
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(PointCodec.COMPACTED, PointCodec.compact(HOUR, compacted));
    DataPoint rewritten = DataPoint.ofLong(BASE + 10_000, 20);
    byte[] v = PointCodec.value(rewritten, false);
    cells.put(PointCodec.qualifier(BASE + 10_000, false, PointCodec.flags(true, v.length)), v);
    DataPoint late = DataPoint.ofLong(BASE + 5_000, 5);
    byte[] lv = PointCodec.value(late, false);
    cells.put(PointCodec.qualifier(BASE + 5_000, false, PointCodec.flags(true, lv.length)), lv);
    assertThat(PointCodec.rowPoints(HOUR, cells))
        .containsExactly(DataPoint.ofLong(BASE, 1), late, rewritten);
  }

  @Test
  void aValueOfTheWrongLengthIsRefused() {
    byte[] q = PointCodec.qualifier(BASE, false, PointCodec.flags(true, 2));
    assertThatThrownBy(() -> PointCodec.decodeColumn(HOUR, q, new byte[] {1}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
