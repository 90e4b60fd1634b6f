package org.casebook.core.net;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines ({@code \n}, an optional {@code \r} before it dropped) without a
 * call per byte and without decoding: the line's bytes are read in place ({@link #array}, {@link
 * #offset}, {@link #length}, valid until the next call) or copied ({@link #copy}). A line longer
 * than the limit is skipped and reported as {@link #tooLong}. UTF-8 never has a {@code \n} byte
 * inside a character, so splitting before decoding is safe.
 */
public final class ByteLines {
  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] buf = new byte[64 * 1024];
  private int pos;
  private int end;
  private byte[] partial = new byte[256];
  private int partialLength;

  private byte[] lineArray;
  private int lineOffset;
  private int lineLength;
  private boolean tooLong;

  public ByteLines(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** Whether bytes are waiting in this reader's buffer. */
  public boolean buffered() {
    return pos < end;
  }

  /** Moves to the next line; false at the end of the stream with nothing pending. */
  public boolean next() throws IOException {
    partialLength = 0;
    tooLong = false;
    while (true) {
      if (pos == end) {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
          if (partialLength == 0 && !tooLong) {
            return false;
          }
          return line(partial, 0, partialLength);
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
          int from = pos;
          pos = nl + 1;
          return line(buf, from, length);
        } else {
          append(pos, length);
        }
      }
      pos = nl < 0 ? end : nl + 1;
      if (nl >= 0) {
        return line(partial, 0, partialLength);
      }
    }
  }

  /** Whether the current line was longer than the limit (its bytes were skipped). */
  public boolean tooLong() {
    return tooLong;
  }

  /** The array holding the current line (this reader's; overwritten by the next call). */
  public byte[] array() {
    return lineArray;
  }

  public int offset() {
    return lineOffset;
  }

  /** Bytes of the current line, without its line break. */
  public int length() {
    return lineLength;
  }

  /** A copy of the current line's bytes. */
  public byte[] copy() {
    return Arrays.copyOfRange(lineArray, lineOffset, lineOffset + lineLength);
  }

  /** Whether the current line is empty or only spaces and tabs. */
  public boolean blank() {
    for (int i = lineOffset; i < lineOffset + lineLength; i++) {
      if (lineArray[i] != ' ' && lineArray[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  private boolean line(byte[] array, int from, int length) {
    int n = tooLong ? 0 : length;
    if (n > 0 && array[from + n - 1] == '\r') {
      n--;
    }
    lineArray = array;
    lineOffset = from;
    lineLength = n;
    return true;
  }

  private void append(int from, int length) {
    if (partialLength + length > partial.length) {
      partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + length));
    }
    System.arraycopy(buf, from, partial, partialLength, length);
    partialLength += length;
  }
}
