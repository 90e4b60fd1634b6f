package org.casebook.trails.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.casebook.trails.BehaviourLookup;
import org.casebook.trails.Event;

/**
 * The log's lines as bytes, under the rules both ingest paths (Puts and the bulk load) share, so
 * both accept and reject the same lines: a line ends at {@code \n} (a {@code \r} before it is
 * dropped), a line over {@link #MAX_LINE_BYTES} is kept as its head and rejected as too long, a
 * UTF-8 byte order mark before the first line is dropped, and a line that is not UTF-8 is rejected
 * alone. What is left is one record for {@link LogParser}.
 */
public final class LogLines {
  /** The longest line accepted, in bytes. */
  public static final int MAX_LINE_BYTES = 1 << 20;

  /** Bytes of a line kept: one over the limit, and the {@code \r} that may follow it. */
  public static final int KEPT_BYTES = MAX_LINE_BYTES + 2;

  /** The category of lines over {@link #MAX_LINE_BYTES}. */
  public static final String TOO_LONG = "line too long";

  /** How much of an undecodable or over-long line the rejects file shows. */
  static final int SHOWN_BYTES = 2000;

  private LogLines() {}

  /**
   * A line's outcome: its event, or why it was rejected — the category counted, the full reason,
   * and the line as shown in the rejects file.
   */
  public record Cleaned(Event event, String category, String reason, String shown) {}

  /**
   * Cleans the first {@code length} bytes of {@code raw} (one line without its terminator): the
   * rules of both ingest paths (Puts and the bulk load), so both accept and reject the same lines.
   */
  public static Cleaned clean(byte[] raw, int length, BehaviourLookup behaviours) {
    if (length > MAX_LINE_BYTES) {
      return tooLong(raw, length);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(raw, 0, length))
              .toString();
    } catch (CharacterCodingException e) {
      return new Cleaned(
          null,
          "invalid UTF-8",
          "invalid UTF-8",
          new String(raw, 0, Math.min(length, SHOWN_BYTES), StandardCharsets.UTF_8));
    }
    LogParser.Parsed parsed = LogParser.parse(text, behaviours);
    if (parsed.event().isPresent()) {
      return new Cleaned(parsed.event().get(), null, null, null);
    }
    return new Cleaned(null, parsed.category(), parsed.reason(), text);
  }

  /** The reject of an over-long line whose first {@code length} bytes are in {@code head}. */
  private static Cleaned tooLong(byte[] head, int length) {
    return new Cleaned(
        null,
        TOO_LONG,
        "line longer than " + MAX_LINE_BYTES + " bytes",
        new String(head, 0, Math.min(length, SHOWN_BYTES), StandardCharsets.UTF_8));
  }

  /** Whether the first {@code length} bytes of {@code line} start with a UTF-8 byte order mark. */
  public static boolean startsWithByteOrderMark(byte[] line, int length) {
    return length >= 3
        && line[0] == (byte) 0xEF
        && line[1] == (byte) 0xBB
        && line[2] == (byte) 0xBF;
  }

  /**
   * The first line of a log without the UTF-8 byte order mark Windows tools write before it (not
   * part of the line); the bulk load's reader ({@code batch.LogLineInputFormat}) drops it too.
   */
  public static byte[] withoutByteOrderMark(byte[] firstLine) {
    return startsWithByteOrderMark(firstLine, firstLine.length)
        ? Arrays.copyOfRange(firstLine, 3, firstLine.length)
        : firstLine;
  }

  /**
   * How many lines {@link #readLine} reads from {@code bytes}: one per {@code \n}, and one more for
   * bytes after the last.
   */
  public static long countLines(byte[] bytes) {
    long lines = 0;
    for (byte b : bytes) {
      if (b == '\n') {
        lines++;
      }
    }
    return bytes.length > 0 && bytes[bytes.length - 1] != '\n' ? lines + 1 : lines;
  }

  /**
   * One line without its terminator ({@code \n}, and a {@code \r} before it), or null at the end;
   * of a line longer than {@link #MAX_LINE_BYTES} only the first {@link #KEPT_BYTES} are kept
   * (enough to reject it as too long and show its head). The Put path's reader; the bulk load's
   * tasks read by the same rules.
   */
  public static byte[] readLine(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
    int b;
    boolean any = false;
    while ((b = in.read()) != -1) {
      any = true;
      if (b == '\n') {
        break;
      }
      if (buf.size() < KEPT_BYTES) {
        buf.write(b);
      }
    }
    if (!any) {
      return null;
    }
    byte[] line = buf.toByteArray();
    int length = lengthWithoutCarriageReturn(line, line.length);
    return length == line.length ? line : Arrays.copyOf(line, length);
  }

  /**
   * The length of a line's first {@code length} bytes without a final {@code \r}, unless the line
   * is over the limit anyway (its kept bytes may end anywhere): both ingest paths end lines so.
   */
  public static int lengthWithoutCarriageReturn(byte[] line, int length) {
    return length > 0 && length <= MAX_LINE_BYTES + 1 && line[length - 1] == '\r'
        ? length - 1
        : length;
  }
}
