package org.casebook.frontier;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
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
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Row;
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

  private final FrontierStore store;
  private final Channels channels;
  private final Clock clock;
  private final Set<HostKey> hostsWithKey = ConcurrentHashMap.newKeySet();

  Intake(FrontierStore store, Channels channels, Clock clock) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.channels = Objects.requireNonNull(channels, "channels is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /** One valid item, ready to write. {@code priority} null: done (known, never to be refetched). */
  private record Item(
      int index,
      boolean discovered,
      byte[] hostId,
      String key,
      byte[] urlId,
      byte[] knownRow,
      byte[] info,
      Long priority,
      long dueMs) {}

  /** Acknowledgements for {@code items}, in order. */
  List<AckMessage> put(List<URLItem> items) {
    long now = clock.millis();
    AckMessage.Status[] status = new AckMessage.Status[items.size()];
    Map<String, List<Integer>> byCrawl = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      URLItem it = items.get(i);
      URLInfo info = info(it);
      try {
        String crawl = UrlRules.crawlId(info.getCrawlID());
        byCrawl.computeIfAbsent(crawl, c -> new ArrayList<>()).add(i);
      } catch (InvalidInputException e) {
        status[i] = AckMessage.Status.SKIPPED;
      }
    }
    int day = Days.of(now);
    for (Map.Entry<String, List<Integer>> e : byCrawl.entrySet()) {
      putChannel(e.getKey(), e.getValue(), items, status, now, day);
    }
    List<AckMessage> acks = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      URLItem it = items.get(i);
      String id = it.getID().isEmpty() ? info(it).getUrl() : it.getID();
      acks.add(AckMessage.newBuilder().setID(id).setStatus(status[i]).build());
    }
    return acks;
  }

  private static URLInfo info(URLItem it) {
    if (it.hasDiscovered()) {
      return it.getDiscovered().getInfo();
    }
    return it.getKnown().getInfo();
  }

  private void putChannel(
      String crawl,
      List<Integer> indexes,
      List<URLItem> items,
      AckMessage.Status[] status,
      long now,
      int day) {
    Map<HostKey, Counts> counts = new HashMap<>();
    Channel ch;
    try {
      ch = channels.findOrCreate(crawl);
    } catch (StorageException e) {
      LOG.warn("put: channel {} unavailable: {}", crawl, e.getMessage());
      indexes.forEach(i -> status[i] = AckMessage.Status.FAIL);
      return;
    }
    List<Item> pending = new ArrayList<>();
    Map<HostKey, String> keys = new HashMap<>();
    for (int i : indexes) {
      try {
        Item item = prepare(i, items.get(i), ch, now);
        pending.add(item);
        keys.put(new HostKey(item.hostId()), item.key());
      } catch (InvalidInputException e) {
        status[i] = AckMessage.Status.SKIPPED;
        LOG.debug("put: item {} refused: {}", i, e.getMessage());
      }
    }
    Map<HostKey, Long> earliest = new HashMap<>();
    try {
      write(ch, pending, status, counts, earliest);
      // Counters before due times: a host emptied here and refilled by a concurrent put is seen
      // either by the recheck below or by that put's own schedule.
      Map<HostKey, Long> queuedNow =
          writeCounters(ch, counts, countFailed(indexes, pending, status), day);
      schedule(ch, earliest, keys);
      queuedNow.forEach(
          (h, q) -> {
            if (q <= 0 && !earliest.containsKey(h)) {
              unschedule(ch, h);
            }
          });
    } catch (CasebookException e) {
      LOG.warn("put: writing to channel {} failed: {}", crawl, e.getMessage());
      for (Item it : pending) {
        if (status[it.index()] == null) {
          status[it.index()] = AckMessage.Status.FAIL;
        }
      }
    }
    for (int i : indexes) {
      if (status[i] == null) {
        status[i] = AckMessage.Status.FAIL;
      }
    }
  }

  /**
   * Items refused (no URL, bad key) or not written after every retry: counted as failed on the
   * channel (an invalid URL has no host).
   */
  private static long countFailed(
      List<Integer> indexes, List<Item> pending, AckMessage.Status[] status) {
    Set<Integer> valid = new HashSet<>();
    pending.forEach(it -> valid.add(it.index()));
    return indexes.stream()
        .filter(i -> !valid.contains(i) || status[i] == AckMessage.Status.FAIL)
        .count();
  }

  private Item prepare(int index, URLItem item, Channel ch, long now) {
    InvalidInputException.check(
        item.hasDiscovered() || item.hasKnown(), "item", "neither discovered nor known");
    boolean discovered = item.hasDiscovered();
    URLInfo info = info(item);
    String url = UrlRules.url(info.getUrl(), "url");
    String key = UrlRules.key(info.getKey(), url, "key");
    long dueMs = now;
    boolean done = false;
    if (!discovered) {
      long refetch = item.getKnown().getRefetchableFromDate();
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
    URLInfo stored = info.toBuilder().setKey(key).setCrawlID(ch.crawlId()).build();
    byte[] hostId = FrontierKeys.hostId(key);
    byte[] urlId = FrontierKeys.urlId(url);
    return new Item(
        index,
        discovered,
        hostId,
        key,
        urlId,
        FrontierStore.knownRow(ch.id(), hostId, urlId),
        stored.toByteArray(),
        priority,
        done ? 0 : dueMs);
  }

  /** A priority channel's priority: metadata {@code priority}, a whole number; 0 if absent. */
  private static long crawlerPriority(URLInfo info) {
    StringList values = info.getMetadataMap().get(PRIORITY_KEY);
    if (values == null || values.getValuesCount() == 0) {
      return 0;
    }
    try {
      long p = Long.parseLong(values.getValues(0).trim());
      InvalidInputException.check(
          p > Long.MIN_VALUE && p < Long.MAX_VALUE, "metadata.priority", "out of range");
      return p;
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          "metadata.priority", "not a whole number: " + values.getValues(0));
    }
  }

  private void write(
      Channel ch,
      List<Item> items,
      AckMessage.Status[] status,
      Map<HostKey, Counts> counts,
      Map<HostKey, Long> earliest) {
    List<Item> pending = items;
    Map<Integer, byte[]> ownRows = new HashMap<>();
    for (int round = 0; round < MAX_ROUNDS && !pending.isEmpty(); round++) {
      // One write per known row per round: a URL twice in a batch waits for the next round.
      Map<HostKey, Item> thisRound = new LinkedHashMap<>();
      List<Item> later = new ArrayList<>();
      for (Item it : pending) {
        if (thisRound.putIfAbsent(new HostKey(it.knownRow()), it) != null) {
          later.add(it);
        }
      }
      List<Item> batch = new ArrayList<>(thisRound.values());
      List<byte[]> rows = new ArrayList<>(batch.size());
      batch.forEach(it -> rows.add(it.knownRow()));
      List<FrontierStore.Status> read = store.statuses(rows);
      List<Row> urlWrites = new ArrayList<>();
      List<CheckAndMutate> cams = new ArrayList<>();
      List<Item> camItems = new ArrayList<>();
      List<FrontierStore.Status> camRead = new ArrayList<>();
      for (int i = 0; i < batch.size(); i++) {
        Item it = batch.get(i);
        FrontierStore.Status s = read.get(i);
        Counts c = counts.computeIfAbsent(new HostKey(it.hostId()), h -> new Counts());
        if (it.discovered() && s != null) {
          c.add(Counts.PUT, 1);
          c.add(Counts.DUPLICATE, 1);
          status[it.index()] = AckMessage.Status.SKIPPED;
          byte[] own = ownRows.remove(it.index());
          if (own != null) {
            // Lost a race with another put of the same URL: drop the queued row it wrote, unless
            // the winner's has the same key, which then gets the winner's content back.
            if (s.queued() && java.util.Arrays.equals(own, queuedRow(ch, it, s.priority()))) {
              urlWrites.add(FrontierStore.queuedPut(own, s.info(), s.version(), s.dueMs()));
            } else {
              urlWrites.add(new org.apache.hadoop.hbase.client.Delete(own));
            }
          }
          continue;
        }
        long version = ThreadLocalRandom.current().nextLong();
        if (it.priority() != null) {
          byte[] row = queuedRow(ch, it, it.priority());
          urlWrites.add(FrontierStore.queuedPut(row, it.info(), version, it.dueMs()));
        }
        cams.add(
            FrontierStore.statusChange(
                it.knownRow(),
                s == null ? null : s.version(),
                version,
                it.info(),
                it.priority(),
                it.dueMs()));
        camItems.add(it);
        camRead.add(s);
      }
      store.writeUrls(urlWrites);
      List<Boolean> ok = store.checkStatuses(cams);
      List<Row> cleanup = new ArrayList<>();
      List<Item> retry = new ArrayList<>(later);
      for (int i = 0; i < camItems.size(); i++) {
        Item it = camItems.get(i);
        FrontierStore.Status before = camRead.get(i);
        if (!ok.get(i)) {
          if (it.priority() != null) {
            ownRows.put(it.index(), queuedRow(ch, it, it.priority()));
          }
          retry.add(it);
          continue;
        }
        ownRows.remove(it.index());
        status[it.index()] = AckMessage.Status.OK;
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
        if (before != null
            && before.queued()
            && (it.priority() == null || before.priority().longValue() != it.priority())) {
          cleanup.add(
              new org.apache.hadoop.hbase.client.Delete(queuedRow(ch, it, before.priority())));
        }
        if (it.priority() != null) {
          earliest.merge(host, it.dueMs(), Math::min);
        }
      }
      store.writeUrls(cleanup);
      pending = retry;
    }
    for (Item it : pending) {
      status[it.index()] = AckMessage.Status.FAIL;
    }
  }

  private static byte[] queuedRow(Channel ch, Item it, long priority) {
    return FrontierKeys.URL.encode(ch.id(), it.hostId(), priority, it.urlId());
  }

  /** Queued and completed deltas of a URL going from {@code before} to queued or done. */
  private static void transition(Counts c, FrontierStore.Status before, boolean queuedAfter) {
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
  private void schedule(Channel ch, Map<HostKey, Long> earliest, Map<HostKey, String> keys) {
    List<byte[]> hostIds = new ArrayList<>();
    List<String> hostKeys = new ArrayList<>();
    List<Long> dues = new ArrayList<>();
    earliest.forEach(
        (h, due) -> {
          hostIds.add(h.bytes());
          hostKeys.add(keys.get(h));
          dues.add(due);
        });
    List<Boolean> moved = store.moveNextEarlier(ch.id(), hostIds, hostKeys, dues);
    List<Row> dueRows = new ArrayList<>();
    Map<HostKey, String> keyOnly = new HashMap<>();
    for (int i = 0; i < moved.size(); i++) {
      HostKey h = new HostKey(hostIds.get(i));
      if (moved.get(i)) {
        dueRows.add(FrontierStore.duePut(ch.id(), dues.get(i), hostIds.get(i)));
        remember(ch, h);
      }
    }
    keys.forEach(
        (h, k) -> {
          if (!hostsWithKey.contains(channelHost(ch, h))) {
            keyOnly.put(h, k);
          }
        });
    store.writeDue(dueRows);
    store.putHostKeys(ch.id(), keyOnly);
    keyOnly.keySet().forEach(h -> remember(ch, h));
  }

  private void remember(Channel ch, HostKey h) {
    if (hostsWithKey.size() > HOST_KEY_CACHE) {
      hostsWithKey.clear();
    }
    hostsWithKey.add(channelHost(ch, h));
  }

  private static HostKey channelHost(Channel ch, HostKey h) {
    return new HostKey(FrontierStore.hostRow(ch.id(), h.bytes()));
  }

  /** Forgets cached host keys (a queue or channel was deleted). */
  void forgetHosts() {
    hostsWithKey.clear();
  }

  /**
   * An emptied host leaves the due index at once (an emptied frontier answers GetURLs without
   * visiting it); if a put refilled it meanwhile, it is scheduled again.
   */
  private void unschedule(Channel ch, HostKey h) {
    Optional<FrontierStore.HostRow> found = store.host(ch.id(), h.bytes());
    if (found.isEmpty() || found.get().next() == null) {
      return;
    }
    FrontierStore.HostRow row = found.get();
    boolean removed =
        store
            .checkHosts(
                List.of(FrontierStore.moveNext(ch.id(), h.bytes(), row.next(), null)),
                "unschedule host")
            .get(0);
    if (!removed) {
      return;
    }
    store.writeDue(List.of(FrontierStore.dueDelete(ch.id(), row.next(), h.bytes())));
    long now = clock.millis();
    boolean refilled =
        store.host(ch.id(), h.bytes()).map(FrontierStore.HostRow::queued).orElse(0L) > 0;
    if (refilled
        && store
            .moveNextEarlier(ch.id(), List.of(h.bytes()), List.of(row.key()), List.of(now))
            .get(0)) {
      store.writeDue(List.of(FrontierStore.duePut(ch.id(), now, h.bytes())));
    }
  }

  private Map<HostKey, Long> writeCounters(
      Channel ch, Map<HostKey, Counts> counts, long failed, int day) {
    List<Increment> incs = new ArrayList<>();
    List<HostKey> order = new ArrayList<>();
    Counts total = new Counts();
    counts.forEach(
        (h, c) -> {
          total.addAll(c);
          if (!c.isEmpty()) {
            order.add(h);
            Increment inc =
                FrontierStore.counters(
                    FrontierStore.hostRow(ch.id(), h.bytes()), day, c.queued, c.completed, c.daily);
            // A host this batch empties leaves the due index: its new queued count is read back.
            inc.setReturnResults(c.queued < 0);
            incs.add(inc);
          }
        });
    total.add(Counts.PUT, failed);
    total.add(Counts.FAILED, failed);
    if (!total.isEmpty()) {
      incs.add(
          FrontierStore.counters(
              FrontierKeys.CHANNEL.encode(ch.id()),
              day,
              total.queued,
              total.completed,
              total.daily));
    }
    Object[] results = store.addCounters(incs);
    Map<HostKey, Long> queuedNow = new HashMap<>();
    for (int i = 0; i < order.size(); i++) {
      Long q = FrontierStore.queuedAfter(results[i]);
      if (q != null && counts.get(order.get(i)).queued < 0) {
        queuedNow.put(order.get(i), q);
      }
    }
    return queuedNow;
  }
}
