package org.casebook.frontier;

import com.google.protobuf.InvalidProtocolBufferException;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Row;
import org.casebook.core.Futures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GetURLs: hosts come from the due index — rows keyed by the time a host is next due — so a
 * hand-out reads only hosts with something due and an emptied frontier answers after one empty
 * scan. A host is claimed by check-and-mutate on its last hand-out and next-due time (one claimer
 * wins; the next due time becomes now + its delay, which is the politeness rule), then its queue is
 * read in priority order and the URLs handed out are marked in flight.
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

  private final FrontierStore store;
  private final Clock clock;
  private final ExecutorService sideWork;

  Handout(FrontierStore store, Clock clock, ExecutorService sideWork) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.sideWork = Objects.requireNonNull(sideWork, "sideWork is null");
  }

  /** What a call may hand out. */
  record Limits(int maxQueues, int maxPerQueue, long requestableMs) {
    static Limits of(int maxQueues, int maxPerQueue, int delayRequestableSeconds) {
      return new Limits(
          maxQueues <= 0 ? Integer.MAX_VALUE : maxQueues,
          maxPerQueue <= 0 ? MAX_PER_QUEUE : Math.min(maxPerQueue, MAX_PER_QUEUE),
          1000L
              * (delayRequestableSeconds == 0
                  ? DEFAULT_DELAY_REQUESTABLE_S
                  : delayRequestableSeconds));
    }
  }

  /** A host being handed out: its row as read, and the due time its claim was made on. */
  private record Claimed(FrontierStore.HostRow host, long newNext) {}

  /** Hands out from the due hosts of {@code ch}; answers the URLs and the queues served. */
  int handOut(Channel ch, Limits limits, List<URLInfo> out) {
    long now = clock.millis();
    int served = 0;
    byte[] after = null;
    while (served < limits.maxQueues()) {
      List<FrontierStore.Due> dues = store.due(ch.id(), now, after, DUE_CHUNK);
      if (dues.isEmpty()) {
        break;
      }
      after = dues.get(dues.size() - 1).row();
      served += claimAndServe(ch, dues, limits, now, limits.maxQueues() - served, out);
      if (dues.size() < DUE_CHUNK) {
        break;
      }
    }
    return served;
  }

  /** Hands out from one queue, due or not in the index (URLFrontier's GetURLs with a key). */
  int handOutQueue(Channel ch, byte[] hostId, Limits limits, List<URLInfo> out) {
    long now = clock.millis();
    return store
        .host(ch.id(), hostId)
        .map(
            h -> {
              long due = h.next() == null ? now : h.next();
              return claimAndServe(
                  ch, List.of(new FrontierStore.Due(null, due, hostId)), limits, now, 1, out, true);
            })
        .orElse(0);
  }

  private int claimAndServe(
      Channel ch,
      List<FrontierStore.Due> dues,
      Limits limits,
      long now,
      int room,
      List<URLInfo> out) {
    return claimAndServe(ch, dues, limits, now, room, out, false);
  }

  private int claimAndServe(
      Channel ch,
      List<FrontierStore.Due> dues,
      Limits limits,
      long now,
      int room,
      List<URLInfo> out,
      boolean byKey) {
    List<byte[]> ids = new ArrayList<>();
    Set<HostKey> seen = new HashSet<>();
    for (FrontierStore.Due d : dues) {
      if (seen.add(new HostKey(d.hostId()))) {
        ids.add(d.hostId());
      }
    }
    Map<HostKey, FrontierStore.HostRow> hosts = store.hosts(ch.id(), ids);
    List<Row> duePuts = new ArrayList<>();
    List<Row> dueDeletes = new ArrayList<>();
    List<CheckAndMutate> cams = new ArrayList<>();
    // per CAS: the due row it retires on success (null: none), and the claim it makes (null: a
    // move)
    List<FrontierStore.Due> retires = new ArrayList<>();
    List<Claimed> claims = new ArrayList<>();
    Set<HostKey> decided = new HashSet<>();
    int claimed = 0;
    for (FrontierStore.Due d : dues) {
      HostKey hk = new HostKey(d.hostId());
      FrontierStore.HostRow h = hosts.get(hk);
      if (h == null) {
        if (d.row() != null) {
          dueDeletes.add(new Delete(d.row()));
        }
        continue;
      }
      if (!byKey && h.next() == null) {
        if (h.queued() > 0 && decided.add(hk)) {
          // A due row outlived the next-due time it was written for: adopt it.
          cams.add(FrontierStore.adoptNext(ch.id(), h.hostId(), d.due()));
          retires.add(null);
          claims.add(null);
        } else {
          dueDeletes.add(new Delete(d.row()));
        }
        continue;
      }
      if (!byKey && h.next() != d.due()) {
        dueDeletes.add(new Delete(d.row()));
        continue;
      }
      if (!decided.add(hk)) {
        continue;
      }
      long delay = h.delayMs() == null ? ch.delayMs() : h.delayMs();
      if (h.limit() > 0 && h.completed() >= h.limit()) {
        if (h.next() != null) {
          cams.add(FrontierStore.moveNext(ch.id(), h.hostId(), h.next(), null));
          retires.add(d);
          claims.add(null);
        }
        continue;
      }
      long allowed = Math.max(h.blockedUntil(), h.last() == 0 ? 0 : h.last() + delay);
      if (allowed > now) {
        if (!byKey) {
          duePuts.add(FrontierStore.duePut(ch.id(), allowed, h.hostId()));
          cams.add(FrontierStore.moveNext(ch.id(), h.hostId(), h.next(), allowed));
          retires.add(d);
          claims.add(null);
        }
        continue;
      }
      if (claimed >= room) {
        continue;
      }
      claimed++;
      long newNext = now + Math.max(delay, 1);
      duePuts.add(FrontierStore.duePut(ch.id(), newNext, h.hostId()));
      cams.add(FrontierStore.claim(ch.id(), h, now, newNext));
      retires.add(h.next() == null ? null : new FrontierStore.Due(null, h.next(), h.hostId()));
      claims.add(new Claimed(h, newNext));
    }
    // Due rows first: a next-due time is never written before the row that finds it.
    store.writeDue(duePuts);
    List<Boolean> ok = store.checkHosts(cams, "claim hosts");
    List<Claimed> won = new ArrayList<>();
    for (int i = 0; i < ok.size(); i++) {
      if (!ok.get(i)) {
        continue;
      }
      FrontierStore.Due retired = retires.get(i);
      if (retired != null) {
        dueDeletes.add(FrontierStore.dueDelete(ch.id(), retired.due(), retired.hostId()));
      }
      if (claims.get(i) != null) {
        won.add(claims.get(i));
      }
    }
    store.writeDue(dueDeletes);
    return serve(ch, won, limits, now, out);
  }

  private int serve(Channel ch, List<Claimed> won, Limits limits, long now, List<URLInfo> out) {
    if (won.isEmpty()) {
      return 0;
    }
    List<Future<Picked>> futures = new ArrayList<>(won.size());
    for (Claimed c : won) {
      futures.add(sideWork.submit(() -> serveHost(ch, c, limits, now)));
    }
    List<Picked> picks = new ArrayList<>(won.size());
    List<Row> marks = new ArrayList<>();
    for (Future<Picked> f : futures) {
      Picked p = Futures.await(f);
      picks.add(p);
      marks.addAll(p.marks());
    }
    // Every queue's in-flight marks in one batch, durable before any URL is answered.
    store.writeUrls(marks);
    int served = 0;
    List<Increment> counters = new ArrayList<>();
    Counts total = new Counts();
    int day = Days.of(now);
    for (int i = 0; i < won.size(); i++) {
      List<byte[]> infos = picks.get(i).infos();
      if (infos.isEmpty()) {
        continue;
      }
      served++;
      for (byte[] info : infos) {
        out.add(parse(info));
      }
      Counts c = new Counts();
      c.add(Counts.OUT, infos.size());
      total.addAll(c);
      counters.add(
          FrontierStore.counters(
              FrontierStore.hostRow(ch.id(), won.get(i).host().hostId()), day, 0, 0, c.daily));
    }
    if (!total.isEmpty()) {
      counters.add(
          FrontierStore.counters(FrontierKeys.CHANNEL.encode(ch.id()), day, 0, 0, total.daily));
    }
    store.addCounters(counters);
    return served;
  }

  private static URLInfo parse(byte[] info) {
    try {
      return URLInfo.parseFrom(info);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a stored URL does not parse", e);
    }
  }

  /** What one queue hands out: the URLs' info and the in-flight marks to write first. */
  private record Picked(List<byte[]> infos, List<Row> marks) {}

  /** Reads one claimed host's queue; answers what it hands out and the marks to write for it. */
  private Picked serveHost(Channel ch, Claimed c, Limits limits, long now) {
    byte[] hostId = c.host().hostId();
    long[] nextEvent = {Long.MAX_VALUE};
    int[] inFlight = {0};
    boolean[] any = {false};
    List<FrontierStore.Queued> picked = new ArrayList<>();
    List<FrontierStore.Queued> again = new ArrayList<>();
    // Read only as far as needed: the first round trip asks for what may be handed out plus a
    // little for rows in flight; before, 256 extra rows were read per host for a 1-URL hand-out.
    store.visitQueue(
        ch.id(),
        hostId,
        limits.maxPerQueue() + SCAN_SLACK,
        limits.maxPerQueue() + FIRST_TRIP_SLACK,
        q -> {
          any[0] = true;
          if (q.until() > now) {
            inFlight[0]++;
            nextEvent[0] = Math.min(nextEvent[0], q.until());
            return inFlight[0] < limits.maxPerQueue();
          }
          if (q.dueMs() > now) {
            nextEvent[0] = Math.min(nextEvent[0], q.dueMs());
            return ch.kind() != ChannelKind.FIFO;
          }
          picked.add(q);
          if (q.until() != 0) {
            again.add(q);
          }
          return picked.size() < limits.maxPerQueue();
        });
    if (inFlight[0] >= limits.maxPerQueue()) {
      picked.clear();
      again.clear();
    }
    dropOrphans(ch, hostId, picked, again);
    List<Row> marks = new ArrayList<>(picked.size());
    List<byte[]> infos = new ArrayList<>(picked.size());
    long until = now + limits.requestableMs();
    for (FrontierStore.Queued q : picked) {
      marks.add(FrontierStore.inFlight(q.row(), until));
      infos.add(q.info());
    }
    if (infos.isEmpty()) {
      reschedule(ch, c, !any[0], nextEvent[0], now);
    }
    return new Picked(infos, marks);
  }

  /**
   * A URL handed out before is handed out again only if its known row still points at it (the row
   * could be left over from a crash between the two writes of a put).
   */
  private void dropOrphans(
      Channel ch,
      byte[] hostId,
      List<FrontierStore.Queued> picked,
      List<FrontierStore.Queued> again) {
    if (again.isEmpty()) {
      return;
    }
    List<byte[]> known = new ArrayList<>(again.size());
    for (FrontierStore.Queued q : again) {
      known.add(FrontierStore.knownRow(ch.id(), hostId, q.urlId()));
    }
    List<FrontierStore.Status> statuses = store.statuses(known);
    List<Row> drop = new ArrayList<>();
    for (int i = 0; i < again.size(); i++) {
      FrontierStore.Status s = statuses.get(i);
      FrontierStore.Queued q = again.get(i);
      boolean current =
          s != null && s.queued() && s.priority() == q.priority() && s.version() == q.version();
      if (!current) {
        drop.add(new Delete(q.row()));
        picked.remove(q);
        LOG.debug("dropped an orphan queued row of channel {}", ch.crawlId());
      }
    }
    store.writeUrls(drop);
  }

  /**
   * Nothing was handed out: the host is due again when its first in-flight URL expires or its next
   * URL becomes due, or leaves the index when its queue is empty (and comes back if a put raced).
   */
  private void reschedule(Channel ch, Claimed c, boolean empty, long nextEvent, long now) {
    byte[] hostId = c.host().hostId();
    if (empty) {
      List<Boolean> removed =
          store.checkHosts(
              List.of(FrontierStore.moveNext(ch.id(), hostId, c.newNext(), null)),
              "unschedule host");
      if (removed.get(0)) {
        store.writeDue(List.of(FrontierStore.dueDelete(ch.id(), c.newNext(), hostId)));
        // A put may have queued a URL after the scan and seen the old next-due time.
        if (!store.queued(ch.id(), hostId, 1).isEmpty()) {
          List<Boolean> back =
              store.moveNextEarlier(
                  ch.id(), List.of(hostId), List.of(c.host().key()), List.of(now));
          if (back.get(0)) {
            store.writeDue(List.of(FrontierStore.duePut(ch.id(), now, hostId)));
          }
        }
      }
      return;
    }
    if (nextEvent != Long.MAX_VALUE && nextEvent > c.newNext()) {
      store.writeDue(List.of(FrontierStore.duePut(ch.id(), nextEvent, hostId)));
      List<Boolean> moved =
          store.checkHosts(
              List.of(FrontierStore.moveNext(ch.id(), hostId, c.newNext(), nextEvent)),
              "reschedule host");
      if (moved.get(0)) {
        store.writeDue(List.of(FrontierStore.dueDelete(ch.id(), c.newNext(), hostId)));
      }
    }
  }
}
