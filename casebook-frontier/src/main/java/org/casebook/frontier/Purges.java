package org.casebook.frontier;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.WriteGate;

/**
 * URLFrontier 2.6's PurgeURLs: removes the URLs of one queue, or of every queue of a crawl, that
 * were first stored more than {@code days} days ago, queued and done alike, as the reference
 * service does; the queues themselves and their settings stay.
 *
 * <p>A host is purged in batches of at most {@value #BATCH} of its known rows, read by bounded
 * scans in key order. Each batch is written on the host row before anything is deleted ({@link
 * PurgeBatch}): a purge cut short leaves it there, and the next purge of the host (or any later
 * batch) finishes it — its rows deleted if still at the version read, its counters taken off the
 * host and the channel exactly once — before going on. So a purge can be sent again after a crash
 * and ends in the state a purge that never stopped leaves.
 */
final class Purges {
  /** Known rows read, and URLs deleted, per batch: bounds the batch cell on the host row. */
  static final int BATCH = 500;

  private static final int HOST_PAGE = 1000;
  private static final long DAY_MS = 86_400_000L;

  /** Tries to begin a batch on a host another purge keeps busy. */
  private static final int MAX_ROUNDS = 8;

  private final FrontierStore stores;
  private final Channels channels;
  private final Intake intake;
  private final Clock clock;
  private final WriteGate writes;

