package org.casebook.frontier;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of a URL ({@code u:i} of a queued row, {@code k:i} of a known row): URLFrontier's
 * {@code URLInfo} message in protobuf's binary encoding — url = 1, key = 2, metadata = 3 (entries
 * of name = 1 and {@code StringList} = 2, itself values = 1), crawlID = 4 — read and written here
 * without the protobuf library, which only the gRPC edge carries. Rows written by earlier versions
 * (with the library) read back unchanged; unknown fields are skipped.
 */
final class UrlInfoCodec {
  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LENGTH = 2;
  private static final int FIXED32 = 5;

  private static final int URL = 1;
  private static final int KEY = 2;
  private static final int METADATA = 3;
  private static final int CRAWL_ID = 4;
  private static final int ENTRY_NAME = 1;
  private static final int ENTRY_VALUES = 2;
  private static final int VALUE = 1;

  private UrlInfoCodec() {}

  static byte[] encode(UrlInfo info) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 + info.url().length());
    text(out, URL, info.url(), false);
    text(out, KEY, info.key(), false);
    for (Map.Entry<String, List<String>> e : info.metadata().entrySet()) {
      ByteArrayOutputStream values = new ByteArrayOutputStream();
      for (String v : e.getValue()) {
        text(values, VALUE, v, true);
      }
      ByteArrayOutputStream entry = new ByteArrayOutputStream();
      // A map entry carries its name and value even when empty, as protobuf writes them.
      text(entry, ENTRY_NAME, e.getKey(), true);
      bytes(entry, ENTRY_VALUES, values.toByteArray());
      bytes(out, METADATA, entry.toByteArray());
    }
    text(out, CRAWL_ID, info.crawlId(), false);
    return out.toByteArray();
  }

  /** Reads a stored URL; a value that is not one is a corrupt row. */
  static UrlInfo decode(byte[] stored) {
    try {
      Reader r = new Reader(stored, 0, stored.length);
      String url = "";
      String key = "";
      String crawlId = "";
      Map<String, List<String>> metadata = new LinkedHashMap<>();
      while (r.more()) {
        int tag = r.varint32();
        switch (tag) {
          case (URL << 3) | LENGTH -> url = r.text();
          case (KEY << 3) | LENGTH -> key = r.text();
          case (CRAWL_ID << 3) | LENGTH -> crawlId = r.text();
          case (METADATA << 3) | LENGTH -> entry(r.message(), metadata);
          default -> r.skip(tag);
        }
      }
      return new UrlInfo(url, key, crawlId, metadata);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new IllegalStateException("a stored URL does not parse", e);
    }
  }

  private static void entry(Reader r, Map<String, List<String>> metadata) {
    String name = "";
    List<String> values = new ArrayList<>();
    while (r.more()) {
      int tag = r.varint32();
      if (tag == ((ENTRY_NAME << 3) | LENGTH)) {
        name = r.text();
      } else if (tag == ((ENTRY_VALUES << 3) | LENGTH)) {
        // A repeated message field read twice merges: the values add up.
        Reader list = r.message();
        while (list.more()) {
          int t = list.varint32();
          if (t == ((VALUE << 3) | LENGTH)) {
            values.add(list.text());
          } else {
            list.skip(t);
          }
        }
      } else {
        r.skip(tag);
      }
    }
    // A name given twice: the later entry wins, as in a protobuf map.
    metadata.put(name, values);
  }

  private static void text(ByteArrayOutputStream out, int field, String value, boolean always) {
    if (value.isEmpty() && !always) {
      return;
    }
    bytes(out, field, value.getBytes(StandardCharsets.UTF_8));
  }

  private static void bytes(ByteArrayOutputStream out, int field, byte[] value) {
    varint(out, (field << 3) | LENGTH);
    varint(out, value.length);
    out.write(value, 0, value.length);
  }

  private static void varint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** A window of the stored bytes being read. */
  private static final class Reader {
    private final byte[] buf;
    private int pos;
    private final int end;

    Reader(byte[] buf, int pos, int end) {
      this.buf = buf;
      this.pos = pos;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte b = next();
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new IllegalArgumentException("varint longer than 10 bytes");
    }

    int varint32() {
      long v = varint();
      if (v < 0 || v > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("tag or length out of range: " + v);
      }
      return (int) v;
    }

    private byte next() {
      if (pos >= end) {
        throw new IndexOutOfBoundsException("truncated at " + pos);
      }
      return buf[pos++];
    }

    private int length() {
      int n = varint32();
      if (n > end - pos) {
        throw new IndexOutOfBoundsException("length " + n + " past the end at " + pos);
      }
      return n;
    }

    String text() {
      int n = length();
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    Reader message() {
      int n = length();
      Reader r = new Reader(buf, pos, pos + n);
      pos += n;
      return r;
    }

    void skip(int tag) {
      switch (tag & 7) {
        case VARINT -> varint();
        case FIXED64 -> advance(8);
        case LENGTH -> advance(length());
        case FIXED32 -> advance(4);
        default -> throw new IllegalArgumentException("unknown wire type in tag " + tag);
      }
    }

    private void advance(int n) {
      if (n > end - pos) {
        throw new IndexOutOfBoundsException("field past the end at " + pos);
      }
      pos += n;
    }
  }
}
