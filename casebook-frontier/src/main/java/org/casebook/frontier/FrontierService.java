package org.casebook.frontier;

import com.google.protobuf.InvalidProtocolBufferException;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.client.Result;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.SystemContext;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl frontier (seed 002) in URLFrontier's terms: channels are crawl IDs, queues are hosts
 * (URLFrontier's keys). Puts and hand-outs are in {@link Intake} and {@link Handout}; this class
 * holds the rest of the protocol, the channel and host settings and the statistics.
 */
public final class FrontierService {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierService.class);

  /** URLFrontier's default page of ListQueues and ListURLs. */
  static final int DEFAULT_PAGE = 100;

  /** A deleted channel's rows are purged once every cached name of it has expired. */
  static final long PURGE_GRACE_MS = 5 * Channels.CACHE_MILLIS;

  private final FrontierStore store;
  private final Channels channels;
  private final Intake intake;
  private final Handout handout;
  private final Clock clock;
  private volatile String address = "127.0.0.1:" + FrontierSystem.GRPC.defaultPort();

  public FrontierService(SystemContext context) {
    this(context, FrontierSchema.DEFAULT_NAMESPACE);
  }

  /** A frontier in its own namespace (tests and benchmarks); its tables are created if missing. */
  public FrontierService(SystemContext context, String namespace) {
    FrontierSchema schema = FrontierSchema.in(namespace);
    new SchemaManager(context.connection()).ensureAll(schema.tables());
    this.clock = context.clock();
    this.store = new FrontierStore(context.connection(), schema);
    this.channels = new Channels(store, clock);
    this.intake = new Intake(store, channels, clock);
    this.handout = new Handout(store, clock, context.sideWork());
  }

  static List<TableSpec> schemas(String namespace) {
    return FrontierSchema.in(namespace).tables();
  }

  /** Where the gRPC service listens ({@code host:port}), for ListNodes. */
  void setAddress(String address) {
    this.address = address;
  }

  // ---- URLFrontier

  /** PutURLs: one acknowledgement per item, in order. */
  public List<AckMessage> put(List<URLItem> items) {
    return intake.put(items);
  }

  /** GetURLs: URLs due now, at most {@code max_urls_per_queue} from each of {@code max_queues}. */
  public List<URLInfo> getUrls(GetParams p) {
    InvalidInputException.check(p.getMaxQueues() >= 0, "max_queues", "must not be negative");
    InvalidInputException.check(
        p.getMaxUrlsPerQueue() >= 0, "max_urls_per_queue", "must not be negative");
    InvalidInputException.check(
        p.getDelayRequestable() >= 0, "delay_requestable", "must not be negative");
    List<URLInfo> out = new ArrayList<>();
    if (!store.active()) {
      return out;
    }
    Handout.Limits limits =
        Handout.Limits.of(p.getMaxQueues(), p.getMaxUrlsPerQueue(), p.getDelayRequestable());
    boolean anyCrawl = p.getItemCase() != GetParams.ItemCase.CRAWLID;
    if (!p.getKey().isEmpty()) {
      InvalidInputException.check(!anyCrawl, "crawlID", "a key needs a crawl ID");
      String crawl = UrlRules.crawlId(p.getCrawlID());
      String key = checkKey(p.getKey());
      channels
          .find(crawl)
          .ifPresent(ch -> handout.handOutQueue(ch, FrontierKeys.hostId(key), limits, out));
      return out;
    }
    if (!anyCrawl) {
      channels
          .find(UrlRules.crawlId(p.getCrawlID()))
          .ifPresent(ch -> handout.handOut(ch, limits, out));
      return out;
    }
    int served = 0;
    for (Channel ch : allChannels()) {
      if (served >= limits.maxQueues()) {
        break;
      }
      Handout.Limits rest =
          new Handout.Limits(
              limits.maxQueues() - served, limits.maxPerQueue(), limits.requestableMs());
      served += handout.handOut(ch, rest, out);
    }
    return out;
  }

  private static String checkKey(String key) {
    return org.casebook.core.Ids.check(key, "key", UrlRules.MAX_KEY);
  }

  private List<Channel> allChannels() {
    List<Channel> all = new ArrayList<>();
    byte[] after = null;
    while (true) {
      List<Channel> page = store.channels(after, 1000);
      all.addAll(page);
      if (page.size() < 1000) {
        return all;
      }
      after = FrontierKeys.CHANNEL_NAME.encode(page.get(page.size() - 1).crawlId());
    }
  }

  /** ListCrawls: every crawl ID with a channel. */
  public List<String> listCrawls() {
    return allChannels().stream().map(Channel::crawlId).toList();
  }

  /**
   * DeleteCrawl: the channel's name goes at once (a put to the crawl ID starts a new channel); its
   * rows are purged in the background. Answers the URLs it held (queued and completed).
   */
  public long deleteCrawl(String crawlId) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> ch = store.channel(crawl);
    channels.forget(crawl);
    if (ch.isEmpty()) {
      return 0;
    }
    long[] counters = store.channelCounters(ch.get().id());
    boolean deleted = store.deleteChannel(ch.get(), clock.millis());
    channels.forget(crawl);
    intake.forgetHosts();
    return deleted ? counters[0] + counters[1] : 0;
  }

  /**
   * ListQueues: queues of a crawl in key-hash order from position {@code start}; without {@code
   * includeInactive} only those with URLs queued and not blocked.
   */
  public QueueList listQueues(String crawlId, int start, int size, boolean includeInactive) {
    InvalidInputException.check(start >= 0, "start", "must not be negative");
    InvalidInputException.check(size >= 0, "size", "must not be negative");
    String crawl = UrlRules.crawlId(crawlId);
    int max = size == 0 ? DEFAULT_PAGE : size;
    QueueList.Builder b = QueueList.newBuilder().setCrawlID(crawl).setStart(start);
    Optional<Channel> ch = channels.find(crawl);
    if (ch.isEmpty()) {
      return b.setTotal(0).setSize(0).build();
    }
    long now = clock.millis();
    Predicate<FrontierStore.HostRow> keep =
        h -> includeInactive || (h.queued() > 0 && h.blockedUntil() <= now);
    long total = 0;
    byte[] after = null;
    while (true) {
      List<FrontierStore.HostRow> page = store.hostPage(ch.get().id(), after, 1000, keep);
      for (FrontierStore.HostRow h : page) {
        if (total >= start && b.getValuesCount() < max) {
          b.addValues(h.key());
        }
        total++;
      }
      if (page.size() < 1000) {
        break;
      }
      after = page.get(page.size() - 1).hostId();
    }
    return b.setTotal(total).setSize(b.getValuesCount()).build();
  }

  /** GetStats of one queue (key given) or a whole crawl. */
  public QueueStats stats(String crawlId, String key) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> found = channels.find(crawl);
    if (found.isEmpty()) {
      return new QueueStats(crawl, 0, 0, 0, 0, 0);
    }
    Channel ch = found.get();
    long now = clock.millis();
    if (key != null && !key.isEmpty()) {
      byte[] hostId = FrontierKeys.hostId(checkKey(key));
      Optional<FrontierStore.HostRow> h = store.host(ch.id(), hostId);
      if (h.isEmpty()) {
        return new QueueStats(crawl, 0, 0, 0, 0, 0);
      }
      long inFlight = store.countInFlight(ch.id(), hostId, now);
      boolean active = h.get().queued() > 0 || inFlight > 0;
      return new QueueStats(
          crawl, 1, active ? 1 : 0, h.get().queued(), inFlight, h.get().completed());
    }
    long[] counters = store.channelCounters(ch.id());
    long[] queues = new long[2];
    byte[] after = null;
    while (true) {
      List<FrontierStore.HostRow> page = store.hostPage(ch.id(), after, 1000, h -> true);
      for (FrontierStore.HostRow h : page) {
        queues[0]++;
        if (h.queued() > 0) {
          queues[1]++;
        }
      }
      if (page.size() < 1000) {
        break;
      }
      after = page.get(page.size() - 1).hostId();
    }
    long inFlight = store.countInFlight(ch.id(), null, now);
    return new QueueStats(crawl, queues[0], queues[1], counters[0], inFlight, counters[1]);
  }

  /** DeleteQueue: every URL of the queue, known and queued; answers how many. */
  public long deleteQueue(String crawlId, String key) {
    String crawl = UrlRules.crawlId(crawlId);
    InvalidInputException.check(key != null && !key.isEmpty(), "key", "a queue key is required");
    byte[] hostId = FrontierKeys.hostId(checkKey(key));
    Optional<Channel> found = channels.find(crawl);
    if (found.isEmpty()) {
      return 0;
    }
    Channel ch = found.get();
    Optional<FrontierStore.HostRow> h = store.host(ch.id(), hostId);
    if (h.isEmpty()) {
      return 0;
    }
    long[] deleted = new long[2];
    store.deleteRange(store.schema().urls(), FrontierKeys.URL.range(ch.id(), hostId), null);
    store.deleteRange(
        store.schema().known(),
        FrontierKeys.KNOWN.range(ch.id(), hostId),
        r -> {
          FrontierStore.Status s = FrontierStore.statusOf(r);
          if (s != null) {
            deleted[s.queued() ? 0 : 1]++;
          }
        });
    if (h.get().next() != null) {
      store.writeDue(List.of(FrontierStore.dueDelete(ch.id(), h.get().next(), hostId)));
    }
    store.deleteHost(ch.id(), hostId);
    intake.forgetHosts();
    Counts c = new Counts();
    c.queued(-deleted[0]);
    c.completed -= deleted[1];
    store.addCounters(
        List.of(
            FrontierStore.counters(
                FrontierKeys.CHANNEL.encode(ch.id()),
                Days.of(clock.millis()),
                c.queued,
                c.completed,
                c.daily)));
    return deleted[0] + deleted[1];
  }

  /** BlockQueueUntil: no hand-out from the queue before {@code epochSeconds} (0 unblocks). */
  public void blockQueueUntil(String crawlId, String key, long epochSeconds) {
    InvalidInputException.check(
        epochSeconds >= 0 && epochSeconds <= Long.MAX_VALUE / 1000, "time", "out of range");
    withHost(crawlId, key, false)
        .ifPresent(
            hc -> {
              if (epochSeconds == 0) {
                store.setHostSettings(
                    hc.ch.id(), hc.hostId, hc.key, Map.of(), List.of(FrontierSchema.BLOCKED));
                wake(hc);
              } else {
                store.setHostSettings(
                    hc.ch.id(),
                    hc.hostId,
                    hc.key,
                    Map.of(FrontierSchema.BLOCKED, epochSeconds * 1000),
                    List.of());
              }
            });
  }

  /** SetActive / GetActive: while inactive, GetURLs hands out nothing; puts go on. */
  public void setActive(boolean active) {
    store.setActive(active);
  }

  public boolean active() {
    return store.active();
  }

  /**
   * SetDelay: seconds between two hand-outs of a queue; an empty key sets the crawl's default (the
   * channel's rate).
   */
  public void setDelay(String crawlId, String key, long seconds) {
    InvalidInputException.check(seconds >= 0, "delay_requestable", "must not be negative");
    setDelayMillis(crawlId, key, seconds * 1000);
  }

  private void setDelayMillis(String crawlId, String key, long millis) {
    if (key == null || key.isEmpty()) {
      Channel ch = channels.findOrCreate(UrlRules.crawlId(crawlId));
      store.setChannelDelay(ch, millis);
      channels.forget(ch.crawlId());
      return;
    }
    HostCtx hc = withHost(crawlId, key, true).orElseThrow();
    store.setHostSettings(
        hc.ch.id(), hc.hostId, hc.key, Map.of(FrontierSchema.DELAY, millis), List.of());
    wake(hc);
  }

  /**
   * SetCrawlLimit: the queue hands out nothing more once it has {@code limit} completed URLs (0 =
   * none).
   */
  public void setCrawlLimit(String crawlId, String key, long limit) {
    InvalidInputException.check(limit >= 0 && limit <= Integer.MAX_VALUE, "limit", "out of range");
    InvalidInputException.check(key != null && !key.isEmpty(), "key", "a queue key is required");
    HostCtx hc =
        withHost(crawlId, key, false)
            .orElseThrow(() -> new NotFoundException("no queue " + key + " in crawl " + crawlId));
    if (limit == 0) {
      store.setHostSettings(hc.ch.id(), hc.hostId, hc.key, Map.of(), List.of(FrontierSchema.LIMIT));
    } else {
      store.setHostSettings(
          hc.ch.id(), hc.hostId, hc.key, Map.of(FrontierSchema.LIMIT, limit), List.of());
    }
    wake(hc);
  }

  private record HostCtx(Channel ch, byte[] hostId, String key, FrontierStore.HostRow row) {}

  private Optional<HostCtx> withHost(String crawlId, String key, boolean create) {
    String crawl = UrlRules.crawlId(crawlId);
    InvalidInputException.check(key != null && !key.isEmpty(), "key", "a queue key is required");
    String k = checkKey(key);
    byte[] hostId = FrontierKeys.hostId(k);
    Optional<Channel> ch =
        create ? Optional.of(channels.findOrCreate(crawl)) : channels.find(crawl);
    if (ch.isEmpty()) {
      return Optional.empty();
    }
    Optional<FrontierStore.HostRow> row = store.host(ch.get().id(), hostId);
    if (row.isEmpty() && !create) {
      return Optional.empty();
    }
    return Optional.of(
        new HostCtx(
            ch.get(), hostId, row.map(FrontierStore.HostRow::key).orElse(k), row.orElse(null)));
  }

  /**
   * A queue whose settings loosened is due now if it holds URLs (a later due time may be stale).
   */
  private void wake(HostCtx hc) {
    if (hc.row == null || hc.row.queued() <= 0) {
      return;
    }
    long now = clock.millis();
    List<Boolean> moved =
        store.moveNextEarlier(hc.ch.id(), List.of(hc.hostId), List.of(hc.key), List.of(now));
    if (moved.get(0)) {
      store.writeDue(List.of(FrontierStore.duePut(hc.ch.id(), now, hc.hostId)));
    }
  }

  /** GetURLStatus: the URL as the frontier holds it; refetchable_from_date 0 when done. */
  public URLItem urlStatus(String crawlId, String key, String url) {
    String u = UrlRules.url(url, "url");
    String k = UrlRules.key(key, u, "key");
    String crawl = UrlRules.crawlId(crawlId);
    Channel ch = channels.find(crawl).orElseThrow(() -> new NotFoundException("no crawl " + crawl));
    byte[] row = FrontierStore.knownRow(ch.id(), FrontierKeys.hostId(k), FrontierKeys.urlId(u));
    FrontierStore.Status s = store.statuses(List.of(row)).get(0);
    if (s == null) {
      throw new NotFoundException("unknown URL " + u);
    }
    return item(s);
  }

  private static URLItem item(FrontierStore.Status s) {
    try {
      return URLItem.newBuilder()
          .setKnown(
              KnownURLItem.newBuilder()
                  .setInfo(URLInfo.parseFrom(s.info()))
                  .setRefetchableFromDate(s.queued() ? s.dueMs() / 1000 : 0))
          .build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a stored URL does not parse", e);
    }
  }

  /**
   * ListURLs: known URLs of a crawl (or one queue) from position {@code start}, at most {@code
   * size} (0 = 100), optionally only those containing {@code filter}.
   */
  public List<URLItem> listUrls(
      String crawlId, String key, long start, int size, String filter, boolean ignoreCase) {
    InvalidInputException.check(start >= 0, "start", "must not be negative");
    InvalidInputException.check(size >= 0, "size", "must not be negative");
    int max = size == 0 ? DEFAULT_PAGE : size;
    List<URLItem> out = new ArrayList<>();
    AtomicLong pos = new AtomicLong();
    scanUrls(
        crawlId,
        key,
        filter,
        ignoreCase,
        item -> {
          if (pos.getAndIncrement() >= start) {
            out.add(item);
          }
          return out.size() < max;
        });
    return out;
  }

  /** CountURLs: known URLs of a crawl or queue (from the counters unless a filter is given). */
  public long countUrls(String crawlId, String key, String filter, boolean ignoreCase) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> ch = channels.find(crawl);
    if (ch.isEmpty()) {
      return 0;
    }
    if (filter == null || filter.isBlank()) {
      if (key == null || key.isEmpty()) {
        long[] c = store.channelCounters(ch.get().id());
        return c[0] + c[1];
      }
      return store
          .host(ch.get().id(), FrontierKeys.hostId(checkKey(key)))
          .map(h -> h.queued() + h.completed())
          .orElse(0L);
    }
    AtomicLong n = new AtomicLong();
    scanUrls(crawlId, key, filter, ignoreCase, item -> n.incrementAndGet() > 0);
    return n.get();
  }

  private void scanUrls(
      String crawlId, String key, String filter, boolean ignoreCase, Predicate<URLItem> sink) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> ch = channels.find(crawl);
    if (ch.isEmpty()) {
      return;
    }
    byte[] hostId = key == null || key.isEmpty() ? null : FrontierKeys.hostId(checkKey(key));
    boolean filtered = filter != null && !filter.isBlank();
    String needle = filtered && ignoreCase ? filter.toLowerCase(Locale.ROOT) : filter;
    store.scanKnown(
        ch.get().id(),
        hostId,
        (Result r) -> {
          FrontierStore.Status s = FrontierStore.statusOf(r);
          if (s == null) {
            return true;
          }
          URLItem item = item(s);
          if (filtered) {
            String url = item.getKnown().getInfo().getUrl();
            String hay = ignoreCase ? url.toLowerCase(Locale.ROOT) : url;
            if (!hay.contains(needle)) {
              return true;
            }
          }
          return sink.test(item);
        });
  }

  /** ListNodes: this frontier (one node; every node of a cluster shares the same tables). */
  public List<String> listNodes() {
    return List.of(address);
  }

  // ---- channels and hosts for people (REST, CLI)

  /** Creates a channel; an existing one with the same kind is answered as is. */
  public ChannelInfo createChannel(String crawlId, ChannelKind kind, long delayMs) {
    String crawl = UrlRules.crawlId(crawlId);
    InvalidInputException.check(delayMs >= 0, "delayMs", "must not be negative");
    Channel ch = channels.create(crawl, kind, delayMs);
    if (ch.kind() != kind) {
      throw new ConflictException("channel " + crawl + " exists and is " + ch.kind());
    }
    return info(ch);
  }

  private ChannelInfo info(Channel ch) {
    long[] c = store.channelCounters(ch.id());
    return new ChannelInfo(ch.crawlId(), ch.kind(), ch.delayMs(), c[0], c[1], ch.created());
  }

  public ChannelInfo channel(String crawlId) {
    String crawl = UrlRules.crawlId(crawlId);
    return info(
        store.channel(crawl).orElseThrow(() -> new NotFoundException("no channel " + crawl)));
  }

  public Page<ChannelInfo> channels(PageRequest page) {
    byte[] after =
        page.cursor()
            .map(
                c -> {
                  String crawl =
                      Cursors.decode(FrontierKeys.CHANNELS_SCOPE, c, r -> r.readString());
                  return FrontierKeys.CHANNEL_NAME.encode(crawl);
                })
            .orElse(null);
    List<Channel> fetched = store.channels(after, page.fetchSize());
    return Page.of(
            fetched,
            page.limit(),
            ch ->
                Cursors.encode(
                    FrontierKeys.CHANNELS_SCOPE,
                    KeyBuilder.create().addString(ch.crawlId()).build()))
        .map(this::info);
  }

  private Channel existing(String crawlId) {
    String crawl = UrlRules.crawlId(crawlId);
    return channels.find(crawl).orElseThrow(() -> new NotFoundException("no channel " + crawl));
  }

  public Page<HostInfo> hosts(String crawlId, PageRequest page) {
    Channel ch = existing(crawlId);
    byte[] after =
        page.cursor()
            .map(
                c ->
                    Cursors.decode(
                        FrontierKeys.HOSTS_SCOPE, c, r -> r.readFixed(FrontierKeys.HOST_ID_BYTES)))
            .orElse(null);
    List<FrontierStore.HostRow> fetched =
        store.hostPage(ch.id(), after, page.fetchSize(), h -> true);
    return Page.of(
            fetched,
            page.limit(),
            h ->
                Cursors.encode(
                    FrontierKeys.HOSTS_SCOPE, KeyBuilder.create().addFixed(h.hostId()).build()))
        .map(h -> hostInfo(ch, h));
  }

  private static HostInfo hostInfo(Channel ch, FrontierStore.HostRow h) {
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

  public HostInfo host(String crawlId, String key) {
    Channel ch = existing(crawlId);
    return store
        .host(ch.id(), FrontierKeys.hostId(checkKey(key)))
        .map(h -> hostInfo(ch, h))
        .orElseThrow(
            () -> new NotFoundException("no queue " + key + " in channel " + ch.crawlId()));
  }

  /**
   * Sets a host's own delay between hand-outs (its crawl rate); null falls back to the channel's.
   */
  public HostInfo setHostDelay(String crawlId, String key, Long delayMs) {
    Channel ch = existing(crawlId);
    String k = checkKey(key);
    if (delayMs == null) {
      HostCtx hc =
          withHost(ch.crawlId(), k, false)
              .orElseThrow(() -> new NotFoundException("no queue " + k));
      store.setHostSettings(ch.id(), hc.hostId, hc.key, Map.of(), List.of(FrontierSchema.DELAY));
      wake(hc);
    } else {
      InvalidInputException.check(delayMs >= 0, "delayMs", "must not be negative");
      setDelayMillis(ch.crawlId(), k, delayMs);
    }
    return host(ch.crawlId(), k);
  }

  /** Sets a channel's default delay between two hand-outs of one host. */
  public ChannelInfo setChannelDelay(String crawlId, long delayMs) {
    InvalidInputException.check(delayMs >= 0, "delayMs", "must not be negative");
    Channel ch = existing(crawlId);
    store.setChannelDelay(ch, delayMs);
    channels.forget(ch.crawlId());
    return channel(ch.crawlId());
  }

  /** Daily statistics of a channel or (key given) one host, newest day first. */
  public List<DailyStats> dailyStats(String crawlId, String key) {
    Channel ch = existing(crawlId);
    byte[] hostId = key == null || key.isEmpty() ? null : FrontierKeys.hostId(checkKey(key));
    long queuedNow;
    if (hostId == null) {
      queuedNow = store.channelCounters(ch.id())[0];
    } else {
      queuedNow =
          store
              .host(ch.id(), hostId)
              .orElseThrow(() -> new NotFoundException("no queue " + key))
              .queued();
    }
    TreeMap<Integer, Map<String, Long>> days = new TreeMap<>(store.dailyCounters(ch.id(), hostId));
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

  // ---- upkeep

  /** Purges the rows of channels deleted more than the grace period ago; answers rows deleted. */
  public long purgeDeleted() {
    long now = clock.millis();
    long rows = 0;
    for (Map.Entry<Long, Long> e : store.purges().entrySet()) {
      if (e.getValue() + PURGE_GRACE_MS <= now) {
        rows += store.purgeChannel(e.getKey());
      }
    }
    return rows;
  }

  /**
   * Writes the due row of every host whose next-due time has none (left by a crash between the two
   * writes); answers how many.
   */
  public long repairDueIndex() {
    long repaired = 0;
    for (Channel ch : allChannels()) {
      byte[] after = null;
      while (true) {
        List<FrontierStore.HostRow> page =
            store.hostPage(ch.id(), after, 1000, h -> h.next() != null);
        List<Boolean> exists = store.dueExists(ch.id(), page);
        List<org.apache.hadoop.hbase.client.Row> puts = new ArrayList<>();
        for (int i = 0; i < page.size(); i++) {
          if (!exists.get(i)) {
            puts.add(FrontierStore.duePut(ch.id(), page.get(i).next(), page.get(i).hostId()));
          }
        }
        store.writeDue(puts);
        repaired += puts.size();
        if (page.size() < 1000) {
          break;
        }
        after = page.get(page.size() - 1).hostId();
      }
    }
    if (repaired > 0) {
      LOG.warn("frontier: wrote {} missing due row(s)", repaired);
    }
    return repaired;
  }

  static Map<String, Long> countsOf(QueueStats s) {
    Map<String, Long> m = new HashMap<>();
    m.put("completed", s.completed());
    m.put("active_queues", s.activeQueues());
    return m;
  }
}
