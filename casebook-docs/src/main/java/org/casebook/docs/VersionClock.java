package org.casebook.docs;

import java.time.Clock;

/**
 * The one source of document versions, shared by every write path of a store (bulk, PUT, PATCH,
 * comments, deletes, counters). A version is also the HBase timestamp of every cell the write
 * stores, so which of two writes of one document wins is decided by their versions alone — in
 * whatever order they reach the region server.
 *
 * <p>A version is {@code tick << 6 | writer}: {@code writer} (0..63) is this writer's number, taken
 * from a counter in the registry when the store opens, so two live writers never share one (unless
 * 64 others were opened between them); {@code tick} counts 1/32 ms and is a hybrid logical clock:
 * {@code max(last tick + 1, now in 1/32 ms, tick of a version seen + 1)}. So versions of one writer
 * strictly increase, never repeat across writers, follow wall-clock time across processes, and a
 * write over a version read (an edit) always gets a larger one even if the writer that stored it
 * runs ahead. Versions stay below 2^53 until 2109, so JavaScript reads them exactly.
 *
 * <p>32 ticks a millisecond is more than a writer needs: a bulk batch takes one version for all its
 * rows (they are distinct rows), and single-document writes take one each.
 */
final class VersionClock {
  static final int WRITER_BITS = 6;
  static final int WRITERS = 1 << WRITER_BITS;
  static final long TICKS_PER_MILLI = 32;

  private final Clock clock;
  private final long writer;
  private long lastTick;

  /** The smallest version any writer gives at wall-clock time {@code epochMs}. */
  static long firstVersionAt(long epochMs) {
    return (epochMs * TICKS_PER_MILLI) << WRITER_BITS;
  }

  VersionClock(Clock clock, long writer) {
    this.clock = clock;
    this.writer = Math.floorMod(writer, WRITERS);
  }

  /** A version larger than every one this clock gave before. */
  synchronized long next() {
    return nextAfter(0);
  }

  /** A version larger than every one this clock gave before and larger than {@code seen}. */
  synchronized long nextAfter(long seen) {
    long tick =
        Math.max(
            Math.max(lastTick + 1, clock.millis() * TICKS_PER_MILLI), (seen >> WRITER_BITS) + 1);
    lastTick = tick;
    return tick << WRITER_BITS | writer;
  }
}
