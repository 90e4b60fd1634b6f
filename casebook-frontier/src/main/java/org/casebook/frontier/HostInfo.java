package org.casebook.frontier;

/**
 * One queue (URLFrontier's key, a host by default) of a channel: the delay in force between two
 * hand-outs (its own, or the channel's when {@code ownDelayMs} is null), queued and completed URLs,
 * blocked-until and crawl limit (0 = none), the next time it is due (null = nothing queued).
 */
public record HostInfo(
    String key,
    long delayMs,
    Long ownDelayMs,
    long queued,
    long completed,
    long blockedUntil,
    int crawlLimit,
    Long nextDue) {}
