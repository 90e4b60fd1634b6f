package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link HistoryCodec}: a history cell's JSON value, both ways. */
class HistoryCodecTest {
  private static final long TS = 1_789_058_183_302L;

  @Test
  void everyBehavioursRecordComesBackWithItsFieldsInOrder() {
    for (Behaviour b : Behaviour.BUILT_INS) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (Behaviour.Field f : b.fields()) {
        fields.put(f.name(), f.kind() == Behaviour.Kind.TEXT ? "v \"" + f.name() + "\"" : "12");
      }
      Event e = new Event("u,1", b, TS, fields);
      Event back = HistoryCodec.decode("u,1", TS, HistoryCodec.encode(e), Behaviours.BUILT_INS);
      assertThat(back).isEqualTo(e);
      assertThat(List.copyOf(back.fields().keySet()))
          .containsExactlyElementsOf(b.fields().stream().map(Behaviour.Field::name).toList());
    }
  }

  @Test
  void theValueIsTheRecordWithoutItsKeyPartsAndEveryFieldAsText() {
    Event e =
        new Event("10000745", Behaviour.ORDER, TS, Map.of("product", "p141", "price", "73.69"));
    String json = new String(HistoryCodec.encode(e), StandardCharsets.UTF_8);
    assertThat(json).startsWith("{\"type\":\"order\",").doesNotContain("10000745");
    assertThat(json).contains("\"price\":\"73.69\"").contains("\"product\":\"p141\"");
  }

  @Test
  void keysNeitherFieldsNorExtrasAreDroppedAndACorruptValueNamesItsUserAndTime() {
    byte[] value =
        "{\"type\":\"visit\",\"page\":\"home\",\"column\":\"hot\",\"colour\":\"red\"}"
            .getBytes(StandardCharsets.UTF_8);
    assertThat(HistoryCodec.decode("u", TS, value, Behaviours.BUILT_INS))
        .isEqualTo(new Event("u", Behaviour.VISIT, TS, Map.of("page", "home", "column", "hot")));
    byte[] corrupt = "{\"type\":\"share\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> HistoryCodec.decode("u", TS, corrupt, Behaviours.BUILT_INS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("u at " + TS);
  }
}
