package org.casebook.frontier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The frontier's meters, each tagged with its crawl ID ({@code crawl}). Counters count what this
 * process did: URLs put by outcome, handed out, completed. Gauges show a crawl's state as its
 * statistics last said ({@link #refreshGauges}, on a schedule): URLs queued and in flight, active
 * queues. Only the first {@link #MAX_CRAWL_TAGS} crawl IDs seen get a tag of their own; the rest
 * share {@link #OTHER}, so a frontier with many crawls keeps a bounded number of series.
 */
final class FrontierMetrics {
  /** Crawl IDs with a tag of their own. */
  static final int MAX_CRAWL_TAGS = 100;

  /** The tag of every crawl past the bound (and of a crawl named so). */
  static final String OTHER = "other";

  static final String PUT = "casebook.frontier.urls.put";
  static final String HANDED_OUT = "casebook.frontier.urls.handed.out";
  static final String COMPLETED = "casebook.frontier.urls.completed";
  static final String QUEUED = "casebook.frontier.urls.queued";
  static final String IN_FLIGHT = "casebook.frontier.urls.in.flight";
  static final String ACTIVE_QUEUES = "casebook.frontier.queues.active";

  /** What became of an item put, the {@code outcome} tag of {@link #PUT}. */
  enum Outcome {
    /** A discovered URL stored: new to the crawl. */
    ADDED,
    /** A known URL stored: done, or queued again for its refetch date. */
    UPDATED,
    /** A discovered URL the crawl already held: skipped. */
    KNOWN,
    /** Refused as invalid (URL, key, crawl ID, date, priority): skipped. */
    REFUSED,
    /** Not stored (HBase failed): the crawler sends it again. */
    FAILED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The counters of one crawl tag. */
  private record CrawlCounters(
      String tag, Map<Outcome, Counter> put, Counter handedOut, Counter completed) {}

  private final MeterRegistry registry;
  private final Map<String, CrawlCounters> crawls = new ConcurrentHashMap<>();
  private final CrawlCounters other;
  private final MultiGauge queued;
  private final MultiGauge inFlight;
  private final MultiGauge activeQueues;

  FrontierMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry is null");
    this.other = counters(OTHER);
    this.queued =
        MultiGauge.builder(QUEUED)
            .description("URLs queued (not done), as the crawl's statistics last said")
            .register(registry);
    this.inFlight =
        MultiGauge.builder(IN_FLIGHT)
            .description("URLs handed out and neither acknowledged nor expired, as last read")
            .register(registry);
    this.activeQueues =
        MultiGauge.builder(ACTIVE_QUEUES)
            .description("queues with URLs queued, as the crawl's statistics last said")
            .register(registry);
  }

  private CrawlCounters counters(String tag) {
    Map<Outcome, Counter> put = new EnumMap<>(Outcome.class);
    for (Outcome o : Outcome.values()) {
      put.put(
          o,
          Counter.builder(PUT)
              .description("items put (PutURLs, PutDiscovered), by what became of them")
              .tags("crawl", tag, "outcome", o.tag())
              .register(registry));
    }
    return new CrawlCounters(
        tag,
        put,
        Counter.builder(HANDED_OUT)
            .description("URLs handed out by GetURLs")
            .tag("crawl", tag)
            .register(registry),
        Counter.builder(COMPLETED)
            .description("known URLs put without a refetch date (done) and stored")
            .tag("crawl", tag)
            .register(registry));
  }

  /**
   * The counters of {@code crawl}: its own while the bound allows, else those of {@link #OTHER}.
   */
  private CrawlCounters of(String crawl) {
    CrawlCounters found = crawls.get(crawl);
    if (found != null) {
      return found;
    }
    if (crawl.equals(OTHER)) {
      return other;
    }
    synchronized (crawls) {
      if (crawls.size() >= MAX_CRAWL_TAGS && !crawls.containsKey(crawl)) {
        return other;
      }
      return crawls.computeIfAbsent(crawl, this::counters);
    }
  }

  /** The tag {@code crawl}'s meters carry. */
  String tag(String crawl) {
    return of(crawl).tag();
  }

  /**
   * Counts the items {@code indexes} of {@code items} put to {@code crawl} by their
   * acknowledgements {@code status}; {@code refused} of those skipped were refused (the others were
   * known already).
   */
  void countPut(
      String crawl, List<UrlItem> items, List<Integer> indexes, PutStatus[] status, int refused) {
    Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    long skipped = 0;
    long completed = 0;
    for (int i : indexes) {
      UrlItem item = items.get(i);
      switch (status[i]) {
        case OK -> {
          if (item.kind() == UrlItem.Kind.DISCOVERED) {
            outcomes.merge(Outcome.ADDED, 1L, Long::sum);
          } else {
            outcomes.merge(Outcome.UPDATED, 1L, Long::sum);
            completed += item.refetchableFromDate() == 0 ? 1 : 0;
          }
        }
        case SKIPPED -> skipped++;
        case FAIL -> outcomes.merge(Outcome.FAILED, 1L, Long::sum);
      }
    }
    outcomes.put(Outcome.REFUSED, (long) refused);
    outcomes.put(Outcome.KNOWN, skipped - refused);
    CrawlCounters c = of(crawl);
    outcomes.forEach(
        (o, n) -> {
          if (n > 0) {
            c.put().get(o).increment((double) n);
          }
        });
    if (completed > 0) {
      c.completed().increment((double) completed);
    }
  }

  /** Counts an item refused before it had a crawl (its crawl ID is invalid), under OTHER. */
  void refusedCrawlId() {
    other.put().get(Outcome.REFUSED).increment();
  }

  /** Counts the URLs a GetURLs call handed out, per crawl. */
  void countHandedOut(List<UrlInfo> urls) {
    Map<String, Long> perCrawl = new LinkedHashMap<>();
    for (UrlInfo u : urls) {
      perCrawl.merge(u.crawlId(), 1L, Long::sum);
    }
    perCrawl.forEach((crawl, n) -> of(crawl).handedOut().increment((double) n));
  }

  /**
   * Sets the gauges from every crawl's statistics: crawls sharing {@link #OTHER} are summed, a
   * crawl no longer listed (deleted) loses its gauges.
   */
  void refreshGauges(List<QueueStats> stats) {
    Map<String, long[]> perTag = new LinkedHashMap<>();
    for (QueueStats s : stats) {
      long[] sums = perTag.computeIfAbsent(tag(s.crawlId()), t -> new long[3]);
      sums[0] += s.queued();
      sums[1] += s.inFlight();
      sums[2] += s.activeQueues();
    }
    List<MultiGauge.Row<?>> queuedRows = new ArrayList<>();
    List<MultiGauge.Row<?>> inFlightRows = new ArrayList<>();
    List<MultiGauge.Row<?>> activeRows = new ArrayList<>();
    perTag.forEach(
        (tag, sums) -> {
          Tags tags = Tags.of("crawl", tag);
          queuedRows.add(MultiGauge.Row.of(tags, sums[0]));
          inFlightRows.add(MultiGauge.Row.of(tags, sums[1]));
          activeRows.add(MultiGauge.Row.of(tags, sums[2]));
        });
    queued.register(queuedRows, true);
    inFlight.register(inFlightRows, true);
    activeQueues.register(activeRows, true);
  }
}
