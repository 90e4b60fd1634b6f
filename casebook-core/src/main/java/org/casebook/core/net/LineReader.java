package org.casebook.core.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Lines of a byte stream as text ({@link ByteLines} splits them). Lines are UTF-8, strictly (a line
 * that is not comes back with a null text); ASCII lines, the common case of line protocols, skip
 * the decoder.
 */
final class LineReader {
  /** One line: its text (null if not UTF-8), or too long (its bytes skipped). */
  record Line(String text, boolean tooLong) {}

  private final ByteLines lines;
  private final CharsetDecoder utf8 =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  LineReader(InputStream in, int maxLineBytes) {
    this.lines = new ByteLines(in, maxLineBytes);
  }

  /** Whether bytes are waiting in this reader's buffer. */
  boolean buffered() {
    return lines.buffered();
  }

  /** The next line, or null at the end of the stream with nothing pending. */
  Line next() throws IOException {
    if (!lines.next()) {
      return null;
    }
    return lines.tooLong()
        ? new Line(null, true)
        : decode(lines.array(), lines.offset(), lines.length());
  }

  private Line decode(byte[] bytes, int from, int n) {
    boolean ascii = true;
    for (int i = from; i < from + n; i++) {
      if (bytes[i] < 0) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      return new Line(new String(bytes, from, n, StandardCharsets.ISO_8859_1), false);
    }
    try {
      return new Line(utf8.decode(ByteBuffer.wrap(bytes, from, n)).toString(), false);
    } catch (CharacterCodingException e) {
      return new Line(null, false);
    }
  }
}
