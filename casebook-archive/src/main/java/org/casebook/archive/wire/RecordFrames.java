package org.casebook.archive.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.casebook.archive.wire.BadInputException.Defect;

/**
 * The framing of an archive file: its top-level JSON objects, one after another with only
 * whitespace between them, found by balancing braces and brackets outside strings — without parsing
 * what is inside, so a record that is not valid JSON still has known bounds. UTF-8's multi-byte
 * sequences never contain the ASCII bytes looked at, so undecodable bytes inside a record do not
 * disturb the framing either.
 */
final class RecordFrames {
  /** A record this long means the framing is lost (a brace never closed), not a huge user. */
  static final int MAX_RECORD_BYTES = 64 << 20;

  private final InputStream in;
  private final byte[] buffer = new byte[1 << 16];
  private final ByteArrayOutputStream record = new ByteArrayOutputStream(1 << 12);
  private int filled;
  private int at;
  private long offset;
  private long start;

  RecordFrames(InputStream in) {
    this.in = in;
  }

  /**
   * The next record's bytes, or null at the end of the stream.
   *
   * @throws BadInputException if the stream is not a sequence of objects: something else between
   *     them, or an object that never ends
   */
  byte[] next() throws IOException, BadInputException {
    int b;
    do {
      b = read();
      if (b < 0) {
        return null;
      }
    } while (b == ' ' || b == '\n' || b == '\r' || b == '\t');
    if (b != '{') {
      throw new BadInputException(
          Defect.INVALID_JSON,
          "invalid JSON: expected a user object at byte "
              + (offset - 1)
              + ", found '"
              + (char) b
              + "'");
    }
    start = offset - 1;
    record.reset();
    record.write(b);
    int depth = 1;
    boolean inString = false;
    boolean escaped = false;
    while (depth > 0) {
      b = read();
      if (b < 0) {
        throw new BadInputException(
            Defect.TRUNCATED,
            "truncated file: the user object at byte " + start + " does not end before the file");
      }
      record.write(b);
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (b == '\\') {
          escaped = true;
        } else if (b == '"') {
          inString = false;
        }
      } else if (b == '"') {
        inString = true;
      } else if (b == '{' || b == '[') {
        depth++;
      } else if (b == '}' || b == ']') {
        depth--;
      }
      if (record.size() > MAX_RECORD_BYTES) {
        throw new BadInputException(
            Defect.INVALID_JSON,
            "invalid JSON: the user object at byte "
                + start
                + " is not closed within "
                + MAX_RECORD_BYTES
                + " bytes");
      }
    }
    return record.toByteArray();
  }

  /** The byte offset where the last record returned starts. */
  long start() {
    return start;
  }

  /** The byte offset just past the last record returned. */
  long end() {
    return offset;
  }

  private int read() throws IOException {
    if (at == filled) {
      filled = in.read(buffer);
      at = 0;
      if (filled <= 0) {
        filled = 0;
        return -1;
      }
    }
    offset++;
    return buffer[at++] & 0xFF;
  }
}
