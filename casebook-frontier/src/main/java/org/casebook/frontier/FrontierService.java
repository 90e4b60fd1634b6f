package org.casebook.frontier;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.WriteGate;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl frontier (seed 002) in URLFrontier's terms — channels are crawl IDs, queues are hosts
 * (URLFrontier's keys) — with the channel and host settings and the statistics people read. Puts
 * are in {@link Intake}, hand-outs in {@link Handout}, a queue's settings in {@link Queues}, what
 * is only read in {@link Listings}; the gRPC edge ({@code wire}) maps URLFrontier's messages to
 * these operations.
 */
public final class FrontierService {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierService.class);

  /** URLFrontier's port. */
  static final int DEFAULT_GRPC_PORT = 7071;

  /** A deleted channel's rows are purged once every cached name of it has expired. */
  static final long PURGE_GRACE_MS = 5 * Channels.CACHE_MILLIS;

  /** Host rows read per round trip by the due index repair. */
  private static final int REPAIR_PAGE = 1000;

  private final FrontierStore stores;
  private final Channels channels;
  private final Intake intake;
  private final Handout handout;
  private final Queues queues;
  private final Listings listings;
  private final Purges purges;
  private final CountSettlement settlement;
  private final Clock clock;
  private final WriteGate writes;
  private final FrontierRetention retention;
  private final FrontierMetrics metrics;
  private final FrontierNodes nodes;

  /** This process as a node, once it joined; null in a process that only reads (the CLI). */
  private volatile NodeHeartbeat node;

  /** The frontier in its default namespace ({@code frontier}). */
  public FrontierService(SystemContext context) {
    this(context, FrontierSchema.DEFAULT_NAMESPACE);
  }

  /** A frontier in namespace {@code namespace}; its tables are created if missing. */
  public FrontierService(SystemContext context, String namespace) {
    this.clock = context.clock();
    this.stores = FrontierStore.open(context, FrontierSchema.in(namespace));
    this.channels = new Channels(stores.channels(), clock);
    Schedule schedule = new Schedule(stores.hosts(), stores.due());
    // Owned before its scheduler, so the scheduler stops first and the last try runs alone.
    this.settlement =
        context.own(
            new CountSettlement(stores.hosts(), stores.known(), stores.queues(), context.writes()));
    settlement.startOn(context.background("count-settlement"));
    this.metrics = new FrontierMetrics(context.metrics());
    this.intake = new Intake(stores, channels, schedule, clock, settlement, metrics);
    this.handout = new Handout(stores, schedule, clock, context.sideWork());
    this.queues = new Queues(stores, channels, schedule, intake, clock);
    this.listings = new Listings(stores, channels, clock);
    this.purges = new Purges(stores, channels, intake, clock, context.writes());
    this.nodes = new FrontierNodes(stores.nodes(), clock);
    this.writes = context.writes();
    this.retention =
        context
            .settings()
            .orDefaults("frontier", FrontierSystem.SETTINGS)
            .get(FrontierSystem.RETENTION);
  }

  /** Runs one change through the system's write gate (a backup pauses it). */
  private <T> T passing(java.util.function.Supplier<T> change) {
    try (WriteGate.Pass pass = writes.enter()) {
      return change.get();
    }
  }

  private void passing(Runnable change) {
    try (WriteGate.Pass pass = writes.enter()) {
      change.run();
    }
  }

  /**
   * Makes this service a node listed by ListNodes at {@code address} ({@code host:port}, where its
   * gRPC service listens): its row is written now; the caller owns the answer, schedules its
   * renewals every {@code heartbeat} and closes it at stop.
   */
  NodeHeartbeat join(String address, Duration heartbeat) {
    NodeHeartbeat joined = NodeHeartbeat.join(stores.nodes(), clock, address, heartbeat);
    this.node = joined;
    return joined;
  }

  // ---- URLFrontier

  /**
   * PutURLs, and PutDiscovered's batches (all of them discovered): one acknowledgement per item, in
   * order.
   */
  public List<PutAck> put(List<UrlItem> items) {
    return passing(() -> intake.put(items));
  }

  /** GetURLs: URLs due now, at most {@code maxUrlsPerQueue} from each of {@code maxQueues}. */
  public List<UrlInfo> getUrls(HandOutRequest request) {
    // A hand-out writes its claims: a change like any other.
    List<UrlInfo> out = passing(() -> handOut(request));
    metrics.countHandedOut(out);
    return out;
  }

  private List<UrlInfo> handOut(HandOutRequest request) {
    List<UrlInfo> out = new ArrayList<>();
    if (!stores.channels().active()) {
      return out;
    }
    Handout.Limits limits = Handout.Limits.of(request);
    if (!request.key().isEmpty()) {
      InvalidInputException.check(!request.anyCrawlId(), "crawlID", "a key needs a crawl ID");
      String crawl = UrlRules.crawlId(request.crawlId());
      String key = UrlRules.queueKey(request.key());
      channels
          .find(crawl)
          .ifPresent(ch -> handout.handOutQueue(ch, FrontierKeys.hostId(key), limits, out));
      return out;
    }
    if (!request.anyCrawlId()) {
      channels
          .find(UrlRules.crawlId(request.crawlId()))
          .ifPresent(ch -> handout.handOut(ch, limits, out));
      return out;
    }
    int served = 0;
    for (Channel ch : channels.all()) {
      if (served >= limits.maxQueues()) {
        break;
      }
      served += handout.handOut(ch, limits.withMaxQueues(limits.maxQueues() - served), out);
    }
    return out;
  }

  /** ListCrawls: every crawl ID with a channel. */
  public List<String> listCrawls() {
    return channels.all().stream().map(Channel::crawlId).toList();
  }

  /**
   * DeleteCrawl: the channel's name goes at once (a put to the crawl ID starts a new channel); its
   * rows are purged in the background. Answers the URLs it held (queued and completed).
   */
  public long deleteCrawl(String crawlId) {
    return passing(() -> deleteChannel(crawlId));
  }

  private long deleteChannel(String crawlId) {
    String crawl = UrlRules.crawlId(crawlId);
    Optional<Channel> ch = stores.channels().channel(crawl);
    channels.forget(crawl);
    if (ch.isEmpty()) {
      return 0;
    }
    UrlCounts counters = stores.hosts().channelCounters(ch.get().id());
    boolean deleted = stores.channels().delete(ch.get(), clock.millis());
    channels.forget(crawl);
    intake.forgetHosts();
    return deleted ? counters.total() : 0;
  }

  /**
   * ListQueues: queues of a crawl in key-hash order from position {@code start} ({@code size} 0:
   * 100); without {@code includeInactive} only those with URLs queued and not blocked.
   */
  public QueueListing listQueues(String crawlId, int start, int size, boolean includeInactive) {
    return listings.listQueues(crawlId, start, size, includeInactive);
  }

  /** GetStats of one queue (key given) or a whole crawl. */
  public QueueStats stats(String crawlId, String key) {
    return listings.stats(crawlId, key);
  }

  /** DeleteQueue: every URL of the queue, known and queued; answers how many. */
  public long deleteQueue(String crawlId, String key) {
    return passing(() -> queues.delete(crawlId, key));
  }

  /**
   * PurgeURLs: removes the URLs (queued and done) of one queue, or of every queue of the crawl when
   * {@code key} is empty, first stored more than {@code days} days ago; answers how many this call
   * removed. An unknown crawl or queue answers 0. Safe to send again after a crash: it finishes
   * what the interrupted purge began.
   */
  public long purgeUrls(String crawlId, String key, long days) {
    return purges.purge(crawlId, key, days, true);
  }

  /** Counter writes of stored puts not yet settled (sent again in the background). */
  int unsettledCounterWrites() {
    return settlement.unsettled();
  }

  /** Whether the settlement still runs (it stops only with the system). */
  boolean settling() {
    return settlement.running();
  }

  /**
   * Sets the gauges (URLs queued and in flight, active queues) from every crawl's statistics, which
   * read its host rows and in-flight marks; answers the crawls read.
   */
  int refreshGauges() {
    List<QueueStats> stats = new ArrayList<>();
    for (Channel ch : channels.all()) {
      stats.add(listings.stats(ch.crawlId(), ""));
    }
    metrics.refreshGauges(stats);
    return stats.size();
  }

  /** The retention setting ({@code frontier.retention}). */
  FrontierRetention retention() {
    return retention;
  }

  /**
   * Applies the retention setting once: every crawl a rule covers loses the URLs first stored
   * longer ago than its rule, as {@link #purgeUrls} removes them. Returns the URLs removed per
   * crawl, crawls with none left out.
   */
  public Map<String, Long> purgeExpired() {
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    for (Channel ch : channels.all()) {
      java.util.OptionalLong days = retention.keepDays(ch.crawlId());
      if (days.isPresent()) {
        try {
          // URLs stored before creation dates were kept are left to an explicit PurgeURLs.
          long removed = purges.purge(ch.crawlId(), "", days.getAsLong(), false);
          if (removed > 0) {
            out.put(ch.crawlId(), removed);
          }
        } catch (ConflictException busy) {
          LOG.info("frontier retention: crawl {} is being purged already; next pass", ch.crawlId());
        }
      }
    }
    return out;
  }

  /** The purge's steps, for tests that cut a purge short. */
  Purges purges() {
    return purges;
  }

  /** BlockQueueUntil: no hand-out from the queue before {@code epochSeconds} (0 unblocks). */
  public void blockQueueUntil(String crawlId, String key, long epochSeconds) {
    passing(() -> queues.blockUntil(crawlId, key, epochSeconds));
  }

  /** SetActive / GetActive: while inactive, GetURLs hands out nothing; puts go on. */
  public void setActive(boolean active) {
    passing(() -> stores.channels().setActive(active));
  }

  public boolean active() {
    return stores.channels().active();
  }

  /**
   * SetDelay: seconds between two hand-outs of a queue; an empty key sets the crawl's default (the
   * channel's rate).
   */
  public void setDelay(String crawlId, String key, long seconds) {
    InvalidInputException.check(seconds >= 0, "delay_requestable", "must not be negative");
    passing(() -> queues.setDelayMillis(crawlId, key, seconds * 1000));
  }

  /**
   * SetCrawlLimit: the queue hands out nothing more once it has {@code limit} completed URLs (0 =
   * none).
   */
  public void setCrawlLimit(String crawlId, String key, long limit) {
    passing(() -> queues.setCrawlLimit(crawlId, key, limit));
  }

  /** GetURLStatus: the URL as the frontier holds it; refetchable_from_date 0 when done. */
  public KnownUrl urlStatus(String crawlId, String key, String url) {
    return listings.urlStatus(crawlId, key, url);
  }

  /**
   * ListURLs: known URLs of a crawl (or one queue) from position {@code start}, at most {@code
   * size} (0 = 100), optionally only those containing {@code filter}.
   */
  public List<KnownUrl> listUrls(
      String crawlId, String key, long start, int size, String filter, boolean ignoreCase) {
    return listings.listUrls(crawlId, key, start, size, filter, ignoreCase);
  }

  /** CountURLs: known URLs of a crawl or queue (from the counters unless a filter is given). */
  public long countUrls(String crawlId, String key, String filter, boolean ignoreCase) {
    return listings.countUrls(crawlId, key, filter, ignoreCase);
  }

  /**
   * ListNodes: the addresses ({@code host:port}) of the live frontier nodes on these tables, this
   * one first when it is a node, then the others sorted.
   */
  public List<String> listNodes() {
    NodeHeartbeat self = node;
    return nodes.live(self == null ? null : self.self());
  }

  // ---- channels and hosts for people (REST, CLI)

  /** Creates a channel; an existing one with the same kind is answered as is. */
  public ChannelInfo createChannel(String crawlId, ChannelKind kind, long delayMs) {
    String crawl = UrlRules.crawlId(crawlId);
    InvalidInputException.check(delayMs >= 0, "delayMs", "must not be negative");
    Channel ch = passing(() -> channels.create(crawl, kind, delayMs));
    if (ch.kind() != kind) {
      throw new ConflictException("channel " + crawl + " exists and is " + ch.kind());
    }
    return listings.info(ch);
  }

  public ChannelInfo channel(String crawlId) {
    return listings.channel(crawlId);
  }

  public Page<ChannelInfo> channels(PageRequest page) {
    return listings.channels(page);
  }

  public Page<HostInfo> hosts(String crawlId, PageRequest page) {
    return listings.hosts(crawlId, page);
  }

  public HostInfo host(String crawlId, String key) {
    return listings.host(crawlId, key);
  }

  /**
   * Sets a host's own delay between hand-outs (its crawl rate); null falls back to the channel's.
   */
  public HostInfo setHostDelay(String crawlId, String key, Long delayMs) {
    Channel ch = listings.existing(crawlId);
    String k = UrlRules.queueKey(key);
    if (delayMs == null) {
      passing(() -> queues.clearDelay(ch.crawlId(), k));
    } else {
      InvalidInputException.check(delayMs >= 0, "delayMs", "must not be negative");
      passing(() -> queues.setDelayMillis(ch.crawlId(), k, delayMs));
    }
    return host(ch.crawlId(), k);
  }

  /** Sets a channel's default delay between two hand-outs of one host. */
  public ChannelInfo setChannelDelay(String crawlId, long delayMs) {
    InvalidInputException.check(delayMs >= 0, "delayMs", "must not be negative");
    Channel ch = listings.existing(crawlId);
    passing(() -> stores.channels().setDelay(ch, delayMs));
    channels.forget(ch.crawlId());
    return channel(ch.crawlId());
  }

  /** Daily statistics of a channel or (key given) one host, newest day first. */
  public List<DailyStats> dailyStats(String crawlId, String key) {
    return listings.dailyStats(crawlId, key);
  }

  // ---- upkeep

  /** Purges the rows of channels deleted more than the grace period ago; answers rows deleted. */
  public long purgeDeleted() {
    long now = clock.millis();
    long rows = 0;
    for (Map.Entry<Long, Long> e : stores.channels().purges().entrySet()) {
      if (e.getValue() + PURGE_GRACE_MS <= now) {
        // No pass: a deleted crawl's rows are unreachable, and a purge caught half-way by a
        // backup is finished by the next pass after a restore.
        rows += stores.purge(e.getKey());
      }
    }
    return rows;
  }

  /**
   * Writes the due row of every host whose next-due time has none (left by a crash of an earlier
   * version, which set the time before writing its row); answers how many.
   */
  public long repairDueIndex() {
    long repaired = 0;
    for (Channel ch : channels.all()) {
      byte[] after = null;
      while (true) {
        List<HostRow> page =
            stores.hosts().page(ch.id(), after, REPAIR_PAGE, h -> h.next() != null);
        List<DueHost> rows = new ArrayList<>(page.size());
        page.forEach(h -> rows.add(DueHost.of(h.stamp(), h.hostId(), null)));
        List<Boolean> exists = stores.due().exist(ch.id(), rows);
        List<DueHost> missing = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
          if (!exists.get(i)) {
            missing.add(rows.get(i));
          }
        }
        passing(() -> stores.due().put(ch.id(), missing));
        repaired += missing.size();
        if (page.size() < REPAIR_PAGE) {
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
}
