package org.casebook.frontier;

import java.util.Objects;

/**
 * A channel: one URLFrontier crawl ID, stored under its own number {@code id} (a crawl deleted and
 * put again gets a new one), with its ordering and its default delay between two hand-outs of one
 * host.
 */
record Channel(String crawlId, long id, ChannelKind kind, long delayMs, long created) {
  Channel {
    Objects.requireNonNull(crawlId, "crawlId is null");
    Objects.requireNonNull(kind, "kind is null");
  }
}
