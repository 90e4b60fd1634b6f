package org.casebook.frontier;

/**
 * A host (queue) as stored: its queue key, own delay (null: the channel's), blocked-until and crawl
 * limit (0: none), last hand-out (0: none), next due time (null: not scheduled) and its running
 * queued and completed counts.
 */
record HostRow(
    byte[] hostId,
    String key,
    Long delayMs,
    long blockedUntil,
    int limit,
    long last,
    Long next,
    long queued,
    long completed) {}
