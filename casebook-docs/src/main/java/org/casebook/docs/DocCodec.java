package org.casebook.docs;

import static org.casebook.docs.DocsSchema.DI;
import static org.casebook.docs.DocsSchema.FIELDS;
import static org.casebook.docs.DocsSchema.STATE_OFFSET;
import static org.casebook.docs.DocsSchema.VERSION;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The cells of a document row: a typed value as a cell, a family's fields but the counters as one
 * cell, the version cell ({@code DI:_v}), and the one Put of a whole-document write.
 */
final class DocCodec {
  /** Keywords are joined with a line feed in their cell: keywords cannot contain one. */
  private static final char KEYWORD_SEPARATOR = '\n';

  static final byte LIVE = 1;
  static final byte DELETED = 0;

  /** Length of the version cell: version, state, base. */
  private static final int STATE_CELL_BYTES = 17;

  private DocCodec() {}

  /** The cell value of a typed value. */
  @SuppressWarnings("unchecked") // KEYWORDS values are built as List<String> by FieldValues, decode
  static byte[] encode(FieldKind kind, Object value) {
    return switch (kind) {
      case TEXT, KEYWORD -> ((String) value).getBytes(StandardCharsets.UTF_8);
      case LONG, TIME -> Bytes.toBytes((Long) value);
      case DOUBLE -> Bytes.toBytes((Double) value);
      case KEYWORDS ->
          String.join(String.valueOf(KEYWORD_SEPARATOR), (List<String>) value)
              .getBytes(StandardCharsets.UTF_8);
    };
  }

  /** The typed value of a cell. */
  static Object decode(FieldKind kind, byte[] cell) {
    return switch (kind) {
      case TEXT, KEYWORD -> new String(cell, StandardCharsets.UTF_8);
      case LONG, TIME -> Bytes.toLong(cell);
      case DOUBLE -> Bytes.toDouble(cell);
      case KEYWORDS ->
          cell.length == 0
              ? List.of()
              : List.of(
                  new String(cell, StandardCharsets.UTF_8)
                      .split(String.valueOf(KEYWORD_SEPARATOR), -1));
    };
  }

  /**
   * The cell of one family's fields but the counters (which have cells of their own), from typed
   * values: for each field present, in the type's order, its name (1 byte length, ASCII), the
   * length of its value (4 bytes) and the value as {@link #encode} gives it. Names rather than
   * positions, so a type that gains fields still reads its old cells.
   */
  static byte[] encodeFamily(DocType type, Family family, Map<String, Object> values) {
    int size = 0;
    int n = 0;
    byte[][] encoded = new byte[type.fields().size()][];
    for (int i = 0; i < encoded.length; i++) {
      FieldDef f = type.fields().get(i);
      Object v = values.get(f.name());
      if (v != null && f.family() == family && !FieldDef.isCounter(f)) {
        encoded[i] = encode(f.kind(), v);
        size += 1 + f.name().length() + 4 + encoded[i].length;
        n++;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    for (int i = 0; i < encoded.length && n > 0; i++) {
      if (encoded[i] != null) {
        String name = type.fields().get(i).name();
        out.put((byte) name.length());
        out.put(name.getBytes(StandardCharsets.US_ASCII));
        out.putInt(encoded[i].length);
        out.put(encoded[i]);
      }
    }
    return out.array();
  }

  /** Adds the fields of a family cell (see {@link #encodeFamily}) to {@code into}, as cells. */
  static void decodeFamily(byte[] cell, int offset, int length, Map<String, byte[]> into) {
    ByteBuffer in = ByteBuffer.wrap(cell, offset, length);
    while (in.hasRemaining()) {
      byte[] name = new byte[in.get()];
      in.get(name);
      byte[] value = new byte[in.getInt()];
      in.get(value);
      into.put(new String(name, StandardCharsets.US_ASCII), value);
    }
  }

  /** The version cell: version (8 bytes), state (1 byte), base (8 bytes). */
  static byte[] stateCell(long version, byte state, long base) {
    byte[] out = new byte[STATE_CELL_BYTES];
    Bytes.putLong(out, 0, version);
    out[STATE_OFFSET] = state;
    Bytes.putLong(out, STATE_OFFSET + 1, base);
    return out;
  }

  static byte[] stateCell(RowState s) {
    return stateCell(s.version(), s.live() ? LIVE : DELETED, s.base());
  }

  /** What a version cell holds; empty for a missing or malformed one. */
  static Optional<RowState> state(byte[] cell) {
    if (cell == null || cell.length != STATE_CELL_BYTES) {
      return Optional.empty();
    }
    return Optional.of(
        new RowState(
            Bytes.toLong(cell, 0),
            cell[STATE_OFFSET] == LIVE,
            Bytes.toLong(cell, STATE_OFFSET + 1)));
  }

  /** The field cells of a whole-document write: a cell per family, a cell per counter given. */
  static DocumentCells cells(DocType type, Map<String, Object> values) {
    List<byte[]> families = new ArrayList<>();
    List<byte[]> qualifiers = new ArrayList<>();
    List<byte[]> cells = new ArrayList<>();
    EnumSet<Family> withFields = EnumSet.noneOf(Family.class);
    for (FieldDef f : type.fields()) {
      Object v = values.get(f.name());
      if (v == null) {
        continue;
      }
      if (FieldDef.isCounter(f)) {
        families.add(DocsSchema.family(f.family()));
        qualifiers.add(DocsKeys.FIELD.encode(f.name()));
        cells.add(encode(f.kind(), v));
      } else {
        withFields.add(f.family());
      }
    }
    for (Family family : Family.values()) {
      if (withFields.contains(family)) {
        families.add(DocsSchema.family(family));
        qualifiers.add(FIELDS);
        cells.add(encodeFamily(type, family, values));
      }
    }
    return new DocumentCells(
        families.toArray(byte[][]::new),
        qualifiers.toArray(byte[][]::new),
        cells.toArray(byte[][]::new));
  }

  /**
   * The one Put of a whole-document write (bulk index and create, a new document), all at {@code
   * version}: a cell per family holding its fields, a cell per counter given, and the version cell
   * (version, live, base = this version). A family without fields or a counter not given needs no
   * cell: the base hides every older one. One Put is atomic for its row, so a reader sees the old
   * document or the new one, never a mixture, and of two such writes of one id the higher version
   * wins whole, in whatever order they arrive.
   */
  static Put wholeDocument(byte[] row, DocumentCells cells, long version) {
    Put put = new Put(row, version);
    for (int i = 0; i < cells.values().length; i++) {
      put.addColumn(cells.families()[i], cells.qualifiers()[i], version, cells.values()[i]);
    }
    return put.addColumn(DI, VERSION, version, stateCell(version, LIVE, version));
  }
}
