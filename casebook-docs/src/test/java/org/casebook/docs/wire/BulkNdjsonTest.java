package org.casebook.docs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.docs.BulkAction;
import org.casebook.docs.DocRef;
import org.junit.jupiter.api.Test;

/**
 * The bulk reader: actions and their document lines with the request's line numbers, and the fast
 * path for action lines agreeing with the strict record binding.
 */
class BulkNdjsonTest {
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
              Json.readBody(line.getBytes(StandardCharsets.UTF_8), BulkNdjson.ActionLine.class));
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

  private static BulkNdjson.ActionLine plainAction(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    return BulkNdjson.plainAction(b, 0, b.length);
  }

  private static List<BulkAction> read(String ndjson) {
    List<BulkAction> out = new ArrayList<>();
    Iterator<BulkAction> it =
        BulkNdjson.actions(new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)));
    it.forEachRemaining(out::add);
    return out;
  }

  @Test
  void actionsCarryTheirLinesAndTheirDocumentsUnread() {
    List<BulkAction> actions =
        read(
            """
            {"index":{"_index":"blog","_id":"a"}}\r
            {"title":"t","views":7}

              \t
            {"delete":{"_index":"blog","_id":"b"}}
            {"create":{"_index":"comment","parent":{"type":"blog","id":"a"}}}
            {"content":"c"}""");
    assertThat(actions).extracting(BulkAction::line).containsExactly(1, 5, 6);
    assertThat(actions).extracting(BulkAction::action).containsExactly("index", "delete", "create");
    BulkAction index = actions.get(0);
    assertThat(index.type()).isEqualTo("blog");
    assertThat(index.id()).isEqualTo("a");
    assertThat(index.problem()).isNull();
    assertThat(index.document().bytes()).isEqualTo("{\"title\":\"t\",\"views\":7}".length());
    assertThat(index.document().fields()).isEqualTo(Map.of("title", "t", "views", 7L));
    BulkAction delete = actions.get(1);
    assertThat(delete.isDelete()).isTrue();
    assertThat(delete.document()).isNull();
    BulkAction create = actions.get(2);
    assertThat(create.id()).isNull();
    assertThat(create.parent()).isEqualTo(new DocRef("blog", "a"));
    assertThat(create.document().fields()).isEqualTo(Map.of("content", "c"));
  }

  @Test
  void aBadActionLineIsReportedAndStillTakesItsDocumentLine() {
    List<BulkAction> actions =
        read(
            """
            {"index":
            {"title":"skipped"}
            {"index":{"_index":"blog"},"delete":{"_index":"blog","_id":"x"}}
            {"index":{"_index":"blog"}}
            {"title":
            {"index":{"_index":"blog"}}""");
    assertThat(actions).extracting(BulkAction::line).containsExactly(1, 3, 4, 6);
    assertThat(actions.get(0).action()).isEqualTo("?");
    assertThat(actions.get(0).problem().field()).isEqualTo("body");
    assertThat(actions.get(1).action()).as("two actions: the delete is named").isEqualTo("delete");
    assertThat(actions.get(1).problem().field()).isEqualTo("action");
    assertThat(actions.get(1).document()).isNull();
    assertThat(actions.get(2).problem()).isNull();
    assertThatThrownBy(() -> actions.get(2).document().fields())
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("body");
    assertThat(actions.get(3).document().bytes()).isZero();
    assertThatThrownBy(() -> actions.get(3).document().fields())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no document line");
  }
}
