package org.casebook.tsdb;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Columns of a data row. A raw point is one column, qualified as OpenTSDB qualifies it:
 *
 * <ul>
 *   <li>second resolution, 2 bytes: {@code offset_s << 4 | flags}, offset in the hour 0..3599;
 *   <li>millisecond resolution, 4 bytes: {@code 0xF << 28 | offset_ms << 6 | flags};
 *   <li>flags: bit 3 set for a float, bits 0–2 the value length minus one.
 * </ul>
 *
 * Integers take the fewest of 1, 2, 4 or 8 bytes; a float takes 4 bytes when its decimal text fits
 * a float exactly, else 8 (as OpenTSDB 2.4), so values read back as written.
 *
 * <p>A compacted hour is one cell under the 1-byte qualifier {@link #COMPACTED} (never the length
 * of a raw qualifier): a version byte, a unit byte (1 = every point on a whole second, so times are
 * counted in seconds), the point count, then per point a varint {@code time_delta << 2 | kind}
 * (kind 0 integer, 1 float32, 2 float64) and the value — integers as a zig-zag varint of the
 * difference from the previous integer, floats raw. Steady counters and gauges take 2–3 bytes a
 * point where raw columns take a qualifier, a value and a whole cell key each.
 */
final class PointCodec {
  static final byte[] COMPACTED = {'c'};
  private static final int FORMAT = 1;
  private static final int FLAG_FLOAT = 0x8;
  private static final int LENGTH_MASK = 0x7;

  private PointCodec() {}

  /**
   * The column of a point. {@code millis} picks the 4-byte qualifier; a point on a whole second
   * sent in seconds gets the 2-byte one.
   */
  static byte[] qualifier(long timestampMs, boolean millis, int flags) {
    long offsetMs = timestampMs - TsdbKeys.hourStartMs(TsdbKeys.hourOf(timestampMs));
    if (!millis) {
      int q = (int) ((offsetMs / 1000) << 4) | flags;
      return new byte[] {(byte) (q >>> 8), (byte) q};
    }
    int q = 0xF0000000 | (int) (offsetMs << 6) | flags;
    return ByteBuffer.allocate(4).putInt(q).array();
  }

  /** The value bytes of a point, and (through {@link #flags}) its flags. */
  static byte[] value(DataPoint p, boolean narrowFloat) {
    if (p.integer()) {
      long v = p.longValue();
      if (v == (byte) v) {
        return new byte[] {(byte) v};
      }
      if (v == (short) v) {
        return ByteBuffer.allocate(2).putShort((short) v).array();
      }
      if (v == (int) v) {
        return ByteBuffer.allocate(4).putInt((int) v).array();
      }
      return ByteBuffer.allocate(8).putLong(v).array();
    }
    if (narrowFloat) {
      return ByteBuffer.allocate(4).putFloat((float) p.doubleValue()).array();
    }
    return ByteBuffer.allocate(8).putDouble(p.doubleValue()).array();
  }

  static int flags(boolean integer, int valueLength) {
    return (integer ? 0 : FLAG_FLOAT) | (valueLength - 1);
  }

  /** The point of one raw column of the row whose hour is {@code hour}. */
  static DataPoint decodeColumn(int hour, byte[] q, byte[] v) {
    long base = TsdbKeys.hourStartMs(hour);
    int flags;
    long ts;
    if (q.length == 2) {
      int x = ((q[0] & 0xFF) << 8) | (q[1] & 0xFF);
      flags = x & 0xF;
      ts = base + (x >>> 4) * 1000L;
    } else if (q.length == 4 && (q[0] & 0xF0) == 0xF0) {
      int x = ByteBuffer.wrap(q).getInt();
      flags = x & 0xF;
      ts = base + ((x & 0x0FFFFFFF) >>> 6);
    } else {
      throw new IllegalArgumentException("not a point qualifier: " + q.length + " byte(s)");
    }
    int length = (flags & LENGTH_MASK) + 1;
    if (v.length != length) {
      throw new IllegalArgumentException("value has " + v.length + " bytes, flags say " + length);
    }
    if ((flags & FLAG_FLOAT) != 0) {
      return switch (length) {
        case 4 -> DataPoint.ofDouble(ts, ByteBuffer.wrap(v).getFloat());
        case 8 -> DataPoint.ofDouble(ts, ByteBuffer.wrap(v).getDouble());
        default -> throw new IllegalArgumentException("float of " + length + " bytes");
      };
    }
    ByteBuffer b = ByteBuffer.wrap(v);
    long value =
        switch (length) {
          case 1 -> b.get();
          case 2 -> b.getShort();
          case 4 -> b.getInt();
          case 8 -> b.getLong();
          default -> throw new IllegalArgumentException("integer of " + length + " bytes");
        };
    return DataPoint.ofLong(ts, value);
  }

