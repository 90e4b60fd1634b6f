package org.casebook.frontier;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.casebook.core.Futures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GetURLs: hosts come from the due index — rows keyed by the time a host is next due — so a
 * hand-out reads only hosts with something due and an emptied frontier answers after one empty
 * scan. A host is claimed by check-and-mutate on its stamp (its next-due time and the token of the
 * change that set it: one claimer wins; the next due time becomes now + its delay, which is the
 * politeness rule), then its queue is read in priority order and each URL handed out is marked in
 * flight by check-and-mutate on its row as read (a claim lasts only the host's delay: a later claim
 * of the host may read the same rows before the marks are written).
 */
final class Handout {
  private static final Logger LOG = LoggerFactory.getLogger(Handout.class);

  /** URLFrontier: 0 = the default of 30 s before a URL handed out may be handed out again. */
  static final int DEFAULT_DELAY_REQUESTABLE_S = 30;

  /** Queue rows read per host beyond those handed out (in-flight and not-yet-due rows). */
  private static final int SCAN_SLACK = 256;

  /** Rows the first round trip of a queue read asks for beyond those handed out. */
  private static final int FIRST_TRIP_SLACK = 8;

  /** Most URLs from one queue in one call when the crawler sets no limit. */
  static final int MAX_PER_QUEUE = 10_000;

  /** Due rows read per round trip. */
  private static final int DUE_CHUNK = 256;

  private final FrontierStore stores;
  private final Schedule schedule;
  private final Clock clock;
  private final ExecutorService sideWork;

