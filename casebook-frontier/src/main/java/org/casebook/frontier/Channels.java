package org.casebook.frontier;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.casebook.core.StorageException;

/**
 * Crawl ID → channel, with a short-lived cache: every put and hand-out needs the channel, and a
 * channel changes only when it is created, deleted or its delay set (here, or — within the cache's
 * few seconds — in another process).
 */
final class Channels {
  /** A cached channel is trusted this long; a channel deleted elsewhere is purged after longer. */
  static final long CACHE_MILLIS = 2_000;

  /** The default delay between two hand-outs of one host: the reference service's 1 s. */
  static final long DEFAULT_DELAY_MS = 1_000;

  /** Channels read per round trip when every one is listed. */
  private static final int LIST_PAGE = 1000;

  private record Cached(Channel channel, long until) {}

  private final ChannelStore store;
  private final Clock clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  Channels(ChannelStore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /** The channel of {@code crawlId} if it exists. */
  Optional<Channel> find(String crawlId) {
    long now = clock.millis();
    Cached c = cache.get(crawlId);
    if (c != null && c.until() > now) {
      return Optional.of(c.channel());
    }
    Optional<Channel> found = store.channel(crawlId);
    found.ifPresentOrElse(
        ch -> cache.put(crawlId, new Cached(ch, now + CACHE_MILLIS)), () -> cache.remove(crawlId));
    return found;
  }

  /** The channel of {@code crawlId}, created FIFO with the default delay if it does not exist. */
  Channel findOrCreate(String crawlId) {
    return find(crawlId).orElseGet(() -> create(crawlId, ChannelKind.FIFO, DEFAULT_DELAY_MS));
  }

  /** Creates a channel; answers the stored one (an earlier creation wins). */
  Channel create(String crawlId, ChannelKind kind, long delayMs) {
    Channel ch = store.create(crawlId, kind, delayMs, clock.millis());
    if (ch == null) {
      // Deleted again before it was read back: nothing to cache, and the caller may send again.
      throw StorageException.unavailable(
          "channel " + crawlId + " was deleted while it was created; send again");
    }
    cache.put(crawlId, new Cached(ch, clock.millis() + CACHE_MILLIS));
    return ch;
  }

  /** Every channel, in crawl ID order, read from the table (not the cache). */
  List<Channel> all() {
    List<Channel> all = new ArrayList<>();
    String after = null;
    while (true) {
      List<Channel> page = store.channels(after, LIST_PAGE);
      all.addAll(page);
      if (page.size() < LIST_PAGE) {
        return all;
      }
      after = page.get(page.size() - 1).crawlId();
    }
  }

  void forget(String crawlId) {
    cache.remove(crawlId);
  }
}
