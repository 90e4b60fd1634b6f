package org.casebook.frontier;

/**
 * One day (UTC) of a channel or host: URLs put, new among them, duplicates (discovered again),
 * handed out, acknowledged (put back as known), failed (refused items), and URLs in the queue at
 * the end of the day (now, for today).
 */
public record DailyStats(
    String day,
    long put,
    long added,
    long duplicates,
    long handedOut,
    long acknowledged,
    long failed,
    long inQueue) {}