  Handout(FrontierStore stores, Schedule schedule, Clock clock, ExecutorService sideWork) {
    this.stores = Objects.requireNonNull(stores, "stores is null");
    this.schedule = Objects.requireNonNull(schedule, "schedule is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.sideWork = Objects.requireNonNull(sideWork, "sideWork is null");
  }

  /** What a call may hand out. */
  record Limits(int maxQueues, int maxPerQueue, long requestableMs) {
    static Limits of(HandOutRequest r) {
      return new Limits(
          r.maxQueues() <= 0 ? Integer.MAX_VALUE : r.maxQueues(),
          r.maxUrlsPerQueue() <= 0 ? MAX_PER_QUEUE : Math.min(r.maxUrlsPerQueue(), MAX_PER_QUEUE),
          1000L * (r.delayRequestable() == 0 ? DEFAULT_DELAY_REQUESTABLE_S : r.delayRequestable()));
    }

    /** These limits with only {@code maxQueues} queues left. */
    Limits withMaxQueues(int maxQueues) {
      return new Limits(maxQueues, maxPerQueue, requestableMs);
    }
  }

  /** A host to decide on: its row as read, and the due row that found it (null: named by key). */
  private record Candidate(HostRow host, DueHost found) {}

  /** A host being handed out: its row as read, and the stamp its claim gave it. */
  private record Claimed(HostRow host, DueStamp next) {}

  /** Hands out from the due hosts of {@code ch}; answers the URLs and the queues served. */
  int handOut(Channel ch, Limits limits, List<UrlInfo> out) {
    long now = clock.millis();
    int served = 0;
    DueHost after = null;
    while (served < limits.maxQueues()) {
      List<DueHost> dues = stores.due().due(ch.id(), now, after, DUE_CHUNK);
      if (dues.isEmpty()) {
        break;
      }
      after = dues.get(dues.size() - 1);
      List<Candidate> candidates = candidates(ch, dues);
      served += claimAndServe(ch, candidates, limits, now, limits.maxQueues() - served, out);
      if (dues.size() < DUE_CHUNK) {
        break;
      }
    }
    return served;
  }

  /** Hands out from one queue, due or not in the index (URLFrontier's GetURLs with a key). */
  int handOutQueue(Channel ch, byte[] hostId, Limits limits, List<UrlInfo> out) {
    long now = clock.millis();
    return stores
        .hosts()
        .host(ch.id(), hostId)
        .map(h -> claimAndServe(ch, List.of(new Candidate(h, null)), limits, now, 1, out))
        .orElse(0);
  }

  /**
   * The hosts the due rows read stand for: each row of its host's stamp. A row whose writer's
   * check-and-mutate may still make it current stays; every other row is left over and goes.
   */
  private List<Candidate> candidates(Channel ch, List<DueHost> dues) {
    List<byte[]> ids = new ArrayList<>();
    Set<HostKey> seen = new HashSet<>();
    for (DueHost d : dues) {
      if (seen.add(new HostKey(d.hostId()))) {
        ids.add(d.hostId());
      }
    }
    Map<HostKey, HostRow> hosts = stores.hosts().hosts(ch.id(), ids);
    List<Candidate> out = new ArrayList<>();
    List<DueHost> leftOver = new ArrayList<>();
    Set<HostKey> found = new HashSet<>();
    for (DueHost d : dues) {
      HostKey hk = new HostKey(d.hostId());
      HostRow h = hosts.get(hk);
      DueStamp stamp = h == null ? null : h.stamp();
      if (d.isRowOf(stamp)) {
        if (found.add(hk)) {
          out.add(new Candidate(h, d));
        }
      } else if (!d.pendingOn(stamp)) {
        leftOver.add(d);
      }
    }
    stores.due().delete(ch.id(), leftOver);
    return out;
  }

  /**
   * Decides each host — claimed, moved to when its politeness allows, unscheduled at its crawl
   * limit — in one batch of check-and-mutates on its stamp as read, then serves the claimed. A host
   * named by key is not moved for its politeness (it has no due row here to be found by).
   */
  private int claimAndServe(
      Channel ch,
      List<Candidate> candidates,
      Limits limits,
      long now,
      int room,
      List<UrlInfo> out) {
    List<DueHost> duePuts = new ArrayList<>();
    List<HostChange> changes = new ArrayList<>();
    // per change: the due row it retires on success (null: none), and the claim it makes (null: a
    // move)
    List<DueHost> retires = new ArrayList<>();
    List<Claimed> claims = new ArrayList<>();
    int claimed = 0;
    for (Candidate c : candidates) {
      HostRow h = c.host();
      DueStamp stamp = h.stamp();
      long delay = h.delayMs() == null ? ch.delayMs() : h.delayMs();
      if (h.limit() > 0 && h.completed() >= h.limit()) {
        if (h.next() != null) {
          changes.add(new HostChange.Move(h.hostId(), stamp, DueStamp.none(), null));
          retires.add(rowOf(h));
          claims.add(null);
        }
        continue;
      }
      long allowed = Math.max(h.blockedUntil(), h.last() == 0 ? 0 : h.last() + delay);
      if (allowed > now) {
        if (c.found() != null) {
          DueStamp next = DueStamp.at(allowed);
          duePuts.add(DueHost.of(next, h.hostId(), stamp));
          changes.add(new HostChange.Move(h.hostId(), stamp, next, null));
          retires.add(rowOf(h));
          claims.add(null);
        }
        continue;
      }
      if (claimed >= room) {
        continue;
      }
      claimed++;
      // Never earlier than the host's time (a hand-out by key may come before it).
      long newNext = Math.max(now + Math.max(delay, 1), h.next() == null ? 0 : h.next());
      DueStamp next = DueStamp.at(newNext);
      duePuts.add(DueHost.of(next, h.hostId(), stamp));
      changes.add(new HostChange.Claim(h, now, next));
      retires.add(rowOf(h));
      claims.add(new Claimed(h, next));
    }
    // Due rows first: a stamp is never written before the row that finds it.
    stores.due().put(ch.id(), duePuts);
    List<Boolean> ok = stores.hosts().decide(ch.id(), changes, "claim hosts");
    List<Claimed> won = new ArrayList<>();
    List<DueHost> dueDeletes = new ArrayList<>();
    for (int i = 0; i < ok.size(); i++) {
      if (!ok.get(i)) {
        continue;
      }
      if (retires.get(i) != null) {
        dueDeletes.add(retires.get(i));
      }
      if (claims.get(i) != null) {
        won.add(claims.get(i));
      }
    }
    stores.due().delete(ch.id(), dueDeletes);
    return serve(ch, won, limits, now, out);
  }

  /** The due row of a host's stamp, which a change of the stamp retires; null: none. */
  private static DueHost rowOf(HostRow h) {
    DueStamp stamp = h.stamp();
    return stamp == null || !stamp.scheduled() ? null : DueHost.of(stamp, h.hostId(), null);
  }

  private int serve(Channel ch, List<Claimed> won, Limits limits, long now, List<UrlInfo> out) {
    if (won.isEmpty()) {
      return 0;
    }
    List<Future<List<QueuedUrl>>> futures = new ArrayList<>(won.size());
    for (Claimed c : won) {
      futures.add(sideWork.submit(() -> serveHost(ch, c, limits, now)));
    }
    List<QueuedUrl> picked = new ArrayList<>();
    for (Future<List<QueuedUrl>> f : futures) {
      picked.addAll(Futures.await(f));
    }
    // A host's claim lasts only its delay, so another hand-out may read the same rows meanwhile,
    // and an acknowledgement may drop a row after it was read: a URL is handed out only if its
    // own in-flight mark, conditional on the row as read, held. Every mark is durable before any
    // URL is answered.
    List<Boolean> marked = stores.queues().claim(ch.id(), picked, now + limits.requestableMs());
    Map<HostKey, Counts> counts = new HashMap<>();
    Counts total = new Counts();
    for (int i = 0; i < picked.size(); i++) {
      if (!marked.get(i)) {
        continue;
      }
      QueuedUrl q = picked.get(i);
      out.add(UrlInfoCodec.decode(q.info()));
      counts.computeIfAbsent(new HostKey(q.hostId()), h -> new Counts()).add(Counts.OUT, 1);
      total.add(Counts.OUT, 1);
    }
    stores.hosts().count(ch.id(), Days.of(now), counts, total.isEmpty() ? null : total);
    return counts.size();
  }

  /** Reads one claimed host's queue; answers the URLs to mark in flight and hand out. */
  private List<QueuedUrl> serveHost(Channel ch, Claimed c, Limits limits, long now) {
    byte[] hostId = c.host().hostId();
    QueueRead read = readQueue(ch, hostId, limits, now);
    List<QueuedUrl> picked = read.picked();
    dropOrphans(ch, hostId, picked, read.again());
    if (picked.isEmpty()) {
      reschedule(ch, c, read.rows() == 0, read.nextEvent(), limits, now);
    }
    return picked;
  }

  /**
   * A host's queue as read for a hand-out: the URLs it may hand out ({@code again}: those handed
   * out before), the rows read and when the first URL not handed out becomes available ({@code
   * Long.MAX_VALUE}: none).
   */
  private record QueueRead(
      List<QueuedUrl> picked, List<QueuedUrl> again, int rows, long nextEvent) {}

  private QueueRead readQueue(Channel ch, byte[] hostId, Limits limits, long now) {
    long[] nextEvent = {Long.MAX_VALUE};
    int[] inFlight = {0};
    int[] rows = {0};
    List<QueuedUrl> picked = new ArrayList<>();
    List<QueuedUrl> again = new ArrayList<>();
    // Read only as far as needed: the first round trip asks for what may be handed out plus a
    // little for rows in flight; before, 256 extra rows were read per host for a 1-URL hand-out.
    stores
        .queues()
        .visit(
            ch.id(),
            hostId,
            limits.maxPerQueue() + SCAN_SLACK,
            limits.maxPerQueue() + FIRST_TRIP_SLACK,
            q -> {
              rows[0]++;
              if (q.inFlightUntil() > now) {
                inFlight[0]++;
                nextEvent[0] = Math.min(nextEvent[0], q.inFlightUntil());
                return inFlight[0] < limits.maxPerQueue();
              }
              if (q.dueMs() > now) {
                nextEvent[0] = Math.min(nextEvent[0], q.dueMs());
                return ch.kind() != ChannelKind.FIFO;
              }
              picked.add(q);
              if (q.inFlightUntil() != 0) {
                again.add(q);
              }
              return picked.size() < limits.maxPerQueue();
            });
    if (inFlight[0] >= limits.maxPerQueue()) {
      picked.clear();
      again.clear();
      // The host stays due at its delay, as the reference skips such a queue for one call only:
      // an acknowledgement frees a place without moving the host, so parking it until its first
      // in-flight URL expired would hold back the URLs behind one already done.
      nextEvent[0] = now;
    }
    return new QueueRead(picked, again, rows[0], nextEvent[0]);
  }

  /**
   * A URL handed out before is handed out again only if its known row still points at it (the row
   * could be left over from a crash between the two writes of a put).
   */
  private void dropOrphans(
      Channel ch, byte[] hostId, List<QueuedUrl> picked, List<QueuedUrl> again) {
    if (again.isEmpty()) {
      return;
    }
    List<UrlRef> known = new ArrayList<>(again.size());
    for (QueuedUrl q : again) {
      known.add(new UrlRef(hostId, q.urlId()));
    }
    List<UrlStatus> statuses = stores.known().read(ch.id(), known);
    List<QueueChange> drop = new ArrayList<>();
    for (int i = 0; i < again.size(); i++) {
      UrlStatus s = statuses.get(i);
      QueuedUrl q = again.get(i);
      boolean current =
          s != null && s.queued() && s.priority() == q.priority() && s.version() == q.version();
      if (!current) {
        drop.add(new QueueChange.Drop(hostId, q.priority(), q.urlId(), q.version()));
        picked.remove(q);
        LOG.debug("dropped an orphan queued row of channel {}", ch.crawlId());
      }
    }
    stores.queues().apply(ch.id(), drop);
  }

  /**
   * Nothing was handed out: the host is due again when its next URL becomes due (at its delay when
   * its URLs allowed in flight are all out), or leaves the index when its queue is empty. A put
   * that queued a URL after the scan may have found the host due at its claim's time and left it
   * there: once the host moved, its queue is read again, and the host comes back as early as that
   * read asks.
   */
  private void reschedule(
      Channel ch, Claimed c, boolean empty, long nextEvent, Limits limits, long now) {
    byte[] hostId = c.host().hostId();
    long back;
    if (empty) {
      if (!schedule.remove(ch, hostId, c.next(), "unschedule host")
          || !stores.queues().holdsAny(ch.id(), hostId)) {
        return;
      }
      back = now;
    } else {
      if (nextEvent == Long.MAX_VALUE
          || nextEvent <= c.next().due()
          || !schedule.move(ch, hostId, c.next(), nextEvent, "reschedule host")) {
        return;
      }
      QueueRead again = readQueue(ch, hostId, limits, now);
      back = again.picked().isEmpty() ? again.nextEvent() : now;
      if (back >= nextEvent) {
        return;
      }
    }
    schedule.bringForward(
        ch, List.of(hostId), List.of(c.host().key()), List.of(Math.max(back, now)));
  }
}
