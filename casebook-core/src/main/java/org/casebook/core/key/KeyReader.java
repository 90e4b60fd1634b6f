package org.casebook.core.key;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** Reads back, in order, the parts a {@link KeyBuilder} wrote. Malformed input fails loudly. */
public final class KeyReader {
  private final byte[] key;
  private final int end;
  private int pos;

  public KeyReader(byte[] key) {
    this(key, 0, Objects.requireNonNull(key, "key is null").length);
  }

  public KeyReader(byte[] key, int offset, int length) {
    this.key = Objects.requireNonNull(key, "key is null");
    this.pos = offset;
    this.end = offset + length;
  }

  public int readByte() {
    need(1);
    return key[pos++] & 0xFF;
  }

  /** A region identifier written by {@link KeyBuilder#addRegionId}. */
  public int readRegionId() {
    need(2);
    int v = ((key[pos] & 0xFF) << 8) | (key[pos + 1] & 0xFF);
    pos += 2;
    return v;
  }

  public int readInt() {
    need(4);
    int v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (key[pos++] & 0xFF);
    }
    return v ^ Integer.MIN_VALUE;
  }

  public long readLong() {
    need(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (key[pos++] & 0xFF);
    }
    return v ^ Long.MIN_VALUE;
  }

  public long readReverseTimestamp() {
    long ts = Long.MAX_VALUE - readLong();
    if (ts < 0) {
      throw new IllegalArgumentException("not a reverse timestamp at " + (pos - 8));
    }
    return ts;
  }

  public String readString() {
    int unescaped = unescapedLength();
    if (unescaped >= 0) {
      String s = new String(key, pos, unescaped, StandardCharsets.UTF_8);
      pos += unescaped + 2;
      return s;
    }
    return new String(readBytes(), StandardCharsets.UTF_8);
  }

  public String readReversedString() {
    return KeyBuilder.reverse(readString());
  }

  public byte[] readBytes() {
    int unescaped = unescapedLength();
    if (unescaped >= 0) {
      byte[] out = Arrays.copyOfRange(key, pos, pos + unescaped);
      pos += unescaped + 2;
      return out;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      need(1);
      byte b = key[pos++];
      if (b != KeyBuilder.ESCAPE) {
        out.write(b);
        continue;
      }
      need(1);
      byte next = key[pos++];
      if (next == KeyBuilder.TERMINATOR) {
        return out.toByteArray();
      }
      if (next != KeyBuilder.ESCAPED_ZERO) {
        throw new IllegalArgumentException(
            "bad escape 0x00 0x" + Integer.toHexString(next & 0xFF) + " at " + (pos - 2));
      }
      out.write(0);
    }
  }

  /**
   * The length of the escaped part at the position when it holds no escaped zero (the common case,
   * read without a copy through a buffer), or -1: then the byte-by-byte path decodes it, or reports
   * what is wrong.
   */
  private int unescapedLength() {
    for (int i = pos; i < end; i++) {
      if (key[i] == KeyBuilder.ESCAPE) {
        return i + 1 < end && key[i + 1] == KeyBuilder.TERMINATOR ? i - pos : -1;
      }
    }
    return -1;
  }

  public byte[] readFixed(int length) {
    need(length);
    byte[] out = Arrays.copyOfRange(key, pos, pos + length);
    pos += length;
    return out;
  }

  public KeyReader skip(int length) {
    need(length);
    pos += length;
    return this;
  }

  /** Skips one escaped, terminated part without decoding it. */
  public KeyReader skipBytes() {
    while (true) {
      need(2);
      if (key[pos] == KeyBuilder.ESCAPE) {
        byte next = key[pos + 1];
        pos += 2;
        if (next == KeyBuilder.TERMINATOR) {
          return this;
        }
      } else {
        pos++;
      }
    }
  }

  public int position() {
    return pos;
  }

  public boolean hasRemaining() {
    return pos < end;
  }

  public int remaining() {
    return end - pos;
  }

  private void need(int n) {
    if (pos + n > end) {
      throw new IllegalArgumentException(
          "key too short: need " + n + " byte(s) at " + pos + ", have " + (end - pos));
    }
  }
}
