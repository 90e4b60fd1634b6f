package org.casebook.banknote;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A note as one cell value (without its image): a format byte, then the fields — strings as a
 * 2-byte length and UTF-8, numbers big-endian. Every table stores the same value, so any row
 * decodes to the whole note without reading another table; about 90 bytes for an RMB note.
 */
final class NoteCodec {
  private static final byte FORMAT = 1;

  private NoteCodec() {}

  static byte[] encode(Note n) {
    byte[] serial = utf8(n.serial());
    byte[] currency = utf8(n.currency());
    byte[] device = utf8(n.device());
    byte[] branch = utf8(n.branch());
    byte[] batch = utf8(n.batch());
    byte[] source = utf8(n.source());
    int size =
        1
            + 4
            + 2
            + 3
            + 8
            + 8
            + 1
            + 4 * n.errorCodes().size()
            + 12
            + serial.length
            + currency.length
            + device.length
            + branch.length
            + batch.length
            + source.length;
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(FORMAT);
    b.putInt(n.denomination());
    b.putShort((short) (n.edition() == null ? 0 : n.edition()));
    b.put((byte) n.deviceKind().ordinal());
    b.put((byte) n.operation().ordinal());
    b.put((byte) n.verdict().ordinal());
    b.putLong(n.time().toEpochMilli());
    b.putLong(n.record());
    b.put((byte) n.errorCodes().size());
    for (int code : n.errorCodes()) {
      b.putInt(code);
    }
    put(b, serial);
    put(b, currency);
    put(b, device);
    put(b, branch);
    put(b, batch);
    put(b, source);
    return b.array();
  }

  static Note decode(byte[] value, byte[] image) {
    try {
      ByteBuffer b = ByteBuffer.wrap(value);
      byte format = b.get();
      if (format != FORMAT) {
        throw new IllegalStateException("note cell of unknown format " + format);
      }
      int denomination = b.getInt();
      int edition = b.getShort();
      DeviceKind kind = DeviceKind.values()[b.get()];
      Operation operation = Operation.values()[b.get()];
      Verdict verdict = Verdict.values()[b.get()];
      long time = b.getLong();
      long record = b.getLong();
      int codes = b.get();
      List<Integer> errorCodes = new ArrayList<>(codes);
      for (int i = 0; i < codes; i++) {
        errorCodes.add(b.getInt());
      }
      String serial = string(b);
      String currency = string(b);
      String device = string(b);
      String branch = string(b);
      String batch = string(b);
      String source = string(b);
      return new Note(
          serial,
          denomination,
          currency,
          edition == 0 ? null : edition,
          device,
          kind,
          branch,
          operation,
          Instant.ofEpochMilli(time),
          batch,
          verdict,
          errorCodes,
          source,
          record,
          image);
    } catch (BufferUnderflowException | ArrayIndexOutOfBoundsException e) {
      throw new IllegalStateException("note cell is truncated or corrupt", e);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void put(ByteBuffer b, byte[] s) {
    b.putShort((short) s.length);
    b.put(s);
  }

  private static String string(ByteBuffer b) {
    int n = Short.toUnsignedInt(b.getShort());
    byte[] s = new byte[n];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
