package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.testing.KeyLayoutChecks;
import org.casebook.trails.wire.LogParser;
import org.junit.jupiter.api.Test;

class TrailsKeysTest {
  /** The README's worked example record. */
  private static final String EXAMPLE =
      "{\"uid\":\"10000745\",\"type\":\"order\",\"ts\":\"2026-09-10T16:36:23.302Z\","
          + "\"product\":\"p141\",\"price\":73.69}";

  @Test
  void everyLayoutRoundTripsAndKeepsItsOrder() {
    for (KeyLayout layout : TrailsKeys.ALL) {
      KeyLayoutChecks.verify(layout, 400);
    }
  }

  @Test
  void theDescriptorListsEveryLayout() {
    assertThat(new TrailsSystem().descriptor().keys())
        .containsExactlyElementsOf(TrailsKeys.ALL)
        .hasSize(7);
  }

  @Test
  void theReadmeWorkedExampleIsWhatTheLayoutsPrint() throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    Event e = LogParser.parse(EXAMPLE, Behaviours.BUILT_INS).event().orElseThrow();
    int day = TrailsKeys.epochDay(e.ts());
    int ms = TrailsKeys.msOfDay(e.ts());
    int hash = TrailsKeys.recordHash(e);
    assertThat(readme).contains(EXAMPLE);
    assertThat(readme)
        .contains("day " + day)
        .contains(String.format(java.util.Locale.ROOT, "%,d", ms))
        .contains("hash " + hash)
        .contains("ts " + e.ts());
    assertThat(readme).contains(TrailsKeys.EVENT_ROW.explain(e.uid(), day, e.type().id()));
    assertThat(readme).contains(TrailsKeys.EVENT_COLUMN.explain("product", ms, hash));
    assertThat(readme).contains(TrailsKeys.EVENT_COLUMN.explain("price", ms, hash));
    assertThat(readme).contains(TrailsKeys.TALL_ROW.explain(e.uid(), e.ts(), hash));
    assertThat(readme).contains(TrailsKeys.WIDE_ROW.explain(e.uid()));
    assertThat(readme).contains(TrailsKeys.WIDE_COLUMN.explain(e.ts(), hash));
    assertThat(readme).contains(new String(HistoryCodec.encode(e), StandardCharsets.UTF_8));
  }

  @Test
  void theReadmeRegistryExampleIsWhatTheLayoutsPrint() throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    String line =
        "{\"uid\":\"10000745\",\"type\":\"watch\",\"ts\":\"2026-09-10T16:36:23.302Z\","
            + "\"contentId\":\"c9\",\"seconds\":1800,\"campaign\":\"autumn\"}";
    Behaviours known =
        Behaviours.withDeclared(
            List.of(
                Behaviour.declared(
                    5,
                    "watch",
                    List.of(
                        new Behaviour.Field("contentId", Behaviour.Kind.TEXT),
                        new Behaviour.Field("seconds", Behaviour.Kind.COUNT)))));
    Event e = LogParser.parse(line, known).event().orElseThrow();
    int day = TrailsKeys.epochDay(e.ts());
    int ms = TrailsKeys.msOfDay(e.ts());
    int hash = TrailsKeys.recordHash(e);
    assertThat(readme).contains(line).contains("record hash " + hash);
    assertThat(readme)
        .contains("registry row       " + TrailsKeys.REGISTRY_ROW.explain("watch") + " ")
        .contains(
            "registry ids row   " + TrailsKeys.REGISTRY_ROW.explain(TrailsKeys.IDS_ROW_NAME) + " ")
        .contains("b: " + TrailsKeys.REGISTRY_ID_COLUMN.explain(5) + " = \"watch\"")
        .contains("events row   " + TrailsKeys.EVENT_ROW.explain(e.uid(), day, 5) + " ");
    for (String field : List.of("contentId", "seconds", TrailsKeys.EXTRA_MARK + "campaign")) {
      assertThat(readme).contains("d: " + TrailsKeys.EVENT_COLUMN.explain(field, ms, hash) + " = ");
    }
    assertThat(readme)
        .contains("h:e = " + new String(HistoryCodec.encode(e), StandardCharsets.UTF_8));
  }

  @Test
  void keysDecodeToWhatWasEncoded() {
    byte[] row = TrailsKeys.eventRow("1,2", 20_706, Behaviour.ORDER);
    assertThat(TrailsKeys.eventRowOf(row))
        .isEqualTo(new TrailsKeys.EventRow("1,2", 20_706, Behaviour.ORDER.id()));
    assertThat(TrailsKeys.eventDays("1,2", 20_700, 20_706).contains(row)).isTrue();
    assertThat(TrailsKeys.eventDays("1,2", 20_700, 20_705).contains(row)).isFalse();
    assertThat(TrailsKeys.eventDays("1", 20_700, 20_706).contains(row)).isFalse();
    long ts = 1_789_058_183_302L;
    assertThat(TrailsKeys.eventColumn(TrailsKeys.eventQualifier("price", ts, -5)))
        .isEqualTo(new TrailsKeys.EventColumn("price", TrailsKeys.msOfDay(ts), -5));
    assertThat(TrailsKeys.tallPosition(TrailsKeys.tallRow("u", ts, 7)))
        .isEqualTo(new TrailsKeys.Position(ts, 7));
    assertThat(TrailsKeys.widePosition(TrailsKeys.wideQualifier(ts, 7)))
        .isEqualTo(new TrailsKeys.Position(ts, 7));
  }

  @Test
  void qualifiersMatchedByFieldPrefixDecodeAsTheLayoutDoes() {
    int[] hashes = {0, 1, -1, -5, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7F00_0001};
    long[] times = {0L, 1_789_058_183_302L, 1_789_085_999_999L};
    for (Behaviour b : Behaviour.BUILT_INS) {
      for (int f = 0; f < b.fields().size(); f++) {
        for (long ts : times) {
          for (int hash : hashes) {
            byte[] q = TrailsKeys.eventQualifier(b.fields().get(f).name(), ts, hash);
            // Inside a larger array, as in a cell's backing buffer.
            byte[] buffer = new byte[q.length + 7];
            System.arraycopy(q, 0, buffer, 3, q.length);
            assertThat(TrailsKeys.fieldIndex(b, buffer, 3, q.length)).isEqualTo(f);
            assertThat(TrailsKeys.columnId(buffer, 3, q.length))
                .isEqualTo(TrailsKeys.eventColumn(q).columnId());
          }
        }
      }
    }
    long ts = times[1];
    // Another behaviour's field, a field name's prefix, a cut or a lengthened qualifier: no match.
    byte[] price = qualifier("price", ts);
    assertThat(TrailsKeys.fieldIndex(Behaviour.LOGIN, price, 0, price.length)).isEqualTo(-1);
    assertThat(TrailsKeys.fieldIndex(Behaviour.ORDER, price, 0, price.length - 1)).isEqualTo(-1);
    byte[] longer = java.util.Arrays.copyOf(price, price.length + 1);
    assertThat(TrailsKeys.fieldIndex(Behaviour.ORDER, longer, 0, longer.length)).isEqualTo(-1);
    byte[] pric = qualifier("pric", ts);
    assertThat(TrailsKeys.fieldIndex(Behaviour.ORDER, pric, 0, pric.length)).isEqualTo(-1);
    // Ids order as (millisecond of day, hash).
    assertThat(TrailsKeys.columnId(qualifier("price", ts, -1), 0, price.length))
        .isGreaterThan(TrailsKeys.columnId(qualifier("price", ts, 5), 0, price.length))
        .isLessThan(TrailsKeys.columnId(qualifier("price", ts + 1, 5), 0, price.length));
  }

  private static byte[] qualifier(String field, long ts) {
    return qualifier(field, ts, 42);
  }

  private static byte[] qualifier(String field, long ts, int hash) {
    return TrailsKeys.eventQualifier(field, ts, hash);
  }
}
