package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.type.TypeReference;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.docs.wire.DocumentJson;
import org.junit.jupiter.api.Test;

/**
 * The wire's one-pass reading of a document (bulk lines, REST bodies) checks out as the Java API's
 * maps (as Jackson binds the same JSON) do, and the cell encodings round-trip.
 */
class DocCodecTest {
  private static final DocType BLOG = DefaultTypes.BLOG;

  /** A document line read by the wire's streaming reader, then checked against its type. */
  private static Map<String, Object> streaming(byte[] json) {
    return FieldValues.typed(BLOG, DocumentJson.read(json), false);
  }

  /** The same JSON bound to a map by Jackson (what a Java caller may pass), then checked. */
  private static Map<String, Object> bound(String json) throws Exception {
    return FieldValues.typed(
        BLOG, Json.mapper().readValue(json, new TypeReference<Map<String, Object>>() {}), false);
  }

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
      assertThat(streaming(utf8(d))).as(d).isEqualTo(bound(d));
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
          catchThrowableOfType(InvalidInputException.class, () -> streaming(utf8(e.getKey())));
      InvalidInputException tree =
          catchThrowableOfType(InvalidInputException.class, () -> bound(e.getKey()));
      assertThat(streaming).as(e.getKey()).isNotNull();
      assertThat(streaming.field()).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(tree.field()).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(streaming.getMessage()).as(e.getKey()).isEqualTo(tree.getMessage());
    }
    for (String broken :
        List.of("[1]", "{\"title\":\"a\",\"title\":\"b\"}", "{} {}", "{\"title\"")) {
      InvalidInputException x =
          catchThrowableOfType(InvalidInputException.class, () -> streaming(utf8(broken)));
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
      assertThat(FieldValues.plainInstant(s)).as(s).isEqualTo(Instant.parse(s).toEpochMilli());
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
      assertThat(FieldValues.plainInstant(s)).as(s).isEqualTo(-1);
    }
  }

  @Test
  void aFamilyCellHoldsItsFieldsButTheCounters() {
    Map<String, Object> values =
        streaming(
            utf8(
                "{\"title\":\"标题\",\"created\":5,\"views\":7,\"sentiment\":0.25,\"tags\":[\"a\",\"b\"]}"));
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

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
