package org.casebook.docs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.core.Json;
import org.casebook.docs.CorrectionState.FieldMark;

/**
 * The cells of corrections and history: the corrections cell ({@code DI:_c}, binary: it is read
 * with every document that has one) and a history entry ({@code H:<version>}, JSON: read only when
 * someone asks for the history, and shown as it is).
 *
 * <p>Corrections cell: a format byte, the mark count (2 bytes), per mark the field name (1 byte
 * length, ASCII), version and time (8 bytes each), the editor (2 byte length, UTF-8) and the value
 * (4 byte length, -1 when the person removed the field, then the cell value); then the history
 * count (2 bytes) and the versions (8 bytes each).
 */
final class CorrectionCodec {
  private static final byte FORMAT = 1;
  private static final int REMOVED = -1;

  private CorrectionCodec() {}

  static byte[] encode(CorrectionState s) {
    List<byte[]> names = new ArrayList<>();
    List<byte[]> editors = new ArrayList<>();
    int size = 1 + 2 + 2 + 8 * s.history().size();
    for (Map.Entry<String, FieldMark> e : s.marks().entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.US_ASCII);
      byte[] by = e.getValue().by().getBytes(StandardCharsets.UTF_8);
      names.add(name);
      editors.add(by);
      byte[] value = e.getValue().value();
      size += 1 + name.length + 16 + 2 + by.length + 4 + (value == null ? 0 : value.length);
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put(FORMAT);
    out.putShort((short) s.marks().size());
    int i = 0;
    for (FieldMark m : s.marks().values()) {
      out.put((byte) names.get(i).length).put(names.get(i));
      out.putLong(m.version()).putLong(m.atMs());
      out.putShort((short) editors.get(i).length).put(editors.get(i));
      if (m.value() == null) {
        out.putInt(REMOVED);
      } else {
        out.putInt(m.value().length).put(m.value());
      }
      i++;
    }
    out.putShort((short) s.history().size());
    s.history().forEach(out::putLong);
    return out.array();
  }

  /** What a corrections cell holds; empty for none (or a cell of a format this does not know). */
  static Optional<CorrectionState> decode(byte[] cell) {
    if (cell == null || cell.length == 0 || cell[0] != FORMAT) {
      return Optional.empty();
    }
    ByteBuffer in = ByteBuffer.wrap(cell, 1, cell.length - 1);
    Map<String, FieldMark> marks = new LinkedHashMap<>();
    int n = Short.toUnsignedInt(in.getShort());
    for (int i = 0; i < n; i++) {
      byte[] name = new byte[in.get()];
      in.get(name);
      long version = in.getLong();
      long at = in.getLong();
      byte[] by = new byte[Short.toUnsignedInt(in.getShort())];
      in.get(by);
      int length = in.getInt();
      byte[] value = null;
      if (length != REMOVED) {
        value = new byte[length];
        in.get(value);
      }
      marks.put(
          new String(name, StandardCharsets.US_ASCII),
          new FieldMark(new String(by, StandardCharsets.UTF_8), at, version, value));
    }
    List<Long> history = new ArrayList<>();
    int h = Short.toUnsignedInt(in.getShort());
    for (int i = 0; i < h; i++) {
      history.add(in.getLong());
    }
    return Optional.of(new CorrectionState(marks, history));
  }

  /** The column of the history entry of {@code version}: newest first in column order. */
  static byte[] historyColumn(long version) {
    return DocsKeys.HISTORY.encode(version);
  }

  static byte[] encodeEntry(HistoryEntry entry) {
    return Json.writeBytes(entry);
  }

  static HistoryEntry decodeEntry(byte[] cell) {
    try {
      return Json.mapper().readValue(cell, HistoryEntry.class);
    } catch (IOException e) {
      throw new IllegalStateException("unreadable history entry", e);
    }
  }
}