  Purges(FrontierStore stores, Channels channels, Intake intake, Clock clock, WriteGate writes) {
    this.writes = Objects.requireNonNull(writes, "writes is null");
    this.stores = Objects.requireNonNull(stores, "stores is null");
    this.channels = Objects.requireNonNull(channels, "channels is null");
    this.intake = Objects.requireNonNull(intake, "intake is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /**
   * Removes the URLs of {@code key}'s queue (empty: every queue) of a crawl first stored more than
   * {@code days} days ago (those with no creation date too when {@code undatedToo}, as the
   * reference reads 0 there); answers how many this call removed. An unknown crawl or queue has
   * none.
   */
  long purge(String crawlId, String key, long days, boolean undatedToo) {
    InvalidInputException.check(days >= 0, "days", "must not be negative");
    InvalidInputException.check(days <= Integer.MAX_VALUE, "days", "out of range");
    String crawl = UrlRules.crawlId(crawlId);
    boolean oneQueue = key != null && !key.isEmpty();
    byte[] only = oneQueue ? FrontierKeys.hostId(UrlRules.queueKey(key)) : null;
    Optional<Channel> found = channels.find(crawl);
    if (found.isEmpty()) {
      return 0;
    }
    Channel ch = found.get();
    long cutoffMs = clock.millis() - days * DAY_MS;
    if (oneQueue) {
      return stores.hosts().host(ch.id(), only).isPresent()
          ? purgeHost(ch, only, cutoffMs, undatedToo)
          : 0;
    }
    long removed = 0;
    byte[] after = null;
    while (true) {
      List<HostRow> page = stores.hosts().page(ch.id(), after, HOST_PAGE, h -> true);
      for (HostRow h : page) {
        removed += purgeHost(ch, h.hostId(), cutoffMs, undatedToo);
      }
      if (page.size() < HOST_PAGE) {
        return removed;
      }
      after = page.get(page.size() - 1).hostId();
    }
  }

  /**
   * Whether a URL first stored at {@code createdMs} is older than the cutoff, compared in whole
   * seconds as URLFrontier's creation_date is; a URL without that date (stored before this frontier
   * kept it) is, as in the reference service, where it reads 0.
   */
  static boolean older(long createdMs, long cutoffMs) {
    return Math.floorDiv(createdMs, 1000) * 1000 < cutoffMs;
  }

  // A pass per batch: each leaves the rows and counters as a finished or resumable purge does, so
  // a backup may pause between two.
  private long purgeHost(Channel ch, byte[] hostId, long cutoffMs, boolean undatedToo) {
    long removed;
    try (WriteGate.Pass pass = writes.enter()) {
      removed = finishPending(ch, hostId);
    }
    byte[] after = null;
    while (true) {
      List<KnownStore.Entry> page = stores.known().page(ch.id(), hostId, after, BATCH);
      List<PurgeBatch.Victim> victims = new ArrayList<>();
      for (KnownStore.Entry e : page) {
        UrlStatus s = e.status();
        if (older(s.createdMs(), cutoffMs) && (undatedToo || s.createdMs() > 0)) {
          victims.add(new PurgeBatch.Victim(e.urlId(), s.version(), s.priority(), s.createdMs()));
        }
      }
      if (!victims.isEmpty()) {
        try (WriteGate.Pass pass = writes.enter()) {
          removed += run(ch, hostId, victims);
        }
      }
      if (page.size() < BATCH) {
        break;
      }
      after = page.get(page.size() - 1).urlId();
    }
    try (WriteGate.Pass pass = writes.enter()) {
      unscheduleIfEmpty(ch, hostId);
    }
    return removed;
  }

  /** A host left without queued URLs leaves the due index, as one emptied by a put does. */
  private void unscheduleIfEmpty(Channel ch, byte[] hostId) {
    Optional<HostRow> h = stores.hosts().host(ch.id(), hostId);
    if (h.isPresent() && h.get().queued() <= 0 && h.get().next() != null) {
      intake.unschedule(ch, new HostKey(hostId));
    }
  }

  /** Begins, runs and settles one batch; answers the URLs removed (with any batch it finished). */
  private long run(Channel ch, byte[] hostId, List<PurgeBatch.Victim> victims) {
    long removed = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      removed += finishPending(ch, hostId);
      Begun begun = begin(ch, hostId, victims);
      if (!begun.busy()) {
        return removed + (begun.armed() == null ? 0 : settle(ch, hostId, begun.armed()));
      }
    }
    throw new ConflictException("queue busy with another purge; send PurgeURLs again");
  }

  /**
   * What {@link #begin} did: found another purge's batch on the host, or armed one (null: none).
   */
  record Begun(boolean busy, PurgeBatch armed) {}

  /**
   * Writes a batch of {@code victims} on the host, then arms it with those still at the version
   * read; none is armed when none is left or the host is gone.
   */
  Begun begin(Channel ch, byte[] hostId, List<PurgeBatch.Victim> victims) {
    long id = ThreadLocalRandom.current().nextLong();
    byte[] unarmed = PurgeBatchCodec.encode(new PurgeBatch(id, false, victims));
    if (!stores.hosts().beginPurge(ch.id(), hostId, unarmed)) {
      return new Begun(stores.hosts().host(ch.id(), hostId).isPresent(), null);
    }
    List<UrlStatus> now = stores.known().read(ch.id(), refs(hostId, victims));
    List<PurgeBatch.Victim> present = new ArrayList<>();
    for (int i = 0; i < victims.size(); i++) {
      UrlStatus s = now.get(i);
      if (s != null && s.version() == victims.get(i).version()) {
        present.add(victims.get(i));
      }
    }
    if (present.isEmpty()) {
      stores.hosts().replacePurge(ch.id(), hostId, unarmed, null);
      return new Begun(false, null);
    }
    PurgeBatch batch = new PurgeBatch(id, true, present);
    if (!stores.hosts().replacePurge(ch.id(), hostId, unarmed, PurgeBatchCodec.encode(batch))) {
      // The host went (DeleteQueue) with the batch: nothing of it was deleted here.
      return new Begun(false, null);
    }
    return new Begun(false, batch);
  }

  /** Finishes a batch a purge left on the host (cut short, or running now); answers removals. */
  long finishPending(Channel ch, byte[] hostId) {
    byte[] stored = stores.hosts().purgeBatch(ch.id(), hostId);
    if (stored == null) {
      return 0;
    }
    PurgeBatch batch = PurgeBatchCodec.decode(stored);
    if (!batch.armed()) {
      // Nothing of an unarmed batch was deleted: it only goes.
      stores.hosts().replacePurge(ch.id(), hostId, stored, null);
      return 0;
    }
    return settle(ch, hostId, batch);
  }

  /** Deletes an armed batch's rows (again, if need be) and settles its counters once. */
  long settle(Channel ch, byte[] hostId, PurgeBatch batch) {
    deleteRows(ch, hostId, batch.victims());
    List<UrlStatus> now = stores.known().read(ch.id(), refs(hostId, batch.victims()));
    Counts c = new Counts();
    long removed = 0;
    for (int i = 0; i < now.size(); i++) {
      PurgeBatch.Victim v = batch.victims().get(i);
      UrlStatus s = now.get(i);
      // Gone, or put again (another creation time) after this batch deleted it: removed here. At
      // the same creation time with another version it was rewritten before: still there.
      if (s == null || s.createdMs() != v.createdMs()) {
        removed++;
        if (v.queued()) {
          c.queued(-1);
        } else {
          c.completed--;
        }
      }
    }
    int day = Days.of(clock.millis());
    byte[] stored = PurgeBatchCodec.encode(batch);
    if (!Arrays.equals(stored, stores.hosts().purgeBatch(ch.id(), hostId))) {
      // Settled meanwhile by a purge running alongside (or the queue was deleted).
      return 0;
    }
    // The channel row keeps the host's last settled batch id, so a rerun after a crash between
    // these two writes does not take the batch off the channel's counters twice.
    if (removed > 0) {
      stores.hosts().settlePurgeOnChannel(ch.id(), hostId, batch.id(), day, c);
    }
    if (!stores.hosts().settlePurgeOnHost(ch.id(), hostId, stored, day, c)) {
      return 0;
    }
    if (removed > 0) {
      stores.hosts().clearPurgeSettled(ch.id(), hostId, batch.id());
    }
    return removed;
  }

  /** Deletes the known rows, then the queued rows, of {@code victims} still at their version. */
  void deleteRows(Channel ch, byte[] hostId, List<PurgeBatch.Victim> victims) {
    stores.known().deleteIfAt(ch.id(), hostId, victims);
    stores.queues().dropIfAt(ch.id(), hostId, victims);
  }

  private static List<UrlRef> refs(byte[] hostId, List<PurgeBatch.Victim> victims) {
    List<UrlRef> refs = new ArrayList<>(victims.size());
    for (PurgeBatch.Victim v : victims) {
      refs.add(new UrlRef(Arrays.copyOf(hostId, hostId.length), v.urlId()));
    }
    return refs;
  }
}
