package org.casebook.core.key;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Builds a row key from typed parts. Every encoding keeps the natural order of its type under
 * HBase's unsigned byte-wise comparison, and every variable-length part is self-delimiting, so no
 * value can collide with, or be a byte prefix of, the encoding of another value:
 *
 * <ul>
 *   <li>{@code int}/{@code long}: fixed-width big-endian with the sign bit flipped, so negative
 *       numbers sort before positive ones.
 *   <li>strings and byte arrays: {@code 0x00} escaped as {@code 0x00 0xFF}, then terminated by
 *       {@code 0x00 0x01}. The terminator sorts below any escaped content, so {@code "a"} sorts
 *       before {@code "a\0"} and {@code "ab"}, and a scan for {@code "1"} never matches {@code
 *       "10"}.
 *   <li>reverse timestamps: {@code Long.MAX_VALUE - ts}, so the newest entry comes first.
 *   <li>salt and hash prefixes: derived from other bytes, they spread keys over regions.
 * </ul>
 *
 * {@link KeyReader} decodes the same parts in the same order.
 */
public final class KeyBuilder {
  static final byte ESCAPE = 0x00;
  static final byte ESCAPED_ZERO = (byte) 0xFF;
  static final byte TERMINATOR = 0x01;

  private byte[] buf;
  private int len;

  private KeyBuilder(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  public static KeyBuilder create() {
    return new KeyBuilder(32);
  }

  public static KeyBuilder create(int expectedLength) {
    return new KeyBuilder(expectedLength);
  }

  /** One unsigned byte, e.g. a record kind tag. */
  public KeyBuilder addByte(int value) {
    if (value < 0 || value > 0xFF) {
      throw new IllegalArgumentException("byte out of range: " + value);
    }
    ensure(1);
    buf[len++] = (byte) value;
    return this;
  }

  public KeyBuilder addInt(int value) {
    ensure(4);
    int v = value ^ Integer.MIN_VALUE;
    buf[len++] = (byte) (v >>> 24);
    buf[len++] = (byte) (v >>> 16);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
    return this;
  }

  public KeyBuilder addLong(long value) {
    ensure(8);
    long v = value ^ Long.MIN_VALUE;
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[len++] = (byte) (v >>> shift);
    }
    return this;
  }

  /** {@code Long.MAX_VALUE - timestamp}: larger (newer) timestamps sort first. */
  public KeyBuilder addReverseTimestamp(long timestamp) {
    if (timestamp < 0) {
      throw new IllegalArgumentException("timestamp must not be negative: " + timestamp);
    }
    return addLong(Long.MAX_VALUE - timestamp);
  }

  public KeyBuilder addString(String value) {
    Objects.requireNonNull(value, "value is null");
    return addBytes(value.getBytes(StandardCharsets.UTF_8));
  }

  /** The string with its code points reversed, e.g. {@code XN15115812 -> 21851151NX}. */
  public KeyBuilder addReversedString(String value) {
    Objects.requireNonNull(value, "value is null");
    return addString(reverse(value));
  }

  /** Escaped, terminated bytes: order-preserving and prefix-free. */
  public KeyBuilder addBytes(byte[] value) {
    Objects.requireNonNull(value, "value is null");
    ensure(value.length + 2);
    for (byte b : value) {
      if (b == ESCAPE) {
        ensure(2);
        buf[len++] = ESCAPE;
        buf[len++] = ESCAPED_ZERO;
      } else {
        ensure(1);
        buf[len++] = b;
      }
    }
    ensure(2);
    buf[len++] = ESCAPE;
    buf[len++] = TERMINATOR;
    return this;
  }

  /** Raw bytes; only for parts whose width is fixed by the layout (a hash, a salt). */
  public KeyBuilder addFixed(byte[] value) {
    Objects.requireNonNull(value, "value is null");
    ensure(value.length);
    System.arraycopy(value, 0, buf, len, value.length);
    len += value.length;
    return this;
  }

  /** A one-byte salt bucket in {@code [0, buckets)} derived from {@code source}. */
  public KeyBuilder addSalt(int buckets, byte[] source) {
    return addByte(Hashing.bucket(source, buckets));
  }

  /**
   * A region identifier (seed 001): a 2-byte, big-endian region number in {@code [0, regions)}.
   * With {@code SplitPoints.regionPrefixes(regions)} each number is exactly one pre-split region,
   * so everything written under one identifier lands in one region.
   */
  public KeyBuilder addRegionId(int region, int regions) {
    if (regions < 1 || regions > 65536 || region < 0 || region >= regions) {
      throw new IllegalArgumentException("region " + region + " outside 0.." + (regions - 1));
    }
    ensure(2);
    buf[len++] = (byte) (region >>> 8);
    buf[len++] = (byte) region;
    return this;
  }

  /** The first {@code length} bytes of the MD5 of {@code source}. */
  public KeyBuilder addHashPrefix(int length, byte[] source) {
    return addFixed(Hashing.md5Prefix(source, length));
  }

  public int length() {
    return len;
  }

  public byte[] build() {
    return Arrays.copyOf(buf, len);
  }

  static String reverse(String value) {
    return new StringBuilder(value).reverse().toString();
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }
  }
}
