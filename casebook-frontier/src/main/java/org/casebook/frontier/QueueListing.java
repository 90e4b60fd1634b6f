package org.casebook.frontier;

import java.util.List;
import java.util.Objects;

/**
 * A page of a crawl's queues (URLFrontier's {@code QueueList}): their keys from position {@code
 * start}, and how many queues matched in all.
 */
public record QueueListing(String crawlId, List<String> keys, int start, long total) {
  public QueueListing {
    Objects.requireNonNull(crawlId, "crawlId is null");
    keys = List.copyOf(keys);
  }
}
