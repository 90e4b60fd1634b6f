package org.casebook.docs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** A document's JSON read into the values the service takes, in the order given. */
class DocumentJsonTest {
  @Test
  void valuesKeepTheirJsonKindsAndOrder() {
    Map<String, Object> read =
        DocumentJson.read(
            ("{\"b\":\"中文\",\"a\":42,\"big\":99999999999999999999,\"x\":0.5,\"t\":true,"
                    + "\"n\":null,\"l\":[\"p\",1],\"o\":{\"k\":[]}}")
                .getBytes(StandardCharsets.UTF_8));
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("b", "中文");
    expected.put("a", 42L);
    expected.put("big", new BigInteger("99999999999999999999"));
    expected.put("x", 0.5);
    expected.put("t", true);
    expected.put("n", null);
    expected.put("l", List.of("p", 1L));
    expected.put("o", Map.of("k", List.of()));
    assertThat(read).containsExactlyEntriesOf(expected);
  }

  @Test
  void aSliceOfBytesIsReadAndAnythingButOneObjectIsABodyError() {
    byte[] line = "xx{\"a\":1}yy".getBytes(StandardCharsets.UTF_8);
    assertThat(DocumentJson.read(line, 2, line.length - 4)).isEqualTo(Map.of("a", 1L));
    for (String bad : List.of("", "[]", "{\"a\":1} 2", "{\"a\":", "{\"a\":1,\"a\":2}")) {
      assertThatThrownBy(() -> DocumentJson.read(bad.getBytes(StandardCharsets.UTF_8)))
          .as(bad)
          .isInstanceOf(InvalidInputException.class)
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo("body");
    }
  }

  @Test
  void aCommandLineValueIsJsonIfItIsJsonElseText() {
    assertThat(DocumentJson.valueOrText("42")).isEqualTo(42L);
    assertThat(DocumentJson.valueOrText("[\"a\",\"b\"]")).isEqualTo(List.of("a", "b"));
    assertThat(DocumentJson.valueOrText("null")).isNull();
    assertThat(DocumentJson.valueOrText("\"quoted\"")).isEqualTo("quoted");
    for (String text : Arrays.asList("typo fixed", "42 apples", "{not json", "")) {
      assertThat(DocumentJson.valueOrText(text)).as(text).isEqualTo(text);
    }
  }
}
