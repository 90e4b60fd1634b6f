package org.casebook.tsdb.wire;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.casebook.core.InvalidInputException;

/**
 * {@code /api/put} bodies as collectors send them: plain, or compressed with {@code
 * Content-Encoding: gzip} or {@code deflate} (OpenTSDB inflates both). The server hands the body
 * over as it came (at most its body limit), so it is inflated here, and no further than {@link
 * #MAX_INFLATED_BYTES}: a small body that inflates past it (a zip bomb) is refused with {@code 413}
 * as soon as it passes, without inflating the rest.
 */
final class PutBodies {
  /**
   * The most a compressed body may inflate to: four times the server's plain body limit, so that a
   * batch a collector compresses ten-fold still fits, and one request's points stay a few tens of
   * MB in memory.
   */
  static final int MAX_INFLATED_BYTES = 16 * 1024 * 1024;

  private PutBodies() {}

  /** A body past what this side takes; answered {@code 413}, naming {@code field}. */
  static final class TooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String field;

    TooLargeException(String field, String message) {
      super(message);
      this.field = field;
    }

    String field() {
      return field;
    }
  }

  /** The body inflated as {@code contentEncoding} says (null or {@code identity}: as it is). */
  static byte[] decode(byte[] body, String contentEncoding) {
    return decode(body, contentEncoding, MAX_INFLATED_BYTES);
  }

  static byte[] decode(byte[] body, String contentEncoding, int maxInflated) {
    String encoding =
        contentEncoding == null ? "identity" : contentEncoding.strip().toLowerCase(Locale.ROOT);
    try {
      return switch (encoding) {
        case "identity", "" -> body;
        case "gzip", "x-gzip" ->
            inflate(new GZIPInputStream(new ByteArrayInputStream(body)), maxInflated, encoding);
        case "deflate", "x-deflate" ->
            inflate(new InflaterInputStream(new ByteArrayInputStream(body)), maxInflated, encoding);
        default ->
            throw new InvalidInputException(
                "Content-Encoding",
                "Unsupported Content-Encoding '" + contentEncoding + "' (gzip or deflate)");
      };
    } catch (IOException e) {
      throw new InvalidInputException(
          "body", "The body is not valid " + encoding + " data: " + e.getMessage());
    }
  }

  private static byte[] inflate(InputStream in, int maxInflated, String encoding)
      throws IOException {
    try (in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (out.size() + n > maxInflated) {
          throw new TooLargeException(
              "body",
              "The "
                  + encoding
                  + " body inflates to more than "
                  + maxInflated
                  + " bytes; send smaller batches");
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    }
  }
}
