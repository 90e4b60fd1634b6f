package org.casebook.banknote;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch list as the collector checks it: loaded from HBase on first use into a {@link
 * WatchMatcher}, replaced at once when this node changes the list, and reloaded every {@link
 * #RELOAD_SECONDS} so that changes made on another node apply here within that time.
 */
final class WatchList {
  private static final Logger LOG = LoggerFactory.getLogger(WatchList.class);

  /** Most entries the list holds: its one scan and its matcher stay bounded. */
  static final int MAX_ENTRIES = 100_000;

  static final long RELOAD_SECONDS = 30;

  private final WatchStore store;
  private final Supplier<ScheduledExecutorService> background;
  private final int max;
  private volatile WatchMatcher current;
  private boolean scheduled;

  WatchList(WatchStore store, Supplier<ScheduledExecutorService> background, int max) {
    this.store = store;
    this.background = background;
    this.max = max;
  }

  /** The matcher of the list as last loaded (loading it on first use). */
  WatchMatcher current() {
    WatchMatcher m = current;
    return m != null ? m : first();
  }

  private synchronized WatchMatcher first() {
    if (current == null) {
      reload();
    }
    return current;
  }

  /** Adds (or replaces: same pattern and denomination) an entry; effective here at once. */
  synchronized WatchEntry add(WatchEntry e) {
    List<WatchEntry> all = store.entries(max);
    if (all.size() >= max && all.stream().noneMatch(x -> x.id().equals(e.id()))) {
      throw new InvalidInputException(
          "pattern", "the watch list is full (" + max + " entries); remove entries first");
    }
    store.put(e);
    // The list just read, with the entry in place: no second scan.
    List<WatchEntry> now = new ArrayList<>(all.size() + 1);
    boolean replaced = false;
    for (WatchEntry x : all) {
      boolean same = x.id().equals(e.id());
      now.add(same ? e : x);
      replaced |= same;
    }
    if (!replaced) {
      now.add(e);
    }
    install(now);
    return e;
  }

  /** Removes entry {@code id}; effective here at once. */
  synchronized void remove(String id) {
    if (!store.delete(id)) {
      throw new NotFoundException("no watch-list entry " + id);
    }
    reload();
  }

  synchronized void reload() {
    install(store.entries(max));
  }

  private void install(List<WatchEntry> entries) {
    current = new WatchMatcher(entries);
    if (!scheduled) {
      scheduled = true;
      background
          .get()
          .scheduleWithFixedDelay(
              this::reloadQuietly, RELOAD_SECONDS, RELOAD_SECONDS, TimeUnit.SECONDS);
    }
  }

  private void reloadQuietly() {
    try {
      reload();
    } catch (RuntimeException e) {
      // The last list stays in force; the next period tries again.
      LOG.warn("reloading the watch list failed", e);
    }
  }
}
