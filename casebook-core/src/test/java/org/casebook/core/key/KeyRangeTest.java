package org.casebook.core.key;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Exhaustive over all prefixes of up to two bytes and all keys of up to three bytes. */
class KeyRangeTest {
  @Test
  void prefixRangeContainsExactlyTheKeysWithThatPrefix() {
    for (byte[] prefix : allKeys(2)) {
      KeyRange range = KeyRange.prefix(prefix);
      for (byte[] key : allKeys(3)) {
        boolean hasPrefix = Bytes.startsWith(key, prefix);
        assertThat(range.contains(key))
            .as("prefix %s key %s", Bytes.toStringBinary(prefix), Bytes.toStringBinary(key))
            .isEqualTo(hasPrefix);
      }
    }
  }

  @Test
  void allOnesPrefixHasNoUpperBound() {
    assertThat(KeyRange.successorOfPrefix(new byte[] {(byte) 0xFF, (byte) 0xFF})).isEmpty();
    assertThat(KeyRange.successorOfPrefix(new byte[] {1, (byte) 0xFF})).containsExactly(2);
    assertThat(KeyRange.successorOfPrefix(new byte[0])).isEmpty();
    assertThat(
            KeyRange.prefix(new byte[] {(byte) 0xFF})
                .contains(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}))
        .isTrue();
  }

  @Test
  void scanIsBoundedOnBothSides() {
    KeyRange r = KeyRange.prefix(new byte[] {5, 6});
    assertThat(r.toScan().getStartRow()).containsExactly(5, 6);
    assertThat(r.toScan().getStopRow()).containsExactly(5, 7);
  }

  /** All byte strings of length 0..n over a reduced alphabet that covers the edges. */
  private static java.util.List<byte[]> allKeys(int n) {
    byte[] alphabet = {0, 1, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
    java.util.List<byte[]> out = new java.util.ArrayList<>();
    out.add(new byte[0]);
    java.util.List<byte[]> level = java.util.List.of(new byte[0]);
    for (int len = 1; len <= n; len++) {
      java.util.List<byte[]> next = new java.util.ArrayList<>();
      for (byte[] base : level) {
        for (byte b : alphabet) {
          byte[] k = java.util.Arrays.copyOf(base, len);
          k[len - 1] = b;
          next.add(k);
        }
      }
      out.addAll(next);
      level = next;
    }
    return out;
  }
}
