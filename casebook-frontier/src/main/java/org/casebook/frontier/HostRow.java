package org.casebook.frontier;

/**
 * A host (queue) as stored: its queue key, own delay (null: the channel's), blocked-until and crawl
 * limit (0: none), last hand-out (0: none), its place in the due index (null: never scheduled) and
 * its running queued and completed counts.
 */
record HostRow(
    byte[] hostId,
    String key,
    Long delayMs,
    long blockedUntil,
    int limit,
    long last,
    DueStamp stamp,
    long queued,
    long completed) {

  /** The next due time; null when not scheduled. */
  Long next() {
    return stamp == null ? null : stamp.due();
  }
}
