package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.junit.jupiter.api.Test;

/** The bulk path's one-pass parsing and encodings agree with the general ones. */
class DocCodecTest {
  private static final DocType BLOG = DefaultTypes.BLOG;
  private static final UnaryOperator<DocType> SAME = t -> t;

  @Test
  void streamingParseGivesWhatTheTreeParseGives() throws Exception {
    List<String> docs =
        List.of(
            "{\"title\":\"t\\u00e9 \\\"q\\\"\",\"content\":\"a\\nb\\tc 中文 \\ud83d\\ude00\","
                + "\"created\":\"2026-09-10T00:00:00Z\",\"url\":\"https://a.com/p\","
                + "\"views\":42,\"likes\":-1,\"sentiment\":0.5,\"tags\":[\"x\",\"y z\"],"
                + "\"author\":null}",
            "{\"created\":1788998400123,\"sentiment\":3,\"tags\":[]}",
            "{\"created\":\"2026-09-10T00:00:00.5Z\"}",
            "{\"created\":\"2026-09-10T01:02:03.123Z\"}",
            "{\"created\":\"2026-09-10T01:02:03+08:00\"}");
    for (String d : docs) {
      JsonNode tree = Json.mapper().readTree(d);
      assertThat(DocCodec.parse(BLOG, utf8(d), SAME))
          .as(d)
          .isEqualTo(DocCodec.parse(BLOG, tree, false));
    }
  }

  @Test
  void streamingParseRejectsWhatTheTreeParseRejectsNamingTheField() throws Exception {
    Map<String, String> bad =
        Map.ofEntries(
            Map.entry("{\"nope\":1}", "nope"),
            Map.entry("{\"views\":1.5}", "views"),
            Map.entry("{\"views\":\"1\"}", "views"),
            Map.entry("{\"views\":99999999999999999999}", "views"),
            Map.entry("{\"sentiment\":\"x\"}", "sentiment"),
            Map.entry("{\"title\":1}", "title"),
            Map.entry("{\"title\":\"a\\u0001b\"}", "title"),
            Map.entry("{\"url\":\" \"}", "url"),
            Map.entry("{\"url\":\"a\\nb\"}", "url"),
            Map.entry("{\"tags\":\"x\"}", "tags"),
            Map.entry("{\"tags\":[\"x\",1]}", "tags[1]"),
            Map.entry("{\"created\":\"yesterday\"}", "created"),
            Map.entry("{\"created\":\"2026-02-30T00:00:00Z\"}", "created"),
            Map.entry("{\"created\":-5}", "created"),
            Map.entry("{\"content\":\"\\ud83d\"}", "content"));
    for (Map.Entry<String, String> e : bad.entrySet()) {
      InvalidInputException streaming =
          catchThrowableOfType(
              () -> DocCodec.parse(BLOG, utf8(e.getKey()), SAME), InvalidInputException.class);
      InvalidInputException tree =
          catchThrowableOfType(
              () -> DocCodec.parse(BLOG, Json.mapper().readTree(e.getKey()), false),
              InvalidInputException.class);
      assertThat(streaming).as(e.getKey()).isNotNull();
      assertThat(streaming.field()).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(tree.field()).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(streaming.getMessage()).as(e.getKey()).isEqualTo(tree.getMessage());
    }
    for (String broken :
        List.of("[1]", "{\"title\":\"a\",\"title\":\"b\"}", "{} {}", "{\"title\"")) {
      InvalidInputException x =
          catchThrowableOfType(
              () -> DocCodec.parse(BLOG, utf8(broken), SAME), InvalidInputException.class);
      assertThat(x).as(broken).isNotNull();
      assertThat(x.field()).as(broken).isEqualTo("body");
    }
  }

  @Test
  void plainInstantsAreWhatInstantParseSaysAndOthersAreLeftToIt() {
    for (String s :
        List.of(
            "1970-01-01T00:00:00Z",
            "2026-09-10T23:59:59Z",
            "2024-02-29T12:00:00.007Z",
            "2099-12-31T00:00:00.999Z")) {
      assertThat(DocCodec.plainInstant(s)).as(s).isEqualTo(Instant.parse(s).toEpochMilli());
    }
    for (String s :
        List.of(
            "1969-12-31T23:59:59Z",
            "2026-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-09-10T24:00:00Z",
            "2026-09-10T23:59:60Z",
            "2026-09-10T0a:00:00Z",
            "2026-09-10T00:00:00.5Z",
            "2026-09-10 00:00:00Z")) {
      assertThat(DocCodec.plainInstant(s)).as(s).isEqualTo(-1);
    }
  }

  @Test
  void aFamilyCellHoldsItsFieldsButTheCounters() {
    Map<String, Object> values =
        DocCodec.parse(
            BLOG,
            utf8(
                "{\"title\":\"标题\",\"created\":5,\"views\":7,\"sentiment\":0.25,\"tags\":[\"a\",\"b\"]}"),
            SAME);
    Map<String, byte[]> cells = new java.util.HashMap<>();
    for (Family f : Family.values()) {
      byte[] cell = DocCodec.encodeFamily(BLOG, f, values);
      DocCodec.decodeFamily(cell, 0, cell.length, cells);
    }
    assertThat(cells).containsOnlyKeys("title", "created", "sentiment", "tags");
    for (String name : cells.keySet()) {
      FieldDef f = BLOG.field(name).orElseThrow();
      assertThat(DocCodec.decode(f.kind(), cells.get(name))).isEqualTo(values.get(name));
    }
  }

  @Test
  void plainActionLinesReadAsTheRecordBindingReadsThem() {
    for (String line :
        List.of(
            "{\"index\":{\"_index\":\"blog\",\"_id\":\"https://a.com/1\"}}",
            "{\"create\":{\"_id\":\"x\",\"_index\":\"comment\",\"parent\":{\"type\":\"blog\",\"id\":\"p\"}}}",
            "{\"delete\":{\"_index\":\"blog\",\"_id\":\"x\"}}",
            "{\"index\":{\"_index\":\"blog\"}}")) {
      assertThat(plainAction(line))
          .as(line)
          .isEqualTo(
              Json.readBody(
                  line.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                  BulkLoader.BulkAction.class));
    }
    for (String odd :
        List.of(
            "{\"index\":{\"_index\":\"blog\",\"_id\":null}}",
            "{\"index\":{\"_index\":\"blog\"},\"create\":{\"_index\":\"blog\"}}",
            "{\"index\":{\"_index\":\"blog\",\"other\":1}}",
            "{\"index\":{\"_index\":\"blog\",\"_index\":\"bbs\"}}",
            "{\"index\":{\"_index\":\"blog\",\"parent\":{\"type\":\"blog\"}}}",
            "{\"update\":{\"_index\":\"blog\"}}",
            "{\"index\":{\"_index\":\"blog\"}} x")) {
      assertThat(plainAction(odd)).as(odd).isNull();
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static BulkLoader.BulkAction plainAction(String line) {
    byte[] b = utf8(line);
    return BulkLoader.plainAction(b, 0, b.length);
  }
}
