package org.casebook.frontier;

import org.apache.hadoop.hbase.util.Bytes;

/**
 * The stored form of a host's {@link DueStamp} ({@code h:n}, and a due row's {@code d:p}): its time
 * (-1: none) and token, 16 bytes; 8 bytes is a time written before stamps had tokens (token 0).
 */
final class DueCodec {
  private static final long NONE = -1;

  private DueCodec() {}

  static byte[] stamp(DueStamp s) {
    if (s.token() == 0) {
      return Bytes.toBytes(s.due());
    }
    return Bytes.add(Bytes.toBytes(s.scheduled() ? s.due() : NONE), Bytes.toBytes(s.token()));
  }

  /** The stamp stored as {@code v}; null when there is none. */
  static DueStamp stamp(byte[] v) {
    if (v == null) {
      return null;
    }
    if (v.length == Bytes.SIZEOF_LONG) {
      return new DueStamp(Bytes.toLong(v), 0);
    }
    long due = Bytes.toLong(v, 0);
    return new DueStamp(due == NONE ? null : due, Bytes.toLong(v, Bytes.SIZEOF_LONG));
  }
}
