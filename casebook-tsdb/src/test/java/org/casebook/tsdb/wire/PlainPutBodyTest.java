package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.tsdb.IncomingPoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming reading of {@code /api/put} bodies must take exactly the points the tree reading
 * takes, or step aside (null) so that the tree reading answers.
 */
class PlainPutBodyTest {
  private static final IncomingPoint.Limits LIMITS =
      new IncomingPoint.Limits(8, 1_800_000_000_000L, 7_200_000);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"metric\":\"sys.cpu\",\"timestamp\":1700000000,\"value\":42,\"tags\":{\"host\":\"a\"}}",
        "[{\"metric\":\"m\",\"timestamp\":1700000000000,\"value\":1.5,\"tags\":{\"h\":\"x\"}},"
            + "{\"metric\":\"m\",\"timestamp\":\"1700000001\",\"value\":\"-7\",\"tags\":{\"h\":\"y\"}}]",
        "[{\"timestamp\":1700000000,\"value\":1e3,\"metric\":\"m\",\"tags\":{\"b\":\"2\",\"a\":\"1\"}}]",
        "[{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":0.1,\"tags\":{\"机房\":\"北京\"}}]",
        "[{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":9223372036854775807,"
            + "\"tags\":{\"h\":\"x\"}}]",
        "[{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":3.4028235E38,\"tags\":{\"h\":\"x\"}}]"
      })
  void readsPlainBodiesAsTheTreeReadingDoes(String body) {
    List<IncomingPoint> plain = JsonPuts.plainPoints(body.getBytes(StandardCharsets.UTF_8), LIMITS);
    assertThat(plain).isNotNull().isEqualTo(viaTree(body));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[]",
        "{}",
        "[1]",
        "{\"metric\":\"m\",\"timestamp\":1.5,\"value\":1,\"tags\":{\"h\":\"x\"}}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":1,\"tags\":{\"h\":1}}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":true,\"tags\":{\"h\":\"x\"}}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":null,\"tags\":{\"h\":\"x\"}}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":1,\"tags\":null}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":1,\"tags\":{\"h\":\"x\"},\"x\":1}",
        "{\"metric\":\"m\",\"metric\":\"n\",\"timestamp\":1700000000,\"value\":1,\"tags\":{}}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":\"abc\",\"tags\":{\"h\":\"x\"}}",
        "{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":1,\"tags\":{\"h\":\"x\"}} {}",
        "[{\"metric\":\"m\",\"timestamp\":1700000000,\"value\":1,\"tags\":{\"h\":\"x\"}},{}]"
      })
  void stepsAsideForAnythingElse(String body) {
    // Errors, odd shapes and tag values that are not strings: the tree reading answers them.
    assertThat(JsonPuts.plainPoints(body.getBytes(StandardCharsets.UTF_8), LIMITS)).isNull();
  }

  /** The tree reading's points, or null if it refuses the body or any point of it. */
  private static List<IncomingPoint> viaTree(String body) {
    JsonNode tree;
    try {
      tree = Json.mapper().readTree(body);
    } catch (java.io.IOException e) {
      return null;
    }
    List<JsonNode> items = new ArrayList<>();
    if (tree.isArray()) {
      tree.forEach(items::add);
    } else {
      items.add(tree);
    }
    if (items.isEmpty()) {
      return null;
    }
    List<IncomingPoint> out = new ArrayList<>();
    for (JsonNode item : items) {
      try {
        out.add(JsonPuts.parsePoint(item, LIMITS));
      } catch (InvalidInputException e) {
        return null;
      }
    }
    return out;
  }
}
