package org.casebook.frontier;

/**
 * URLFrontier's statistics of a queue or a whole crawl: queues, queues with anything queued or in
 * flight, URLs queued, URLs in flight (handed out and not yet acknowledged nor expired), completed.
 */
public record QueueStats(
    String crawlId, long queues, long activeQueues, long queued, long inFlight, long completed) {}
