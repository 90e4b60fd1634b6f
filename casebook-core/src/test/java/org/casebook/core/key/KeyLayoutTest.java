package org.casebook.core.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class KeyLayoutTest {
  @Test
  void everyPartTypeRoundTripsAndSortsAsDeclared() {
    KeyLayoutChecks.verify(
        KeyLayout.named("strings")
            .part("a", PartType.STRING)
            .part("b", PartType.REVERSED_STRING)
            .build(),
        400);
    KeyLayoutChecks.verify(
        KeyLayout.named("numbers")
            .part("b", PartType.BYTE)
            .part("i", PartType.INT)
            .part("l", PartType.LONG)
            .part("t", PartType.REVERSE_TIMESTAMP)
            .build(),
        400);
    KeyLayoutChecks.verify(
        KeyLayout.named("salted")
            .salt("s", 16, "uid")
            .part("uid", PartType.STRING)
            .part("ts", PartType.LONG)
            .build(),
        400);
    KeyLayoutChecks.verify(
        KeyLayout.named("hashed")
            .hash("h", 4, "uid")
            .part("uid", PartType.BYTES)
            .fixed("f", 3)
            .build(),
        400);
    KeyLayoutChecks.verify(
        KeyLayout.named("tail")
            .part("b", PartType.BYTE)
            .fixed("f", 3)
            .part("rest", PartType.TAIL)
            .build(),
        400);
    KeyLayoutChecks.verify(
        KeyLayout.named("regions").regionId("r", 16, "id").part("id", PartType.LONG).build(), 200);
    KeyLayoutChecks.verify(
        KeyLayout.named("given region")
            .regionId("r", 300, null)
            .part("uid", PartType.STRING)
            .build(),
        200);
  }

  @Test
  void explainsKeysPartByPart() {
    KeyLayout relation =
        KeyLayout.named("relation")
            .part("uid", PartType.STRING)
            .part("kind", PartType.BYTE)
            .part("other", PartType.STRING)
            .build();
    assertThat(relation.explain("bob", 1, "alice"))
        .isEqualTo("62 6F 62 00 01 | 01 | 61 6C 69 63 65 00 01");
    assertThat(relation.describe(relation.encode("bob", 1, "alice")))
        .isEqualTo("uid=bob, kind=1, other=alice");
  }

  @Test
  void prefixesStopAtTheGivenParts() {
    KeyLayout l =
        KeyLayout.named("l")
            .regionId("r", 8, "uid")
            .part("uid", PartType.STRING)
            .part("n", PartType.LONG)
            .build();
    byte[] key = l.encode("u", 5L);
    assertThat(l.range("u").contains(key)).isTrue();
    assertThat(l.range("u", 5L).contains(key)).isTrue();
    assertThat(l.range("u", 6L).contains(key)).isFalse();
    assertThat(l.prefix()).isEmpty();
    assertThatThrownBy(() -> l.encode("u")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> l.encode("u", "not a number"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTailPartRunsToTheEndAndOnlyLast() {
    KeyLayout l = KeyLayout.named("t").fixed("m", 2).part("rest", PartType.TAIL).build();
    byte[] key = l.encode(new byte[] {1, 2}, new byte[] {0, 0, 9});
    assertThat(key).containsExactly(1, 2, 0, 0, 9);
    assertThat((byte[]) l.decode(key).get("rest")).containsExactly(0, 0, 9);
    assertThat(l.explain(new byte[] {1, 2}, new byte[] {0, 0, 9})).isEqualTo("01 02 | 00 00 09");
    assertThatThrownBy(() -> KeyLayout.named("x").part("rest", PartType.TAIL).fixed("m", 2).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("last part");
  }
}
