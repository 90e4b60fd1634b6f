package org.casebook.frontier;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.casebook.core.CasebookException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PutURLs: a batch of discovered and known URLs becomes queued rows, known rows, counters and due
 * times. Per URL the known row decides, by check-and-mutate on its version: a discovered URL is new
 * only if no row exists (else a duplicate, acknowledged SKIPPED as the reference service does); a
 * known URL replaces the row it read, or reads again and retries. The queued row is written before
 * the known row that points at it, so a crash leaves an orphan queued row (dropped when it is next
 * handed out) and never a known URL without its queued row.
 */
final class Intake {
  private static final Logger LOG = LoggerFactory.getLogger(Intake.class);

  /** Rounds of retry for URLs whose known row changed between read and write. */
  private static final int MAX_ROUNDS = 8;

  /** Metadata key a priority channel reads a URL's priority from. */
  static final String PRIORITY_KEY = "priority";

  private static final int HOST_KEY_CACHE = 1_000_000;

  private final FrontierStore stores;
  private final Channels channels;
  private final Schedule schedule;
  private final Clock clock;
  private final CountSettlement settlement;
  private final FrontierMetrics metrics;

  /** Hosts (channel | host id) whose queue key is written already. */
  private final Set<HostKey> hostsWithKey = ConcurrentHashMap.newKeySet();

