package org.casebook.frontier;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;

/**
 * One queue's settings and its removal: URLFrontier's BlockQueueUntil, SetDelay, SetCrawlLimit and
 * DeleteQueue, and a host's delay for people. A queue whose settings loosened is due at once.
 */
final class Queues {
  private final FrontierStore stores;
  private final Channels channels;
  private final Schedule schedule;
  private final Intake intake;
  private final Clock clock;

  Queues(FrontierStore stores, Channels channels, Schedule schedule, Intake intake, Clock clock) {
    this.stores = Objects.requireNonNull(stores, "stores is null");
    this.channels = Objects.requireNonNull(channels, "channels is null");
    this.schedule = Objects.requireNonNull(schedule, "schedule is null");
    this.intake = Objects.requireNonNull(intake, "intake is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /** A queue named by a caller: its channel, id, key (as stored, else as given) and row if any. */
  private record HostCtx(Channel ch, byte[] hostId, String key, HostRow row) {}

  private Optional<HostCtx> withHost(String crawlId, String key, boolean create) {
    String crawl = UrlRules.crawlId(crawlId);
    InvalidInputException.check(key != null && !key.isEmpty(), "key", "a queue key is required");
    String k = UrlRules.queueKey(key);
    byte[] hostId = FrontierKeys.hostId(k);
    Optional<Channel> ch =
        create ? Optional.of(channels.findOrCreate(crawl)) : channels.find(crawl);
    if (ch.isEmpty()) {
      return Optional.empty();
    }
    Optional<HostRow> row = stores.hosts().host(ch.get().id(), hostId);
    if (row.isEmpty() && !create) {
      return Optional.empty();
    }
    return Optional.of(
        new HostCtx(ch.get(), hostId, row.map(HostRow::key).orElse(k), row.orElse(null)));
  }

  private void set(HostCtx hc, Map<HostSetting, Long> values, Set<HostSetting> cleared) {
    stores.hosts().setSettings(hc.ch().id(), hc.hostId(), hc.key(), values, cleared);
  }

  /**
   * A queue whose settings loosened is due now if it holds URLs (a later due time may be stale).
   */
  private void wake(HostCtx hc) {
    if (hc.row() == null || hc.row().queued() <= 0) {
      return;
    }
    schedule.bringForward(
        hc.ch(), List.of(hc.hostId()), List.of(hc.key()), List.of(clock.millis()));
  }

  void blockUntil(String crawlId, String key, long epochSeconds) {
    InvalidInputException.check(
        epochSeconds >= 0 && epochSeconds <= Long.MAX_VALUE / 1000, "time", "out of range");
    withHost(crawlId, key, false)
        .ifPresent(
            hc -> {
              if (epochSeconds == 0) {
                set(hc, Map.of(), Set.of(HostSetting.BLOCKED_UNTIL));
                wake(hc);
              } else {
                set(hc, Map.of(HostSetting.BLOCKED_UNTIL, epochSeconds * 1000), Set.of());
              }
            });
  }

  /** A queue's own delay, or (empty key) the channel's default; the crawl is made if missing. */
  void setDelayMillis(String crawlId, String key, long millis) {
    if (key == null || key.isEmpty()) {
      Channel ch = channels.findOrCreate(UrlRules.crawlId(crawlId));
      stores.channels().setDelay(ch, millis);
      channels.forget(ch.crawlId());
      return;
    }
    HostCtx hc = withHost(crawlId, key, true).orElseThrow();
    set(hc, Map.of(HostSetting.DELAY, millis), Set.of());
    wake(hc);
  }

  /** Removes a queue's own delay: the channel's applies again. */
  void clearDelay(String crawlId, String key) {
    HostCtx hc =
        withHost(crawlId, key, false).orElseThrow(() -> new NotFoundException("no queue " + key));
    set(hc, Map.of(), Set.of(HostSetting.DELAY));
    wake(hc);
  }

  void setCrawlLimit(String crawlId, String key, long limit) {
    InvalidInputException.check(limit >= 0 && limit <= Integer.MAX_VALUE, "limit", "out of range");
    InvalidInputException.check(key != null && !key.isEmpty(), "key", "a queue key is required");
    HostCtx hc =
        withHost(crawlId, key, false)
            .orElseThrow(() -> new NotFoundException("no queue " + key + " in crawl " + crawlId));
    if (limit == 0) {
      set(hc, Map.of(), Set.of(HostSetting.CRAWL_LIMIT));
    } else {
      set(hc, Map.of(HostSetting.CRAWL_LIMIT, limit), Set.of());
    }
    wake(hc);
  }

  /** Deletes every URL of the queue, queued and known, and the queue; answers how many URLs. */
  long delete(String crawlId, String key) {
    String crawl = UrlRules.crawlId(crawlId);
    InvalidInputException.check(key != null && !key.isEmpty(), "key", "a queue key is required");
    byte[] hostId = FrontierKeys.hostId(UrlRules.queueKey(key));
    Optional<Channel> found = channels.find(crawl);
    if (found.isEmpty()) {
      return 0;
    }
    Channel ch = found.get();
    Optional<HostRow> h = stores.hosts().host(ch.id(), hostId);
    if (h.isEmpty()) {
      return 0;
    }
    stores.queues().deleteHost(ch.id(), hostId);
    UrlCounts deleted = stores.known().deleteHost(ch.id(), hostId);
    if (h.get().next() != null) {
      stores.due().delete(ch.id(), List.of(DueHost.of(h.get().stamp(), hostId, null)));
    }
    stores.hosts().delete(ch.id(), hostId);
    intake.forgetHosts();
    Counts c = new Counts();
    c.queued(-deleted.queued());
    c.completed -= deleted.completed();
    stores.hosts().count(ch.id(), Days.of(clock.millis()), Map.of(), c);
    return deleted.total();
  }
}
