package org.casebook.frontier;

/**
 * A known URL as stored: its version (changed by every write, so a write can check nothing came
 * between), the stored URL ({@link UrlInfoCodec}), the priority of its queued row (null: done, no
 * queued row), its due time and when it was first stored (ms since the epoch; 0 for a row written
 * before the frontier kept it), and the versions it held before ({@link #made}).
 */
record UrlStatus(
    long version, byte[] info, Long priority, long dueMs, long createdMs, long[] earlier) {
  /** Versions a row keeps of the writes before its current one. */
  static final int EARLIER_KEPT = 4;

  boolean queued() {
    return priority != null;
  }

  /**
   * Whether the write of {@code v} was made: the row holds it, or held it before one of the last
   * few writes (a random version no other write draws).
   */
  boolean made(long v) {
    if (version == v) {
      return true;
    }
    for (long e : earlier) {
      if (e == v) {
        return true;
      }
    }
    return false;
  }

  /** The earlier versions a write replacing this row keeps: this one first, then the newest. */
  long[] earlierAfterReplace() {
    long[] out = new long[Math.min(EARLIER_KEPT, earlier.length + 1)];
    out[0] = version;
    System.arraycopy(earlier, 0, out, 1, out.length - 1);
    return out;
  }
}