  Intake(
      FrontierStore stores,
      Channels channels,
      Schedule schedule,
      Clock clock,
      CountSettlement settlement,
      FrontierMetrics metrics) {
    this.stores = Objects.requireNonNull(stores, "stores is null");
    this.channels = Objects.requireNonNull(channels, "channels is null");
    this.schedule = Objects.requireNonNull(schedule, "schedule is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.settlement = Objects.requireNonNull(settlement, "settlement is null");
    this.metrics = Objects.requireNonNull(metrics, "metrics is null");
  }

  /** One valid item, ready to write. {@code priority} null: done (known, never to be refetched). */
  private record Item(
      int index,
      boolean discovered,
      String key,
      UrlRef url,
      byte[] info,
      Long priority,
      long dueMs) {
    byte[] hostId() {
      return url.hostId();
    }

    QueueChange.Enqueue enqueue(long version) {
      return new QueueChange.Enqueue(hostId(), priority, url.urlId(), info, version, dueMs);
    }

    QueueChange.Drop drop(long priority, long version) {
      return new QueueChange.Drop(hostId(), priority, url.urlId(), version);
    }
  }

  /** Acknowledgements for {@code items}, in order. */
  List<PutAck> put(List<UrlItem> items) {
    long now = clock.millis();
    PutStatus[] status = new PutStatus[items.size()];
    Map<String, List<Integer>> byCrawl = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      try {
        String crawl = UrlRules.crawlId(items.get(i).info().crawlId());
        byCrawl.computeIfAbsent(crawl, c -> new ArrayList<>()).add(i);
      } catch (InvalidInputException e) {
        status[i] = PutStatus.SKIPPED;
        metrics.refusedCrawlId();
      }
    }
    int day = Days.of(now);
    for (Map.Entry<String, List<Integer>> e : byCrawl.entrySet()) {
      int refused = putChannel(e.getKey(), e.getValue(), items, status, now, day);
      metrics.countPut(e.getKey(), items, e.getValue(), status, refused);
    }
    List<PutAck> acks = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      acks.add(new PutAck(items.get(i).ackId(), status[i]));
    }
    return acks;
  }

  /** Puts one crawl's items; answers how many of them were refused as invalid. */
  private int putChannel(
      String crawl,
      List<Integer> indexes,
      List<UrlItem> items,
      PutStatus[] status,
      long now,
      int day) {
    Map<HostKey, Counts> counts = new HashMap<>();
    Channel ch;
    try {
      ch = channels.findOrCreate(crawl);
    } catch (StorageException e) {
      LOG.warn("put: channel {} unavailable: {}", crawl, e.getMessage());
      indexes.forEach(i -> status[i] = PutStatus.FAIL);
      return 0;
    }
    List<Item> pending = new ArrayList<>();
    Map<HostKey, String> keys = new HashMap<>();
    for (int i : indexes) {
      try {
        Item item = prepare(i, items.get(i), ch, now);
        pending.add(item);
        keys.put(new HostKey(item.hostId()), item.key());
      } catch (InvalidInputException e) {
        status[i] = PutStatus.SKIPPED;
        LOG.debug("put: item {} refused: {}", i, e.getMessage());
      }
    }
    Map<HostKey, Long> earliest = new HashMap<>();
    try {
      write(ch, pending, status, counts, earliest, now);
    } catch (CasebookException e) {
      // The rows written before the failure (earlier rounds, or every round when only the drops
      // of replaced rows failed) are stored: they are counted and scheduled below all the same,
      // or the counters would miss them for good and their hosts wait for no due time.
      LOG.warn("put: writing to channel {} failed: {}", crawl, e.getMessage());
      // Before the counters: they count the items that failed.
      for (Item it : pending) {
        if (status[it.index()] == null) {
          status[it.index()] = PutStatus.FAIL;
        }
      }
    }
    try {
      // Counters before due times: a host emptied here and refilled by a concurrent put is seen
      // either by the recheck below or by that put's own schedule.
      Map<HostKey, Long> queuedNow;
      try {
        queuedNow = settlement.count(ch, counts, countFailed(indexes, pending, status), day);
      } catch (CasebookException e) {
        // The URLs are stored but their counts are not yet (they are settled in the background):
        // not acknowledged as OK. They are scheduled all the same, so none waits for a due time
        // that was never written.
        LOG.warn("put: counters of channel {} not written: {}", crawl, e.getMessage());
        for (Item it : pending) {
          if (status[it.index()] == PutStatus.OK) {
            status[it.index()] = PutStatus.FAIL;
          }
        }
        queuedNow = Map.of();
      }
      scheduleHosts(ch, earliest, keys);
      queuedNow.forEach(
          (h, q) -> {
            if (q <= 0 && !earliest.containsKey(h)) {
              unschedule(ch, h);
            }
          });
    } catch (CasebookException e) {
      // Items without an answer fail below.
      LOG.warn("put: scheduling hosts of channel {} failed: {}", crawl, e.getMessage());
    }
    for (int i : indexes) {
      if (status[i] == null) {
        status[i] = PutStatus.FAIL;
      }
    }
    return indexes.size() - pending.size();
  }

  /**
   * Items refused (no URL, bad key) or not written after every retry: counted as failed on the
   * channel (an invalid URL has no host).
   */
  private static long countFailed(List<Integer> indexes, List<Item> pending, PutStatus[] status) {
    Set<Integer> valid = new HashSet<>();
    pending.forEach(it -> valid.add(it.index()));
    return indexes.stream().filter(i -> !valid.contains(i) || status[i] == PutStatus.FAIL).count();
  }

  private static Item prepare(int index, UrlItem item, Channel ch, long now) {
    InvalidInputException.check(
        item.kind() != UrlItem.Kind.NEITHER, "item", "neither discovered nor known");
    boolean discovered = item.kind() == UrlItem.Kind.DISCOVERED;
    UrlInfo info = item.info();
    String url = UrlRules.url(info.url(), "url");
    String key = UrlRules.key(info.key(), url, "key");
    long dueMs = now;
    boolean done = false;
    if (!discovered) {
      long refetch = item.refetchableFromDate();
      InvalidInputException.check(refetch >= 0, "refetchable_from_date", "out of range");
      InvalidInputException.check(
          refetch <= Long.MAX_VALUE / 1000, "refetchable_from_date", "out of range");
      done = refetch == 0;
      dueMs = refetch * 1000;
    }
    Long priority = null;
    if (!done) {
      priority = ch.kind() == ChannelKind.FIFO ? dueMs : -crawlerPriority(info);
    }
    UrlInfo stored = new UrlInfo(info.url(), key, ch.crawlId(), info.metadata());
    return new Item(
        index,
        discovered,
        key,
        UrlRef.of(key, url),
        UrlInfoCodec.encode(stored),
        priority,
        done ? 0 : dueMs);
  }

  /** A priority channel's priority: metadata {@code priority}, a whole number; 0 if absent. */
  private static long crawlerPriority(UrlInfo info) {
    List<String> values = info.metadata().get(PRIORITY_KEY);
    if (values == null || values.isEmpty()) {
      return 0;
    }
    try {
      long p = Long.parseLong(values.get(0).trim());
      InvalidInputException.check(
          p > Long.MIN_VALUE && p < Long.MAX_VALUE, "metadata.priority", "out of range");
      return p;
    } catch (NumberFormatException e) {
      throw new InvalidInputException("metadata.priority", "not a whole number: " + values.get(0));
    }
  }

  /**
   * Writes the items in rounds, then drops the queued rows they left behind. The drops wait for the
   * last round: a URL twice in a batch may be queued again, in a later round, on the row an earlier
   * one left, and a delete marker hides every write of its millisecond, even one sent after it.
   * Each drop holds only while its row is at the version it was written for, so it never takes a
   * row written since, by this put or another.
   */
  private void write(
      Channel ch,
      List<Item> items,
      PutStatus[] status,
      Map<HostKey, Counts> counts,
      Map<HostKey, Long> earliest,
      long now) {
    List<QueueChange> drops = new ArrayList<>();
    try {
      writeRounds(ch, items, status, counts, earliest, now, drops);
    } catch (CasebookException e) {
      try {
        stores.queues().apply(ch.id(), drops);
      } catch (CasebookException alsoFailed) {
        e.addSuppressed(alsoFailed);
      }
      throw e;
    }
    stores.queues().apply(ch.id(), drops);
  }

  private void writeRounds(
      Channel ch,
      List<Item> items,
      PutStatus[] status,
      Map<HostKey, Counts> counts,
      Map<HostKey, Long> earliest,
      long now,
      List<QueueChange> drops) {
    List<Item> pending = items;
    // The queued row an item wrote before its known row's write failed.
    Map<Integer, QueueChange.Drop> ownRows = new HashMap<>();
    for (int round = 0; round < MAX_ROUNDS && !pending.isEmpty(); round++) {
      try {
        pending = writeRound(ch, pending, status, counts, earliest, now, drops, ownRows);
      } catch (CasebookException e) {
        settlement.addUnsent(ch, Days.of(now), ownRows.values());
        throw e;
      }
    }
    for (Item it : pending) {
      status[it.index()] = PutStatus.FAIL;
    }
    // Items that never got their known write: their queued rows go.
    for (Item it : pending) {
      QueueChange.Drop own = ownRows.remove(it.index());
      if (own != null) {
        drops.add(own);
      }
    }
  }

  /** One round of {@link #writeRounds}: answers the items to try again. */
  private List<Item> writeRound(
      Channel ch,
      List<Item> pending,
      PutStatus[] status,
      Map<HostKey, Counts> counts,
      Map<HostKey, Long> earliest,
      long now,
      List<QueueChange> drops,
      Map<Integer, QueueChange.Drop> ownRows) {
    // One write per known row per round: a URL twice in a batch waits for the next round.
    Map<UrlRef, Item> thisRound = new LinkedHashMap<>();
    List<Item> later = new ArrayList<>();
    for (Item it : pending) {
      if (thisRound.putIfAbsent(it.url(), it) != null) {
        later.add(it);
      }
    }
    List<Item> batch = new ArrayList<>(thisRound.values());
    List<UrlStatus> read = stores.known().read(ch.id(), List.copyOf(thisRound.keySet()));
    List<QueueChange> urlWrites = new ArrayList<>();
    List<StatusChange> changes = new ArrayList<>();
    List<Item> changed = new ArrayList<>();
    List<UrlStatus> changedFrom = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      Item it = batch.get(i);
      UrlStatus s = read.get(i);
      Counts c = counts.computeIfAbsent(new HostKey(it.hostId()), h -> new Counts());
      if (it.discovered() && s != null) {
        c.add(Counts.PUT, 1);
        c.add(Counts.DUPLICATE, 1);
        status[it.index()] = PutStatus.SKIPPED;
        QueueChange.Drop own = ownRows.remove(it.index());
        if (own != null) {
          // Lost a race with another put of the same URL: drop the queued row it wrote, unless
          // the winner's has the same key, which then gets the winner's content back.
          if (s.queued() && s.priority().longValue() == own.priority()) {
            urlWrites.add(
                new QueueChange.Enqueue(
                    it.hostId(),
                    own.priority(),
                    it.url().urlId(),
                    s.info(),
                    s.version(),
                    s.dueMs()));
          } else {
            drops.add(own);
          }
        }
        continue;
      }
      long version = ThreadLocalRandom.current().nextLong();
      if (it.priority() != null) {
        urlWrites.add(it.enqueue(version));
      }
      changes.add(
          new StatusChange(
              it.url(),
              s == null ? null : s.version(),
              version,
              it.info(),
              it.priority(),
              it.dueMs(),
              now,
              s == null ? new long[0] : s.earlierAfterReplace()));
      changed.add(it);
      changedFrom.add(s);
    }
    try {
      stores.queues().apply(ch.id(), urlWrites);
    } catch (CasebookException e) {
      // Some queued rows may be stored, for known writes never sent: they go (see writeRounds).
      for (int i = 0; i < changed.size(); i++) {
        Item it = changed.get(i);
        if (it.priority() != null) {
          ownRows.put(it.index(), it.drop(it.priority(), changes.get(i).version()));
        }
      }
      throw e;
    }
    List<Boolean> ok = settlement.settleNow(ch, changes, stores.known().change(ch.id(), changes));
    List<Item> retry = new ArrayList<>(later);
    for (int i = 0; i < changed.size(); i++) {
      Item it = changed.get(i);
      UrlStatus before = changedFrom.get(i);
      if (ok.get(i) == null) {
        // Made or not, unknown: not retried (its row may be this put's) and counted by the
        // settlement once its row tells; its host scheduled, so that a URL queued by it is not
        // left waiting for no due time.
        status[it.index()] = PutStatus.FAIL;
        Counts c = new Counts();
        if (before == null) {
          c.add(Counts.NEW, 1);
        }
        transition(c, before, it.priority() != null);
        settlement.addChange(
            new CountSettlement.UnsettledChange(
                ch.id(),
                ch.crawlId(),
                Days.of(now),
                it.url(),
                changes.get(i).version(),
                new HostKey(it.hostId()),
                c,
                it.priority() == null ? null : it.drop(it.priority(), changes.get(i).version()),
                replacedRow(it, before)));
        if (it.priority() != null) {
          earliest.merge(new HostKey(it.hostId()), it.dueMs(), Math::min);
        }
        continue;
      }
      if (!ok.get(i)) {
        if (it.priority() != null) {
          ownRows.put(it.index(), it.drop(it.priority(), changes.get(i).version()));
        }
        retry.add(it);
        continue;
      }
      ownRows.remove(it.index());
      status[it.index()] = PutStatus.OK;
      HostKey host = new HostKey(it.hostId());
      Counts c = counts.computeIfAbsent(host, h -> new Counts());
      c.add(Counts.PUT, 1);
      if (!it.discovered()) {
        c.add(Counts.ACK, 1);
      }
      if (before == null) {
        c.add(Counts.NEW, 1);
      }
      transition(c, before, it.priority() != null);
      QueueChange.Drop replaced = replacedRow(it, before);
      if (replaced != null) {
        drops.add(replaced);
      }
      if (it.priority() != null) {
        earliest.merge(host, it.dueMs(), Math::min);
      }
    }
    return retry;
  }

  /** The queued row {@code it} leaves behind when it replaces {@code before}; null if none. */
  private static QueueChange.Drop replacedRow(Item it, UrlStatus before) {
    if (before != null
        && before.queued()
        && (it.priority() == null || before.priority().longValue() != it.priority())) {
      return it.drop(before.priority(), before.version());
    }
    return null;
  }

  /** Queued and completed deltas of a URL going from {@code before} to queued or done. */
  private static void transition(Counts c, UrlStatus before, boolean queuedAfter) {
    boolean queuedBefore = before != null && before.queued();
    boolean doneBefore = before != null && !before.queued();
    if (queuedAfter && !queuedBefore) {
      c.queued(1);
    }
    if (!queuedAfter && queuedBefore) {
      c.queued(-1);
    }
    if (!queuedAfter && !doneBefore) {
      c.completed++;
    }
    if (queuedAfter && doneBefore) {
      c.completed--;
    }
  }

  /** Gives hosts with newly queued URLs an earlier next-due time (and its due row) where needed. */
  private void scheduleHosts(Channel ch, Map<HostKey, Long> earliest, Map<HostKey, String> keys) {
    List<byte[]> hostIds = new ArrayList<>();
    List<String> hostKeys = new ArrayList<>();
    List<Long> dues = new ArrayList<>();
    earliest.forEach(
        (h, due) -> {
          hostIds.add(h.bytes());
          hostKeys.add(keys.get(h));
          dues.add(due);
        });
    List<Boolean> moved = schedule.bringForward(ch, hostIds, hostKeys, dues);
    for (int i = 0; i < moved.size(); i++) {
      if (moved.get(i)) {
        remember(ch, new HostKey(hostIds.get(i)));
      }
    }
    Map<HostKey, String> keyOnly = new HashMap<>();
    keys.forEach(
        (h, k) -> {
          if (!hostsWithKey.contains(channelHost(ch, h))) {
            keyOnly.put(h, k);
          }
        });
    stores.hosts().putKeys(ch.id(), keyOnly);
    keyOnly.keySet().forEach(h -> remember(ch, h));
  }

  private void remember(Channel ch, HostKey h) {
    if (hostsWithKey.size() > HOST_KEY_CACHE) {
      hostsWithKey.clear();
    }
    hostsWithKey.add(channelHost(ch, h));
  }

  private static HostKey channelHost(Channel ch, HostKey h) {
    return new HostKey(FrontierKeys.HOST.encode(ch.id(), h.bytes()));
  }

  /** Forgets cached host keys (a queue or channel was deleted). */
  void forgetHosts() {
    hostsWithKey.clear();
  }

  /**
   * An emptied host leaves the due index at once (an emptied frontier answers GetURLs without
   * visiting it); if a put refilled it meanwhile, it is scheduled again. The queue itself is read
   * for that, not its count: a put writes its rows before it reads the host's stamp, and may fail
   * to write its count.
   */
  void unschedule(Channel ch, HostKey h) {
    Optional<HostRow> found = stores.hosts().host(ch.id(), h.bytes());
    if (found.isEmpty() || found.get().next() == null) {
      return;
    }
    HostRow row = found.get();
    if (!schedule.remove(ch, h.bytes(), row.stamp(), "unschedule host")) {
      return;
    }
    if (stores.queues().holdsAny(ch.id(), h.bytes())) {
      schedule.bringForward(ch, List.of(h.bytes()), List.of(row.key()), List.of(clock.millis()));
    }
  }
}
