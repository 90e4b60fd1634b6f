package org.casebook.frontier;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;

/**
 * What the frontier answers without changing anything: channels, hosts and queues, URLs and their
 * status, counts and statistics (URLFrontier's ListQueues, GetStats, GetURLStatus, ListURLs and
 * CountURLs, and the listings for people).
 */
final class Listings {
  /** URLFrontier's default page of ListQueues and ListURLs. */
  static final int DEFAULT_PAGE = 100;

  /** Host rows read per round trip when a crawl's hosts are walked. */
  private static final int HOST_PAGE = 1000;

  private final FrontierStore stores;
  private final Channels channels;
  private final Clock clock;

  Listings(FrontierStore stores, Channels channels, Clock clock) {
    this.stores = Objects.requireNonNull(stores, "stores is null");
    this.channels = Objects.requireNonNull(channels, "channels is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /** The channel of {@code crawlId}, which must exist. */
  Channel existing(String crawlId) {
    String crawl = UrlRules.crawlId(crawlId);
    return channels.find(crawl).orElseThrow(() -> new NotFoundException("no channel " + crawl));
  }

  /** Every host of a channel that {@code keep} accepts, in host id order, to {@code sink}. */
  private void eachHost(long channel, Predicate<HostRow> keep, Consumer<HostRow> sink) {
    byte[] after = null;
    while (true) {
      List<HostRow> page = stores.hosts().page(channel, after, HOST_PAGE, keep);
      page.forEach(sink);
      if (page.size() < HOST_PAGE) {
        return;
      }
      after = page.get(page.size() - 1).hostId();
    }
  }

  QueueListing listQueues(String crawlId, int start, int size, boolean includeInactive) {
    InvalidInputException.check(start >= 0, "start", "must not be negative");
    InvalidInputException.check(size >= 0, "size", "must not be negative");
    String crawl = UrlRules.crawlId(crawlId);
    int max = size == 0 ? DEFAULT_PAGE : size;
    Optional<Channel> ch = channels.find(crawl);
    if (ch.isEmpty()) {
      return new QueueListing(crawl, List.of(), start, 0);
    }
    long now = clock.millis();
    List<String> keys = new ArrayList<>();
    long[] total = {0};
    eachHost(
        ch.get().id(),
        h -> includeInactive || (h.queued() > 0 && h.blockedUntil() <= now),
        h -> {
          if (total[0] >= start && keys.size() < max) {
            keys.add(h.key());
          }
          total[0]++;
        });
    return new QueueListing(crawl, keys, start, total[0]);
  }

  QueueStats stats(String crawlId, String key) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> found = channels.find(crawl);
    if (found.isEmpty()) {
      return new QueueStats(crawl, 0, 0, 0, 0, 0);
    }
    Channel ch = found.get();
    long now = clock.millis();
    if (key != null && !key.isEmpty()) {
      byte[] hostId = FrontierKeys.hostId(UrlRules.queueKey(key));
      Optional<HostRow> h = stores.hosts().host(ch.id(), hostId);
      if (h.isEmpty()) {
        return new QueueStats(crawl, 0, 0, 0, 0, 0);
      }
      long inFlight = stores.queues().countInFlight(ch.id(), hostId, now);
      boolean active = h.get().queued() > 0 || inFlight > 0;
      return new QueueStats(
          crawl, 1, active ? 1 : 0, h.get().queued(), inFlight, h.get().completed());
    }
    UrlCounts counters = stores.hosts().channelCounters(ch.id());
    long[] queues = new long[2];
    eachHost(
        ch.id(),
        h -> true,
        h -> {
          queues[0]++;
          if (h.queued() > 0) {
            queues[1]++;
          }
        });
    long inFlight = stores.queues().countInFlight(ch.id(), null, now);
    return new QueueStats(
        crawl, queues[0], queues[1], counters.queued(), inFlight, counters.completed());
  }

  KnownUrl urlStatus(String crawlId, String key, String url) {
    String u = UrlRules.url(url, "url");
    String k = UrlRules.key(key, u, "key");
    String crawl = UrlRules.crawlId(crawlId);
    Channel ch = channels.find(crawl).orElseThrow(() -> new NotFoundException("no crawl " + crawl));
    UrlStatus s = stores.known().read(ch.id(), List.of(UrlRef.of(k, u))).get(0);
    if (s == null) {
      throw new NotFoundException("unknown URL " + u);
    }
    return known(s);
  }

  private static KnownUrl known(UrlStatus s) {
    return new KnownUrl(
        UrlInfoCodec.decode(s.info()), s.queued() ? s.dueMs() / 1000 : 0, s.createdMs() / 1000);
  }

  List<KnownUrl> listUrls(
      String crawlId, String key, long start, int size, String filter, boolean ignoreCase) {
    InvalidInputException.check(start >= 0, "start", "must not be negative");
    InvalidInputException.check(size >= 0, "size", "must not be negative");
    int max = size == 0 ? DEFAULT_PAGE : size;
    List<KnownUrl> out = new ArrayList<>();
    long[] pos = {0};
    scanUrls(
        crawlId,
        key,
        filter,
        ignoreCase,
        url -> {
          if (pos[0]++ >= start) {
            out.add(url);
          }
          return out.size() < max;
        });
    return out;
  }

  long countUrls(String crawlId, String key, String filter, boolean ignoreCase) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> ch = channels.find(crawl);
    if (ch.isEmpty()) {
      return 0;
    }
    if (filter == null || filter.isBlank()) {
      if (key == null || key.isEmpty()) {
        return stores.hosts().channelCounters(ch.get().id()).total();
      }
      return stores
          .hosts()
          .host(ch.get().id(), FrontierKeys.hostId(UrlRules.queueKey(key)))
          .map(h -> h.queued() + h.completed())
          .orElse(0L);
    }
    long[] n = {0};
    scanUrls(crawlId, key, filter, ignoreCase, url -> ++n[0] > 0);
    return n[0];
  }

