package org.casebook.frontier;

/**
 * A queued URL row as read in hand-out order: its host, priority (its place in the queue) and URL
 * id, the stored URL, the version of the put that wrote it (an orphan's differs from its known
 * row's), its due time and the time it is in flight until (0: never handed out).
 */
record QueuedUrl(
    byte[] hostId,
    long priority,
    byte[] urlId,
    byte[] info,
    long version,
    long dueMs,
    long inFlightUntil) {}
