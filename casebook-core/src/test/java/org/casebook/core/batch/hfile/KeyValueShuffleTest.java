package org.casebook.core.batch.hfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.junit.jupiter.api.Test;

class KeyValueShuffleTest {
  private static KeyValue kv(String row, String family, String qualifier, long ts, String value) {
    return new KeyValue(
        Bytes.toBytes(row),
        Bytes.toBytes(family),
        Bytes.toBytes(qualifier),
        ts,
        Bytes.toBytes(value));
  }

  @Test
  void rowsSurviveTheRoundTripAndEarlierValuesStayIntactWhenTheInstanceIsReused() throws Exception {
    List<KeyValue> first = List.of(kv("r1", "b", "name", 5, "ann"), kv("r1", "r", "F\0x", 5, ""));
    List<KeyValue> second = List.of(kv("r2", "t", "text", 7, "hello, world"));
    DataOutputBuffer out = new DataOutputBuffer();
    new KeyValueShuffle.RowCells(first).write(out);
    new KeyValueShuffle.RowCells(second).write(out);
    new KeyValueShuffle.RowCells(List.of()).write(out);

    DataInputBuffer in = new DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    KeyValueShuffle.RowCells reused = new KeyValueShuffle.RowCells();
    reused.readFields(in);
    List<KeyValue> kept = reused.cells();
    reused.readFields(in);
    List<KeyValue> keptSecond = reused.cells();
    reused.readFields(in);

    assertThat(kept).isEqualTo(first);
    assertThat(kept.get(0).getValueArray()).isNotSameAs(keptSecond.get(0).getValueArray());
    assertThat(
            Bytes.toString(
                kept.get(0).getValueArray(),
                kept.get(0).getValueOffset(),
                kept.get(0).getValueLength()))
        .isEqualTo("ann");
    assertThat(keptSecond).isEqualTo(second);
    assertThat(
            Bytes.toString(
                keptSecond.get(0).getValueArray(),
                keptSecond.get(0).getValueOffset(),
                keptSecond.get(0).getValueLength()))
        .isEqualTo("hello, world");
    assertThat(reused.cells()).isEmpty();
  }

  @Test
  void cellsComeOutInHBaseOrderWithTheFirstOfIdenticalCoordinatesKept() {
    List<KeyValue> cells =
        new ArrayList<>(
            List.of(
                kv("u1", "s", "900", 1, ""),
                kv("u1", "b", "name", 1, "first"),
                kv("u1", "s", "100", 1, ""),
                kv("u1", "b", "name", 1, "second copy"),
                kv("u1", "b", "name", 2, "newer"),
                kv("u1", "b", "age", 1, "3")));
    List<KeyValue> out = KeyValueShuffle.sortedDistinct(cells);
    assertThat(out)
        .extracting(
            c ->
                Bytes.toString(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength())
                    + ":"
                    + Bytes.toString(
                        c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
                    + "@"
                    + c.getTimestamp()
                    + "="
                    + Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength()))
        .containsExactly("b:age@1=3", "b:name@2=newer", "b:name@1=first", "s:100@1=", "s:900@1=");
  }
}
