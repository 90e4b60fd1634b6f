package org.casebook.core.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits a byte stream into lines ({@code \n}, an optional {@code \r} before it dropped) without a
 * call per byte: it scans its own buffer. Lines are UTF-8, strictly (a line that is not comes back
 * with a null text); ASCII lines, the common case of line protocols, skip the decoder.
 */
final class LineReader {
  /** One line: its text (null if not UTF-8), or too long (its bytes skipped). */
  record Line(String text, boolean tooLong) {}

  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] buf = new byte[64 * 1024];
  private int pos;
  private int end;
  private byte[] partial = new byte[256];
  private int partialLength;
  private final CharsetDecoder utf8 =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  LineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** Whether bytes are waiting in this reader's buffer. */
  boolean buffered() {
    return pos < end;
  }

  /** The next line, or null at the end of the stream with nothing pending. */
  Line next() throws IOException {
    partialLength = 0;
    boolean tooLong = false;
    while (true) {
      if (pos == end) {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
          if (partialLength == 0 && !tooLong) {
            return null;
          }
          return tooLong ? new Line(null, true) : decode(partial, 0, partialLength);
        }
        pos = 0;
        end = n;
      }
      int nl = -1;
      for (int i = pos; i < end; i++) {
        if (buf[i] == '\n') {
          nl = i;
          break;
        }
      }
      int stop = nl < 0 ? end : nl;
      int length = stop - pos;
      if (!tooLong) {
        if (partialLength + length > maxLineBytes) {
          tooLong = true;
          partialLength = 0;
        } else if (nl >= 0 && partialLength == 0) {
          Line line = decode(buf, pos, length);
          pos = nl + 1;
          return line;
        } else {
          append(pos, length);
        }
      }
      pos = nl < 0 ? end : nl + 1;
      if (nl >= 0) {
        return tooLong ? new Line(null, true) : decode(partial, 0, partialLength);
      }
    }
  }

  private void append(int from, int length) {
    if (partialLength + length > partial.length) {
      partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + length));
    }
    System.arraycopy(buf, from, partial, partialLength, length);
    partialLength += length;
  }

  private Line decode(byte[] bytes, int from, int length) {
    int n = length;
    if (n > 0 && bytes[from + n - 1] == '\r') {
      n--;
    }
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
