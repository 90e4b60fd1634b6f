package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** {@link TrailsRowCodec#decodeRow}: a row's cells back into events, without HBase. */
class TrailsRowCodecTest {
  private static final int DAY = 20_706;
  private static final long DAY_START = TrailsKeys.startOfDay(DAY);
  private static final byte[] ROW = TrailsKeys.eventRow("u,1", DAY, Behaviour.ORDER);

  @Test
  void cellsGroupIntoEventsInTimeOrderWithFieldsInTheBehavioursOrder() {
    List<Cell> cells = new ArrayList<>();
    // Sorted as HBase returns them: by field, then column id.
    cells.add(cell(TrailsKeys.eventQualifier("price", DAY_START + 500, -3), "2.50"));
    cells.add(cell(TrailsKeys.eventQualifier("price", DAY_START + 1_000, 7), "1.00"));
    cells.add(cell(TrailsKeys.eventQualifier("product", DAY_START + 500, -3), "p2"));
    cells.add(cell(TrailsKeys.eventQualifier("product", DAY_START + 500, 9), "p3"));
    cells.add(cell(TrailsKeys.eventQualifier("product", DAY_START + 1_000, 7), "p1"));

    List<Event> out = new ArrayList<>();
    TrailsRowCodec.decodeRow("u,1", DAY, Behaviour.ORDER, Result.create(cells), out);

    assertThat(out)
        .containsExactly(
            new Event("u,1", Behaviour.ORDER, DAY_START + 500, Map.of("product", "p3")),
            new Event(
                "u,1", Behaviour.ORDER, DAY_START + 500, Map.of("product", "p2", "price", "2.50")),
            new Event(
                "u,1",
                Behaviour.ORDER,
                DAY_START + 1_000,
                Map.of("product", "p1", "price", "1.00")));
    // Hash 9 sorts before -3: the low half of the id is unsigned.
    assertThat(List.copyOf(out.get(1).fields().keySet())).containsExactly("product", "price");
  }

  @Test
  void aFieldTheBehaviourLacksStillMarksItsEvent() {
    Result r =
        Result.create(List.of(cell(TrailsKeys.eventQualifier("colour", DAY_START + 42, 1), "red")));
    List<Event> out = new ArrayList<>();
    TrailsRowCodec.decodeRow("u,1", DAY, Behaviour.ORDER, r, out);
    assertThat(out).containsExactly(new Event("u,1", Behaviour.ORDER, DAY_START + 42, Map.of()));
  }

  @Test
  void aMalformedQualifierIsReported() {
    byte[] q = TrailsKeys.eventQualifier("price", DAY_START, 1);
    byte[] cut = java.util.Arrays.copyOf(q, q.length - 3);
    Result r = Result.create(List.of(cell(cut, "1.00")));
    assertThatThrownBy(
            () -> TrailsRowCodec.decodeRow("u,1", DAY, Behaviour.ORDER, r, new ArrayList<>()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Cell cell(byte[] qualifier, String value) {
    return new KeyValue(ROW, TrailsSchema.D, qualifier, 1L, Bytes.toBytes(value));
  }
}