  /** Whether {@code q} is a raw point's column (not the compacted cell). */
  static boolean isPointColumn(byte[] q) {
    return q.length == 2 || q.length == 4;
  }

  /** One cell holding {@code points} (ascending time, one per timestamp) of hour {@code hour}. */
  static byte[] compact(int hour, List<DataPoint> points) {
    long base = TsdbKeys.hourStartMs(hour);
    boolean seconds = true;
    for (DataPoint p : points) {
      seconds &= (p.timestampMs() - base) % 1000 == 0;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8 + points.size() * 3);
    out.write(FORMAT);
    out.write(seconds ? 1 : 0);
    writeVarint(out, points.size());
    long previousTime = 0;
    long previousInteger = 0;
    for (DataPoint p : points) {
      long t = p.timestampMs() - base;
      long unitTime = seconds ? t / 1000 : t;
      long delta = unitTime - previousTime;
      previousTime = unitTime;
      if (p.integer()) {
        writeVarint(out, delta << 2);
        long d = p.longValue() - previousInteger;
        writeVarint(out, (d << 1) ^ (d >> 63));
        previousInteger = p.longValue();
      } else if ((float) p.doubleValue() == p.doubleValue() || Double.isNaN(p.doubleValue())) {
        writeVarint(out, delta << 2 | 1);
        int bits = Float.floatToIntBits((float) p.doubleValue());
        out.write(bits >>> 24);
        out.write(bits >>> 16);
        out.write(bits >>> 8);
        out.write(bits);
      } else {
        writeVarint(out, delta << 2 | 2);
        long bits = Double.doubleToLongBits(p.doubleValue());
        for (int s = 56; s >= 0; s -= 8) {
          out.write((int) (bits >>> s));
        }
      }
    }
    return out.toByteArray();
  }

  /** The points of a compacted cell of hour {@code hour}. */
  static List<DataPoint> expand(int hour, byte[] cell) {
    List<DataPoint> points = new ArrayList<>();
    expandInto(hour, ByteBuffer.wrap(cell), Long.MIN_VALUE, Long.MAX_VALUE, points);
    return points;
  }

  /**
   * Appends the points of a compacted cell whose time is in {@code [fromMs, toMs]} to {@code out},
   * read in place from the cell (a query reads millions of points; no copy of the cell).
   */
  static void expandInto(
      int hour, org.apache.hadoop.hbase.Cell cell, long fromMs, long toMs, List<DataPoint> out) {
    expandInto(
        hour,
        ByteBuffer.wrap(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength()),
        fromMs,
        toMs,
        out);
  }

  private static void expandInto(
      int hour, ByteBuffer in, long fromMs, long toMs, List<DataPoint> out) {
    int format = in.get();
    if (format != FORMAT) {
      throw new IllegalArgumentException("unknown compacted cell format " + format);
    }
    boolean seconds = in.get() == 1;
    long base = TsdbKeys.hourStartMs(hour);
    int count = (int) readVarint(in);
    long time = 0;
    long integer = 0;
    for (int i = 0; i < count; i++) {
      long head = readVarint(in);
      time += head >>> 2;
      long ts = base + (seconds ? time * 1000 : time);
      boolean keep = ts >= fromMs && ts <= toMs;
      switch ((int) (head & 3)) {
        case 0 -> {
          long z = readVarint(in);
          integer += (z >>> 1) ^ -(z & 1);
          if (keep) {
            out.add(DataPoint.ofLong(ts, integer));
          }
        }
        case 1 -> {
          float f = in.getFloat();
          if (keep) {
            out.add(DataPoint.ofDouble(ts, f));
          }
        }
        case 2 -> {
          double d = in.getDouble();
          if (keep) {
            out.add(DataPoint.ofDouble(ts, d));
          }
        }
        default -> throw new IllegalArgumentException("bad point kind in compacted cell");
      }
    }
  }

