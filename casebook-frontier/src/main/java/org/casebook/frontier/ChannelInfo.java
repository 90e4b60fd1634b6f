package org.casebook.frontier;

/** A channel as listed: settings and its queued and completed URLs. */
public record ChannelInfo(
    String crawlId, ChannelKind kind, long delayMs, long queued, long completed, long created) {}
