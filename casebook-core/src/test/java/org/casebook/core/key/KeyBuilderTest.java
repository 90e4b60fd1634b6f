package org.casebook.core.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Property tests: random inputs, checked against the order of the plain values. */
class KeyBuilderTest {
  private static final int RUNS = 20_000;
  private final SplittableRandom rnd = new SplittableRandom(20261122L);

  @Test
  void longsKeepNumericOrderIncludingSignAndExtremes() {
    long[] edges = {
      Long.MIN_VALUE,
      Long.MIN_VALUE + 1,
      -256,
      -1,
      0,
      1,
      255,
      256,
      Long.MAX_VALUE - 1,
      Long.MAX_VALUE
    };
    List<Long> values = new ArrayList<>();
    for (long e : edges) {
      values.add(e);
    }
    for (int i = 0; i < RUNS; i++) {
      values.add(rnd.nextLong());
    }
    for (int i = 1; i < values.size(); i++) {
      long a = values.get(i - 1);
      long b = values.get(i);
      byte[] ka = KeyBuilder.create().addLong(a).build();
      byte[] kb = KeyBuilder.create().addLong(b).build();
      assertThat(Integer.signum(Bytes.compareTo(ka, kb)))
          .as("%d vs %d", a, b)
          .isEqualTo(Long.signum(Long.compare(a, b)));
      assertThat(new KeyReader(ka).readLong()).isEqualTo(a);
    }
  }

  @Test
  void intsKeepNumericOrder() {
    for (int i = 0; i < RUNS; i++) {
      int a = i % 7 == 0 ? Integer.MIN_VALUE + rnd.nextInt(3) : rnd.nextInt();
      int b = i % 11 == 0 ? Integer.MAX_VALUE - rnd.nextInt(3) : rnd.nextInt();
      byte[] ka = KeyBuilder.create().addInt(a).build();
      byte[] kb = KeyBuilder.create().addInt(b).build();
      assertThat(Integer.signum(Bytes.compareTo(ka, kb)))
          .isEqualTo(Integer.signum(Integer.compare(a, b)));
      assertThat(new KeyReader(kb).readInt()).isEqualTo(b);
    }
  }

