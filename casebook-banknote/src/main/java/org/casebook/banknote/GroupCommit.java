package org.casebook.banknote;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.casebook.core.Futures;
import org.casebook.core.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for the collector: batches that arrive while a write is in flight are written
 * together, one multi-Put per table, and each is acknowledged when that write returns — the
 * database trick of one log sync for many transactions. Each request still waits for its own notes
 * to be durable; what it shares is the round trips and WAL syncs, which would otherwise be paid
 * once per HTTP request (and serialised by the client's per-server request limit).
 */
final class GroupCommit {
  private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

  /** Most notes written in one group (about 2 MB of Puts). */
  static final int MAX_GROUP = 20_000;

  private record Pending(BanknoteStore.PreparedRows rows, CompletableFuture<Void> done) {}

  private final BanknoteStore store;
  private final ExecutorService sideWork;
  private final Supplier<ScheduledExecutorService> writerFactory;
  private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private ScheduledExecutorService writer;

  GroupCommit(
      BanknoteStore store,
      ExecutorService sideWork,
      Supplier<ScheduledExecutorService> writerFactory) {
    this.store = store;
    this.sideWork = sideWork;
    this.writerFactory = writerFactory;
  }

  /**
   * Writes {@code notes}' rows, with their hits on {@code watch}, and returns once they are
   * durable; returns the hits.
   */
  int write(List<Note> notes, WatchMatcher watch) {
    Pending p = new Pending(store.rows(notes, watch), new CompletableFuture<>());
    ScheduledExecutorService w = writer();
    if (w.isShutdown()) {
      throw new IllegalStateException("the collector is shut down");
    }
    queue.add(p);
    if (w.isShutdown() && queue.remove(p)) {
      throw new IllegalStateException("the collector is shut down");
    }
    Futures.await(p.done());
    return p.rows().hits();
  }

  private synchronized ScheduledExecutorService writer() {
    if (writer == null) {
      writer = writerFactory.get();
      ScheduledExecutorService w = writer;
      w.execute(() -> loop(w));
    }
    return writer;
  }

  /** Until the writer is shut down (at context close): take a group, write it, answer it. */
  private void loop(ScheduledExecutorService self) {
    while (true) {
      Pending first;
      try {
        first = queue.poll(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail(List.copyOf(queue), StorageException.interrupted("group commit", e));
        return;
      }
      if (first == null) {
        if (self.isShutdown()) {
          List<Pending> late = new ArrayList<>();
          queue.drainTo(late);
          fail(late, new IllegalStateException("the collector is shut down"));
          return;
        }
        continue;
      }
      List<Pending> group = new ArrayList<>();
      group.add(first);
      int notes = first.rows().notes();
      while (notes < MAX_GROUP) {
        Pending next = queue.poll();
        if (next == null) {
          break;
        }
        group.add(next);
        notes += next.rows().notes();
      }
      commit(group);
    }
  }

  private void commit(List<Pending> group) {
    try {
      store.put(group.stream().map(Pending::rows).toList(), sideWork);
      group.forEach(p -> p.done().complete(null));
    } catch (RuntimeException e) {
      // Every request of the group is answered with the failure (503: the agents retry).
      LOG.warn("group commit of {} batch(es) failed", group.size(), e);
      fail(group, e);
    }
  }

  private static void fail(List<Pending> group, RuntimeException e) {
    group.forEach(p -> p.done().completeExceptionally(e));
  }
}
