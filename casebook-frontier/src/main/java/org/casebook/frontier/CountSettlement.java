package org.casebook.frontier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.casebook.core.CasebookException;
import org.casebook.core.StorageException;
import org.casebook.core.WriteGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counter writes of puts whose URL rows were stored while their counters could not be (a region
 * unreachable for longer than a put retries, as while a dead RegionServer's regions are
 * reassigned). Without this the counters would stay off for good: a client re-sending the put finds
 * the rows already changed and has nothing left to count. Each write keeps its put's token, so a
 * send that reached a row before adds nothing again; it is sent again in the background, each time
 * through the write gate (a backup sees rows and counters together), until it holds.
 *
 * <p>It also makes a put's own counter write ({@link #count}) and settles the put's URL writes
 * whose answers were lost by reading their rows ({@link #settleNow}); those whose rows could not be
 * read either are settled in the background too, each counted once its row tells it was made.
 *
 * <p>What is still unsettled when the process stops is logged with its deltas, for the operator.
 */
final class CountSettlement implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CountSettlement.class);

  /** Writes kept at most; past this the oldest is dropped and logged (counters then drift). */
  static final int MAX_UNSETTLED = 100_000;

  private static final Duration PERIOD = Duration.ofSeconds(1);

  /** Sends of a put's counter write before the put gives up on them (see count). */
  private static final int COUNT_ATTEMPTS = 3;

  /** A put's counter deltas, with the token its first sends carried. */
  record Unsettled(
      long channel, String crawl, int day, Map<HostKey, Counts> hosts, Counts total, long token) {}

  /**
   * A URL write whose call failed and whose row could not be read right after: its counter deltas
   * count once its row tells it was made ({@link UrlStatus#made}). Made, the queued row it replaced
   * goes ({@code replacedRow}); not made, the queued row written for it goes ({@code ownRow}),
   * either null where there is none: otherwise it would be handed out once for no known row.
   */
  record UnsettledChange(
      long channel,
      String crawl,
      int day,
      UrlRef url,
      long version,
      HostKey host,
      Counts counts,
      QueueChange.Drop ownRow,
      QueueChange.Drop replacedRow) {}

  private final HostStore hosts;
  private final KnownStore known;
  private final QueueStore queues;
  private final WriteGate writes;
  private final ConcurrentLinkedQueue<Unsettled> queue = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<UnsettledChange> changes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  private volatile ScheduledFuture<?> schedule;

  CountSettlement(HostStore hosts, KnownStore known, QueueStore queues, WriteGate writes) {
    this.hosts = Objects.requireNonNull(hosts, "hosts is null");
    this.known = Objects.requireNonNull(known, "known is null");
    this.queues = Objects.requireNonNull(queues, "queues is null");
    this.writes = Objects.requireNonNull(writes, "writes is null");
  }

  /** Sends what is unsettled again, every second, on {@code scheduler}. */
  void startOn(ScheduledExecutorService scheduler) {
    schedule =
        scheduler.scheduleWithFixedDelay(
            this::settleLogged, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether the periodic sending runs (started, not stopped). */
  boolean running() {
    ScheduledFuture<?> s = schedule;
    return s != null && !s.isDone();
  }

  void add(Unsettled u) {
    queue.add(u);
    if (size.incrementAndGet() > MAX_UNSETTLED) {
      Unsettled dropped = queue.poll();
      if (dropped != null) {
        size.decrementAndGet();
        LOG.error("frontier: counter write dropped, too many unsettled: {}", describe(dropped));
      }
    }
  }

  void addChange(UnsettledChange c) {
    changes.add(c);
    if (size.incrementAndGet() > MAX_UNSETTLED) {
      UnsettledChange dropped = changes.poll();
      if (dropped != null) {
        size.decrementAndGet();
        LOG.error("frontier: URL write left uncounted, too many unsettled: {}", describe(dropped));
      }
    }
  }

  /** Counter writes and URL writes not yet settled. */
  int unsettled() {
    return size.get();
  }

  /**
   * Sends each unsettled write once more; answers how many are left. A write that fails again
   * stays. A write being sent still counts as unsettled, so none looks settled before it held.
   */
  int settle() {
    settleChanges();
    List<Unsettled> failed = new ArrayList<>();
    int n = size.get();
    for (int i = 0; i < n; i++) {
      Unsettled u = queue.poll();
      if (u == null) {
        break;
      }
      try (WriteGate.Pass pass = writes.enter(Duration.ZERO)) {
        hosts.countOnce(
            u.channel(), u.day(), u.hosts(), u.total().isEmpty() ? null : u.total(), u.token());
      } catch (CasebookException e) {
        LOG.debug("frontier: counter write of {} not settled yet: {}", u.crawl(), e.getMessage());
        failed.add(u);
        continue;
      }
      size.decrementAndGet();
      try {
        hosts.forgetCount(u.channel(), u.hosts().keySet(), u.token());
      } catch (CasebookException e) {
        LOG.warn("frontier: counted marks of {} left: {}", u.crawl(), e.getMessage());
      }
      LOG.info("frontier: a counter write of {} settled after a failure", u.crawl());
    }
    queue.addAll(failed);
    return size.get();
  }

  /**
   * Adds the put's counter deltas, sending the write again after an error: it is marked with a
   * token of this put, so a send that reached the row before adds nothing the second time. After
   * the last attempt the write is left to the background sends, with its token; the put fails.
   */
  Map<HostKey, Long> count(Channel ch, Map<HostKey, Counts> counts, long failed, int day) {
    Counts total = new Counts();
    counts.values().forEach(total::addAll);
    total.add(Counts.PUT, failed);
    total.add(Counts.FAILED, failed);
    long token = ThreadLocalRandom.current().nextLong();
    StorageException last = null;
    for (int attempt = 0; attempt < COUNT_ATTEMPTS; attempt++) {
      try {
        Map<HostKey, Long> queuedNow =
            hosts.countOnce(ch.id(), day, counts, total.isEmpty() ? null : total, token);
        forgetCount(ch, counts.keySet(), token);
        return queuedNow;
      } catch (StorageException e) {
        LOG.debug("put: counters of channel {}, attempt {}: {}", ch.crawlId(), attempt, e);
        last = e;
      }
    }
    add(new Unsettled(ch.id(), ch.crawlId(), day, counts, total, token));
    throw last;
  }

  /** The counts are written: a mark left behind only takes a cell, so it fails no put. */
  private void forgetCount(Channel ch, Set<HostKey> counted, long token) {
    try {
      hosts.forgetCount(ch.id(), counted, token);
    } catch (StorageException e) {
      LOG.warn("put: counted marks of channel {} left: {}", ch.crawlId(), e.getMessage());
    }
  }

  /**
   * {@code ok} with each change whose call failed settled by reading its row: made if the row holds
   * the change's version (a random number no other write draws) or held it before its last few
   * writes, else not made. A change whose row cannot be read either stays unknown (null), for the
   * settlement. Without this, a change made while its answer was lost would be counted by no one:
   * the client's resend finds the URL as it wants it.
   */
  List<Boolean> settleNow(Channel ch, List<StatusChange> changes, List<Boolean> ok) {
    List<Integer> unknown = new ArrayList<>();
    for (int i = 0; i < ok.size(); i++) {
      if (ok.get(i) == null) {
        unknown.add(i);
      }
    }
    if (unknown.isEmpty()) {
      return ok;
    }
    List<Boolean> settled = new ArrayList<>(ok);
    try {
      List<UrlStatus> now =
          known.read(ch.id(), unknown.stream().map(i -> changes.get(i).url()).toList());
      for (int j = 0; j < unknown.size(); j++) {
        UrlStatus s = now.get(j);
        int i = unknown.get(j);
        settled.set(i, s != null && s.made(changes.get(i).version()));
      }
    } catch (StorageException e) {
      LOG.warn(
          "put: {} URL write(s) of channel {} left unknown: {}",
          unknown.size(),
          ch.crawlId(),
          e.getMessage());
    }
    return settled;
  }

  /**
   * Queued rows written for known writes not made (a round cut short): it drops each once its known
   * row tells the write was not made, else it would be handed out once for a URL never stored.
   */
  void addUnsent(Channel ch, int day, Collection<QueueChange.Drop> rows) {
    for (QueueChange.Drop d : rows) {
      addChange(
          new UnsettledChange(
              ch.id(),
              ch.crawlId(),
              day,
              new UrlRef(d.hostId(), d.urlId()),
              d.version(),
              new HostKey(d.hostId()),
              new Counts(),
              d,
              null));
    }
  }

  /**
   * Reads the row of each unsettled URL write: made, its deltas become a counter write; not made,
   * it is forgotten; either way the queued row it leaves behind goes. Not readable yet, it stays.
   */
  private void settleChanges() {
    List<UnsettledChange> unread = new ArrayList<>();
    int n = changes.size();
    for (int i = 0; i < n; i++) {
      UnsettledChange c = changes.poll();
      if (c == null) {
        break;
      }
      boolean made;
      try (WriteGate.Pass pass = writes.enter(Duration.ZERO)) {
        UrlStatus now = known.read(c.channel(), List.of(c.url())).get(0);
        made = now != null && now.made(c.version());
        QueueChange.Drop drop = made ? c.replacedRow() : c.ownRow();
        if (drop != null) {
          queues.apply(c.channel(), List.of(drop));
        }
      } catch (CasebookException e) {
        LOG.debug("frontier: URL write of {} not settled yet: {}", c.crawl(), e.getMessage());
        unread.add(c);
        continue;
      }
      size.decrementAndGet();
      if (!made) {
        LOG.info("frontier: a URL write of {} whose answer was lost was not made", c.crawl());
        continue;
      }
      Counts total = new Counts();
      total.addAll(c.counts());
      add(
          new Unsettled(
              c.channel(),
              c.crawl(),
              c.day(),
              Map.of(c.host(), c.counts()),
              total,
              ThreadLocalRandom.current().nextLong()));
    }
    changes.addAll(unread);
  }

  private void settleLogged() {
    try {
      settle();
    } catch (RuntimeException e) {
      // Logged, not thrown: a thrown exception would cancel the schedule.
      LOG.warn("frontier: settling counter writes failed; it runs again", e);
    }
  }

  /** Tries once more; logs what is left, which the counters then lack. */
  @Override
  public void close() {
    if (size.get() == 0) {
      return;
    }
    settleLogged();
    for (Unsettled u : queue) {
      LOG.error("frontier: counter write not settled at stop: {}", describe(u));
    }
    for (UnsettledChange c : changes) {
      LOG.error("frontier: URL write not settled at stop: {}", describe(c));
    }
  }

  private static String describe(UnsettledChange c) {
    return "crawl "
        + c.crawl()
        + ", day "
        + c.day()
        + ", queued "
        + c.counts().queued
        + ", completed "
        + c.counts().completed
        + ", daily "
        + c.counts().daily;
  }

  private static String describe(Unsettled u) {
    return "crawl "
        + u.crawl()
        + ", day "
        + u.day()
        + ", queued "
        + u.total().queued
        + ", completed "
        + u.total().completed
        + ", daily "
        + u.total().daily;
  }
}
