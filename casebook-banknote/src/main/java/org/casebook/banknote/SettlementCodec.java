package org.casebook.banknote;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A piece's counts ({@link PieceCounts}) as one cell value: a format byte, the device kind, the
 * record range, the currencies the cells name, then one entry a cell — numbers as unsigned varints
 * (7 bits a byte, low first), so a piece of 500 notes of two denominations in one hour is 25 bytes.
 *
 * <pre>
 * format (1) | kind (1) | first (varint) | last - first (varint)
 * currencies (varint) { length (1) | ASCII/UTF-8 }
 * cells (varint) { currency index (varint) | denomination (varint) | operation (1) | hour (1)
 *                  | notes (varint) | suspects (varint) }
 * </pre>
 *
 * Kinds and operations are stored by their enum ordinal, as {@link NoteCodec} stores them.
 */
final class SettlementCodec {
  private static final byte FORMAT = 1;

  private SettlementCodec() {}

  static byte[] encode(PieceCounts p) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32 + 8 * p.cells().size());
    out.write(FORMAT);
    out.write(p.kind().ordinal());
    varint(out, p.first());
    varint(out, p.last() - p.first());
    List<String> currencies = new ArrayList<>(2);
    for (PieceCounts.Cell c : p.cells()) {
      if (!currencies.contains(c.currency())) {
        currencies.add(c.currency());
      }
    }
    varint(out, currencies.size());
    for (String c : currencies) {
      byte[] b = c.getBytes(StandardCharsets.UTF_8);
      out.write(b.length);
      out.write(b, 0, b.length);
    }
    varint(out, p.cells().size());
    for (PieceCounts.Cell c : p.cells()) {
      varint(out, currencies.indexOf(c.currency()));
      varint(out, c.denomination());
      out.write(c.operation().ordinal());
      out.write(c.hour());
      varint(out, c.notes());
      varint(out, c.suspects());
    }
    return out.toByteArray();
  }

  static PieceCounts decode(byte[] value) {
    Reader r = new Reader(value);
    try {
      int format = r.u8();
      if (format != FORMAT) {
        throw new IllegalStateException("settlement cell of unknown format " + format);
      }
      DeviceKind kind = DeviceKind.values()[r.u8()];
      long first = r.varint();
      long last = first + r.varint();
      int currencyCount = Math.toIntExact(r.varint());
      List<String> currencies = new ArrayList<>(currencyCount);
      for (int i = 0; i < currencyCount; i++) {
        currencies.add(r.string(r.u8()));
      }
      int cellCount = Math.toIntExact(r.varint());
      List<PieceCounts.Cell> cells = new ArrayList<>(cellCount);
      for (int i = 0; i < cellCount; i++) {
        String currency = currencies.get(Math.toIntExact(r.varint()));
        int denomination = Math.toIntExact(r.varint());
        Operation operation = Operation.values()[r.u8()];
        int hour = r.u8();
        cells.add(
            new PieceCounts.Cell(currency, denomination, operation, hour, r.varint(), r.varint()));
      }
      if (r.pos != value.length) {
        throw new IllegalStateException(
            "settlement cell has " + (value.length - r.pos) + " extra bytes");
      }
      return new PieceCounts(kind, first, last, cells);
    } catch (IndexOutOfBoundsException | ArithmeticException | IllegalArgumentException e) {
      throw new IllegalStateException("settlement cell is truncated or corrupt", e);
    }
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    if (v < 0) {
      throw new IllegalArgumentException("negative count " + v);
    }
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static final class Reader {
    private final byte[] b;
    private int pos;

    Reader(byte[] b) {
      this.b = b;
    }

    int u8() {
      return b[pos++] & 0xFF;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int x = u8();
        v |= (long) (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          return v;
        }
      }
      throw new IllegalStateException("varint longer than 10 bytes");
    }

    String string(int length) {
      if (pos + length > b.length) {
        throw new IndexOutOfBoundsException("string past the end");
      }
      String s = new String(b, pos, length, StandardCharsets.UTF_8);
      pos += length;
      return s;
    }
  }
}