  /**
   * The points of one row from its cells (the data family only), as {@link #rowPoints(int, Map)}.
   */
  static List<DataPoint> rowPoints(int hour, org.apache.hadoop.hbase.Cell[] cells) {
    if (cells.length == 1 && isCompacted(cells[0])) {
      org.apache.hadoop.hbase.Cell c = cells[0];
      return expand(
          hour,
          java.util.Arrays.copyOfRange(
              c.getValueArray(), c.getValueOffset(), c.getValueOffset() + c.getValueLength()));
    }
    boolean raw = true;
    for (org.apache.hadoop.hbase.Cell c : cells) {
      raw &= c.getQualifierLength() == 2;
    }
    if (raw) {
      // Second-resolution columns only: qualifier order is time order. One second written
      // twice with different flags (an integer, then a float) is two columns: the later write
      // (cell time) wins, as OpenTSDB's fix_duplicates.
      List<DataPoint> points = new ArrayList<>(cells.length);
      long previousWrite = Long.MIN_VALUE;
      for (org.apache.hadoop.hbase.Cell c : cells) {
        DataPoint p =
            decodeColumn(
                hour,
                org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
                org.apache.hadoop.hbase.CellUtil.cloneValue(c));
        int last = points.size() - 1;
        if (last >= 0 && points.get(last).timestampMs() == p.timestampMs()) {
          if (c.getTimestamp() >= previousWrite) {
            points.set(last, p);
            previousWrite = c.getTimestamp();
          }
          continue;
        }
        points.add(p);
        previousWrite = c.getTimestamp();
      }
      return points;
    }
    Map<byte[], byte[]> map = new TreeMap<>(org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR);
    for (org.apache.hadoop.hbase.Cell c : cells) {
      map.put(
          org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
          org.apache.hadoop.hbase.CellUtil.cloneValue(c));
    }
    return rowPoints(hour, map);
  }

  /** Whether a cell is a compacted hour. */
  static boolean isCompacted(org.apache.hadoop.hbase.Cell c) {
    return c.getQualifierLength() == 1
        && c.getQualifierArray()[c.getQualifierOffset()] == COMPACTED[0];
  }

  /**
   * The points of one row: the compacted cell first, then raw columns over it (a raw column is
   * always the later write of its timestamp). Ascending time, one point per timestamp.
   */
  static List<DataPoint> rowPoints(int hour, Map<byte[], byte[]> familyCells) {
    if (familyCells.size() == 1) {
      Map.Entry<byte[], byte[]> only = familyCells.entrySet().iterator().next();
      if (only.getKey().length == 1 && only.getKey()[0] == COMPACTED[0]) {
        return expand(hour, only.getValue()); // a compacted hour: sorted and unique already
      }
    }
    TreeMap<Long, DataPoint> byTime = new TreeMap<>();
    byte[] compacted = null;
    for (Map.Entry<byte[], byte[]> e : familyCells.entrySet()) {
      if (e.getKey().length == 1 && e.getKey()[0] == COMPACTED[0]) {
        compacted = e.getValue();
      }
    }
    if (compacted != null) {
      for (DataPoint p : expand(hour, compacted)) {
        byTime.put(p.timestampMs(), p);
      }
    }
    for (Map.Entry<byte[], byte[]> e : familyCells.entrySet()) {
      if (isPointColumn(e.getKey())) {
        DataPoint p = decodeColumn(hour, e.getKey(), e.getValue());
        byTime.put(p.timestampMs(), p);
      }
    }
    return new ArrayList<>(byTime.values());
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    long x = v;
    while ((x & ~0x7FL) != 0) {
      out.write((int) ((x & 0x7F) | 0x80));
      x >>>= 7;
    }
    out.write((int) x);
  }

  private static long readVarint(ByteBuffer in) {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("varint longer than 10 bytes");
  }
}
