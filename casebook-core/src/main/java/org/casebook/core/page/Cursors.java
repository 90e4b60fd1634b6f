package org.casebook.core.page;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Function;
import java.util.zip.CRC32;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyReader;

/**
 * Opaque, validated page cursors: base64url of a version byte, a 4-byte tag of the listing the
 * cursor belongs to, the position bytes, and a CRC-32 of all of that. A cursor from another
 * listing, an edited or truncated one, or one whose position does not decode is a 400 naming {@code
 * cursor}; it can never make a scan start somewhere the listing does not reach.
 */
public final class Cursors {
  private static final byte VERSION = 1;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private Cursors() {}

  /** The cursor of {@code position} in the listing named {@code scope}. */
  public static String encode(String scope, byte[] position) {
    Objects.requireNonNull(position, "position is null");
    ByteBuffer b = ByteBuffer.allocate(1 + 4 + position.length + 4);
    b.put(VERSION).putInt(tag(scope)).put(position);
    CRC32 crc = new CRC32();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return ENCODER.encodeToString(b.array());
  }

  /** The position bytes of a cursor of {@code scope}, or a 400 naming {@code cursor}. */
  public static byte[] decode(String scope, String cursor) {
    byte[] raw;
    try {
      raw = DECODER.decode(Objects.requireNonNull(cursor, "cursor is null"));
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
    if (raw.length < 9 || raw[0] != VERSION) {
      throw invalid();
    }
    CRC32 crc = new CRC32();
    crc.update(raw, 0, raw.length - 4);
    ByteBuffer b = ByteBuffer.wrap(raw);
    if (b.getInt(raw.length - 4) != (int) crc.getValue() || b.getInt(1) != tag(scope)) {
      throw invalid();
    }
    byte[] position = new byte[raw.length - 9];
    System.arraycopy(raw, 5, position, 0, position.length);
    return position;
  }

  /**
   * Decodes the position with {@code reader}, which must consume it whole; a position that does not
   * decode is a 400 naming {@code cursor}.
   */
  public static <T> T decode(String scope, String cursor, Function<KeyReader, T> reader) {
    KeyReader r = new KeyReader(decode(scope, cursor));
    try {
      T value = reader.apply(r);
      if (r.hasRemaining()) {
        throw invalid();
      }
      return value;
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
  }

  private static int tag(String scope) {
    CRC32 crc = new CRC32();
    crc.update(scope.getBytes(StandardCharsets.UTF_8));
    return (int) crc.getValue();
  }

  private static InvalidInputException invalid() {
    return new InvalidInputException(
        "cursor",
        "cursor is not valid for this listing; use the 'next' value of the previous page");
  }
}
