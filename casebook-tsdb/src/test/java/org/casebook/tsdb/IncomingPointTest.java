package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class IncomingPointTest {
  private static final long NOW = 1_760_000_000_000L;
  private static final IncomingPoint.Limits LIMITS = new IncomingPoint.Limits(8, NOW, 86_400_000L);

  private static IncomingPoint put(String line) {
    return IncomingPoint.fromPutWords(line.split("\\s+"), LIMITS);
  }

  private static void refused(String line, String field, String message) {
    assertThatThrownBy(() -> put(line))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(message)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo(field);
  }

  @Test
  void parsesSecondsAndMillisecondsIntegersAndFloats() {
    IncomingPoint p = put("put sys.cpu.user 1759999000 42 host=web01 cpu=0");
    assertThat(p.timestampMs()).isEqualTo(1_759_999_000_000L);
    assertThat(p.millis()).isFalse();
    assertThat(p.value()).isEqualTo(DataPoint.ofLong(1_759_999_000_000L, 42));
    assertThat(p.tags()).containsExactlyInAnyOrderEntriesOf(Map.of("host", "web01", "cpu", "0"));
    IncomingPoint ms = put("put m 1759999000123 1.5 host=a");
    assertThat(ms.millis()).isTrue();
    assertThat(ms.timestampMs()).isEqualTo(1_759_999_000_123L);
    assertThat(ms.narrowFloat()).isTrue();
    assertThat(put("put m 1759999000 1.1 host=a").narrowFloat()).isFalse();
    assertThat(put("put m 1759999000 1e3 host=a").value().doubleValue()).isEqualTo(1000.0);
    assertThat(put("put 中文.指标 1759999000 -7 主机=甲").metric()).isEqualTo("中文.指标");
  }

  @Test
  void refusesWhatOpenTsdbRefuses() {
    refused("put m 1759999000 42", "line", "not enough arguments");
    refused("put m 1759999000 abc host=a", "value", "Unable to parse value");
    refused("put m 1759999000 NaN host=a", "value", "NaN or Infinite");
    refused("put m 1759999000 Infinity host=a", "value", "NaN or Infinite");
    refused("put m 1759999000 0x10 host=a", "value", "Unable to parse value");
    refused("put m -1759999000 1 host=a", "timestamp", "invalid timestamp: -1759999000");
    refused("put m 17599990001 1 host=a", "timestamp", "10 digits");
    refused("put m 175999 1 host=a", "timestamp", "10 digits");
    refused("put m 1890000000 1 host=a", "timestamp", "too far in the future");
    refused("put m 17599a9000 1 host=a", "timestamp", "invalid timestamp");
    refused("put bad!metric 1759999000 1 host=a", "metric", "illegal character: !");
    refused("put m 1759999000 1 host=a host=b", "tags", "duplicate tag");
    refused("put m 1759999000 1 host", "tags", "invalid tag");
    refused("put m 1759999000 1 =a", "tags", "invalid tag");
    refused("put m 1759999000 1 host=a b", "tags", "invalid tag");
    refused("put m 1759999000 1 host=a=b", "tags", "invalid tag");
    refused(
        "put m 1759999000 1 ho$t=a",
        "tags",
        "Invalid tag name with value [a] (\"ho$t\"): illegal character: $");
    refused(
        "put m 1759999000 1 host=a$b",
        "tags",
        "Invalid tag value with key [host] (\"a$b\"): illegal character: $");
    refused("put m 1759999000 1 a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1", "tags", "Too many tags: 9");
  }

  @Test
  void theSameTagTwiceIsFine() {
    assertThat(put("put m 1759999000 1 host=a host=a").tags()).containsEntry("host", "a");
  }

  @Test
  void aPointNeedsATag() {
    assertThatThrownBy(
            () -> IncomingPoint.parse("m", "1759999000", "1", new LinkedHashMap<>(), LIMITS))
        .hasMessageContaining("Need at least one tag");
  }
}
