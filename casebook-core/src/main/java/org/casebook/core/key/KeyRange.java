package org.casebook.core.key;

import java.util.Arrays;
import java.util.Objects;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A half-open row range {@code [start, stop)}; an empty {@code stop} means "to the end of the
 * table". Every prefix scan in Casebook goes through {@link #prefix(byte[])} so that it is bounded.
 */
public final class KeyRange {
  private static final byte[] EMPTY = new byte[0];
  private final byte[] start;
  private final byte[] stop;

  private KeyRange(byte[] start, byte[] stop) {
    this.start = start;
    this.stop = stop;
  }

  /** All rows that start with {@code prefix}. */
  public static KeyRange prefix(byte[] prefix) {
    Objects.requireNonNull(prefix, "prefix is null");
    return new KeyRange(prefix.clone(), successorOfPrefix(prefix));
  }

  /** Rows from {@code start} (inclusive) up to {@code stop} (exclusive; empty = no bound). */
  public static KeyRange between(byte[] start, byte[] stop) {
    Objects.requireNonNull(start, "start is null");
    Objects.requireNonNull(stop, "stop is null");
    if (stop.length > 0 && Bytes.compareTo(start, stop) > 0) {
      throw new IllegalArgumentException("start row sorts after stop row");
    }
    return new KeyRange(start.clone(), stop.clone());
  }

  /**
   * The smallest key greater than every key starting with {@code prefix}: drop trailing 0xFF bytes,
   * then add one to the last byte. A prefix of only 0xFF bytes (or none) has no upper bound.
   */
  public static byte[] successorOfPrefix(byte[] prefix) {
    int i = prefix.length - 1;
    while (i >= 0 && prefix[i] == (byte) 0xFF) {
      i--;
    }
    if (i < 0) {
      return EMPTY;
    }
    byte[] stop = Arrays.copyOf(prefix, i + 1);
    stop[i]++;
    return stop;
  }

  /** The smallest key strictly greater than {@code key} (used to resume a scan after a row). */
  public static byte[] successorOf(byte[] key) {
    byte[] next = Arrays.copyOf(key, key.length + 1);
    return next;
  }

  public byte[] start() {
    return start.clone();
  }

  public byte[] stop() {
    return stop.clone();
  }

  public boolean contains(byte[] row) {
    return Bytes.compareTo(row, start) >= 0 && (stop.length == 0 || Bytes.compareTo(row, stop) < 0);
  }

  public Scan toScan() {
    return new Scan().withStartRow(start, true).withStopRow(stop, false);
  }

  @Override
  public String toString() {
    return "["
        + Bytes.toStringBinary(start)
        + ", "
        + (stop.length == 0 ? "END" : Bytes.toStringBinary(stop))
        + ")";
  }
}
