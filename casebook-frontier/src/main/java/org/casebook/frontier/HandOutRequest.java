package org.casebook.frontier;

import java.util.Objects;
import org.casebook.core.InvalidInputException;

/**
 * What a crawler asks for (URLFrontier's {@code GetParams}): URLs due now from at most {@code
 * maxQueues} queues (0: no limit), at most {@code maxUrlsPerQueue} from each (0: up to 10,000),
 * held in flight for {@code delayRequestable} seconds (0: 30), from one crawl or (crawl ID null)
 * any, and only from queue {@code key} when given (which needs a crawl ID).
 */
public record HandOutRequest(
    String crawlId, String key, int maxQueues, int maxUrlsPerQueue, int delayRequestable) {
  public HandOutRequest {
    Objects.requireNonNull(key, "key is null");
    InvalidInputException.check(maxQueues >= 0, "max_queues", "must not be negative");
    InvalidInputException.check(maxUrlsPerQueue >= 0, "max_urls_per_queue", "must not be negative");
    InvalidInputException.check(delayRequestable >= 0, "delay_requestable", "must not be negative");
  }

  /** URLs of {@code crawlId} from up to {@code maxQueues} queues, {@code perQueue} from each. */
  public static HandOutRequest of(String crawlId, int maxQueues, int perQueue) {
    return new HandOutRequest(
        Objects.requireNonNull(crawlId, "crawlId is null"), "", maxQueues, perQueue, 0);
  }

  public HandOutRequest withDelayRequestable(int seconds) {
    return new HandOutRequest(crawlId, key, maxQueues, maxUrlsPerQueue, seconds);
  }

  public boolean anyCrawlId() {
    return crawlId == null;
  }
}