  private void scanUrls(
      String crawlId, String key, String filter, boolean ignoreCase, Predicate<KnownUrl> sink) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> ch = channels.find(crawl);
    if (ch.isEmpty()) {
      return;
    }
    byte[] hostId =
        key == null || key.isEmpty() ? null : FrontierKeys.hostId(UrlRules.queueKey(key));
    boolean filtered = filter != null && !filter.isBlank();
    String needle = filtered && ignoreCase ? filter.toLowerCase(Locale.ROOT) : filter;
    stores
        .known()
        .scan(
            ch.get().id(),
            hostId,
            s -> {
              KnownUrl url = known(s);
              if (filtered) {
                String u = url.info().url();
                String hay = ignoreCase ? u.toLowerCase(Locale.ROOT) : u;
                if (!hay.contains(needle)) {
                  return true;
                }
              }
              return sink.test(url);
            });
  }

  // ---- for people

  ChannelInfo info(Channel ch) {
    UrlCounts c = stores.hosts().channelCounters(ch.id());
    return new ChannelInfo(
        ch.crawlId(), ch.kind(), ch.delayMs(), c.queued(), c.completed(), ch.created());
  }

  /** The channel as stored now (not cached). */
  ChannelInfo channel(String crawlId) {
    String crawl = UrlRules.crawlId(crawlId);
    return info(
        stores
            .channels()
            .channel(crawl)
            .orElseThrow(() -> new NotFoundException("no channel " + crawl)));
  }

  Page<ChannelInfo> channels(PageRequest page) {
    String after =
        page.cursor()
            .map(c -> Cursors.decode(FrontierKeys.CHANNELS_SCOPE, c, r -> r.readString()))
            .orElse(null);
    List<Channel> fetched = stores.channels().channels(after, page.fetchSize());
    return Page.of(
            fetched,
            page.limit(),
            ch ->
                Cursors.encode(
                    FrontierKeys.CHANNELS_SCOPE,
                    KeyBuilder.create().addString(ch.crawlId()).build()))
        .map(this::info);
  }

  Page<HostInfo> hosts(String crawlId, PageRequest page) {
    Channel ch = existing(crawlId);
    byte[] after =
        page.cursor()
            .map(
                c ->
                    Cursors.decode(
                        FrontierKeys.HOSTS_SCOPE, c, r -> r.readFixed(FrontierKeys.HOST_ID_BYTES)))
            .orElse(null);
    List<HostRow> fetched = stores.hosts().page(ch.id(), after, page.fetchSize(), h -> true);
    return Page.of(
            fetched,
            page.limit(),
            h ->
                Cursors.encode(
                    FrontierKeys.HOSTS_SCOPE, KeyBuilder.create().addFixed(h.hostId()).build()))
        .map(h -> hostInfo(ch, h));
  }

  private static HostInfo hostInfo(Channel ch, HostRow h) {
    return new HostInfo(
        h.key(),
        h.delayMs() == null ? ch.delayMs() : h.delayMs(),
        h.delayMs(),
        h.queued(),
        h.completed(),
        h.blockedUntil(),
        h.limit(),
        h.next());
  }

  HostInfo host(String crawlId, String key) {
    Channel ch = existing(crawlId);
    return stores
        .hosts()
        .host(ch.id(), FrontierKeys.hostId(UrlRules.queueKey(key)))
        .map(h -> hostInfo(ch, h))
        .orElseThrow(
            () -> new NotFoundException("no queue " + key + " in channel " + ch.crawlId()));
  }

  List<DailyStats> dailyStats(String crawlId, String key) {
    Channel ch = existing(crawlId);
    byte[] hostId =
        key == null || key.isEmpty() ? null : FrontierKeys.hostId(UrlRules.queueKey(key));
    long queuedNow;
    if (hostId == null) {
      queuedNow = stores.hosts().channelCounters(ch.id()).queued();
    } else {
      queuedNow =
          stores
              .hosts()
              .host(ch.id(), hostId)
              .orElseThrow(() -> new NotFoundException("no queue " + key))
              .queued();
    }
    TreeMap<Integer, Map<String, Long>> days =
        new TreeMap<>(stores.hosts().dailyCounters(ch.id(), hostId));
    List<DailyStats> out = new ArrayList<>();
    long level = queuedNow;
    for (Map.Entry<Integer, Map<String, Long>> e : days.descendingMap().entrySet()) {
      Map<String, Long> c = e.getValue();
      out.add(
          new DailyStats(
              Days.iso(e.getKey()),
              c.getOrDefault(Counts.PUT, 0L),
              c.getOrDefault(Counts.NEW, 0L),
              c.getOrDefault(Counts.DUPLICATE, 0L),
              c.getOrDefault(Counts.OUT, 0L),
              c.getOrDefault(Counts.ACK, 0L),
              c.getOrDefault(Counts.FAILED, 0L),
              level));
      level -= c.getOrDefault(Counts.QUEUED, 0L);
    }
    return out;
  }
}