  @Test
  void reverseTimestampsPutNewestFirst() {
    for (int i = 0; i < RUNS; i++) {
      long a = rnd.nextLong(0, Long.MAX_VALUE);
      long b = rnd.nextLong(0, Long.MAX_VALUE);
      byte[] ka = KeyBuilder.create().addReverseTimestamp(a).build();
      byte[] kb = KeyBuilder.create().addReverseTimestamp(b).build();
      assertThat(Integer.signum(Bytes.compareTo(ka, kb)))
          .isEqualTo(-Integer.signum(Long.compare(a, b)));
      assertThat(new KeyReader(ka).readReverseTimestamp()).isEqualTo(a);
    }
    assertThatThrownBy(() -> KeyBuilder.create().addReverseTimestamp(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void stringsKeepUtf8OrderAndRoundTrip() {
    for (int i = 0; i < RUNS; i++) {
      String a = randomString();
      String b = rnd.nextInt(4) == 0 ? a + randomString() : randomString();
      byte[] ka = KeyBuilder.create().addString(a).build();
      byte[] kb = KeyBuilder.create().addString(b).build();
      int expected = Integer.signum(Bytes.compareTo(utf8(a), utf8(b)));
      assertThat(Integer.signum(Bytes.compareTo(ka, kb)))
          .as("'%s' vs '%s'", a, b)
          .isEqualTo(expected);
      assertThat(new KeyReader(ka).readString()).isEqualTo(a);
    }
  }

  @Test
  void compositeKeysSortAsTuples() {
    for (int i = 0; i < RUNS; i++) {
      String ua = randomString();
      String ub = rnd.nextBoolean() ? ua : randomString();
      long ta = rnd.nextLong(0, 1L << 45);
      long tb = rnd.nextBoolean() ? ta : rnd.nextLong(0, 1L << 45);
      byte[] ka = KeyBuilder.create().addString(ua).addLong(ta).build();
      byte[] kb = KeyBuilder.create().addString(ub).addLong(tb).build();
      int byUser = Integer.signum(Bytes.compareTo(utf8(ua), utf8(ub)));
      int expected = byUser != 0 ? byUser : Integer.signum(Long.compare(ta, tb));
      assertThat(Integer.signum(Bytes.compareTo(ka, kb))).isEqualTo(expected);
      KeyReader r = new KeyReader(kb);
      assertThat(r.readString()).isEqualTo(ub);
      assertThat(r.readLong()).isEqualTo(tb);
      assertThat(r.hasRemaining()).isFalse();
    }
  }

  /** The flaw of seed 003: a scan for user "1" must never return rows of user "10001". */
  @Test
  void prefixScanOfOneIdNeverMatchesAnotherId() {
    for (int i = 0; i < RUNS; i++) {
      String a = randomString();
      String b = rnd.nextBoolean() ? a + randomString() : randomString();
      if (a.equals(b)) {
        continue;
      }
      KeyRange rangeA = KeyRange.prefix(KeyBuilder.create().addString(a).build());
      byte[] rowOfB =
          KeyBuilder.create()
              .addString(b)
              .addLong(rnd.nextLong())
              .addString(randomString())
              .build();
      assertThat(rangeA.contains(rowOfB)).as("scan of '%s' contains a row of '%s'", a, b).isFalse();
      byte[] rowOfA = KeyBuilder.create().addString(a).addLong(rnd.nextLong()).build();
      assertThat(rangeA.contains(rowOfA)).isTrue();
    }
  }

  @Test
  void separatorsAndNulsInIdsAreSafe() {
    String[] ids = {
      "1", "10001", "1_", "1_0", "a,b", "a/b", "a", "a\0", "a\0b", "\0", "", "\uFFFF", "😀", "ab"
    };
    for (String a : ids) {
      for (String b : ids) {
        if (a.equals(b)) {
          continue;
        }
        KeyRange range = KeyRange.prefix(KeyBuilder.create().addString(a).build());
        assertThat(range.contains(KeyBuilder.create().addString(b).addLong(42).build()))
            .as("%s / %s", a, b)
            .isFalse();
      }
    }
  }

  @Test
  void reversedStringsAndBytesRoundTrip() {
    assertThat(
            new KeyReader(KeyBuilder.create().addReversedString("XN15115812").build()).readString())
        .isEqualTo("21851151NX");
    for (int i = 0; i < 2000; i++) {
      String s = randomString();
      assertThat(
              new KeyReader(KeyBuilder.create().addReversedString(s).build()).readReversedString())
          .isEqualTo(s);
      byte[] raw = new byte[rnd.nextInt(20)];
      for (int j = 0; j < raw.length; j++) {
        raw[j] = (byte) (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(256));
      }
      assertThat(new KeyReader(KeyBuilder.create().addBytes(raw).build()).readBytes())
          .isEqualTo(raw);
    }
  }

  @Test
  void saltAndHashAreStableAndInRange() {
    byte[] src = "user-42".getBytes(StandardCharsets.UTF_8);
    assertThat(Hashing.bucket(src, 16)).isEqualTo(Hashing.bucket(src.clone(), 16)).isBetween(0, 15);
    int[] counts = new int[8];
    for (int i = 0; i < 80_000; i++) {
      counts[Hashing.bucket(Integer.toString(i).getBytes(StandardCharsets.UTF_8), 8)]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(9_000, 11_000);
    }
    assertThat(KeyBuilder.create().addHashPrefix(4, src).build()).hasSize(4);
    assertThatThrownBy(() -> Hashing.bucket(src, 257)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void malformedKeysFailLoudly() {
    assertThatThrownBy(() -> new KeyReader(new byte[] {1, 2}).readLong())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new KeyReader(new byte[] {'a', 0, 7}).readString())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new KeyReader(new byte[] {'a', 'b'}).readString())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void layoutDecodesEveryPart() {
    KeyLayout layout =
        KeyLayout.named("demo")
            .salt("salt", 8, "uid")
            .part("uid", KeyLayout.PartType.STRING)
            .part("ts", KeyLayout.PartType.REVERSE_TIMESTAMP)
            .hash("h", 2, "uid")
            .build();
    byte[] key =
        KeyBuilder.create()
            .addSalt(8, utf8("a,b"))
            .addString("a,b")
            .addReverseTimestamp(99)
            .addHashPrefix(2, utf8("a,b"))
            .build();
    assertThat(layout.encode("a,b", 99L)).isEqualTo(key);
    List<Object> parts = layout.decode(key).values();
    assertThat(parts.get(0)).isEqualTo("a,b");
    assertThat(parts.get(1)).isEqualTo(99L);
    assertThat(layout.shape())
        .isEqualTo("salt:salt(8, uid) | uid:string | ts:reverse_timestamp | h:hash(2, uid)");
    assertThatThrownBy(() -> layout.decode(Bytes.add(key, new byte[] {1})))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] wrongSalt = key.clone();
    wrongSalt[0] = (byte) ((wrongSalt[0] + 1) % 8);
    assertThatThrownBy(() -> layout.decode(wrongSalt)).isInstanceOf(IllegalArgumentException.class);
  }

  private String randomString() {
    int len = rnd.nextInt(0, 6);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < len; i++) {
      int kind = rnd.nextInt(10);
      int cp =
          switch (kind) {
            case 0 -> 0; // NUL, the escape byte
            case 1 -> rnd.nextInt(1, 0x20); // other low bytes, incl. 0x01 (terminator byte)
            case 2 -> "_,/:|".charAt(rnd.nextInt(5)); // separators of the seeds
            case 3 -> rnd.nextInt(0x80, 0x800); // two-byte UTF-8
            case 4 -> rnd.nextInt(0x4E00, 0x9FFF); // CJK
            case 5 -> rnd.nextInt(0x10000, 0x10FFFF); // supplementary (surrogate pairs)
            case 6 -> 0xFFFF;
            default -> rnd.nextInt('0', 'z' + 1);
          };
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void stringsReadInsideAWindowOfALargerArray() {
    byte[] key = KeyBuilder.create(16).addString("ab").addString("a\0b").addInt(7).build();
    byte[] buffer = new byte[key.length + 6];
    System.arraycopy(key, 0, buffer, 3, key.length);
    KeyReader r = new KeyReader(buffer, 3, key.length);
    assertThat(r.readString()).isEqualTo("ab");
    assertThat(r.readString()).isEqualTo("a\0b"); // an escaped zero: the byte-by-byte path
    assertThat(r.readInt()).isEqualTo(7);
    assertThat(r.hasRemaining()).isFalse();
    // The window ends before the terminator, or on the escape byte: the part is cut, not read on.
    byte[] ab = KeyBuilder.create(8).addString("ab").build(); // 61 62 00 01
    byte[] padded = new byte[ab.length + 4];
    System.arraycopy(ab, 0, padded, 1, ab.length);
    assertThatThrownBy(() -> new KeyReader(padded, 1, ab.length - 1).readString())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new KeyReader(padded, 1, ab.length - 2).readString())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new KeyReader(padded, 1, ab.length - 1).readBytes())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new KeyReader(padded, 1, ab.length).readBytes()).isEqualTo(Bytes.toBytes("ab"));
  }
}
