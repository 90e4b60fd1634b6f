package org.casebook.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named daemon threads, so a thread dump says who owns each thread and none keeps the JVM alive.
 */
public final class Threads {
  private Threads() {}

  /** Threads named {@code name-1}, {@code name-2}, … */
  public static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Stops {@code executor}: no new tasks, running ones get {@code timeout} to finish, then are
   * interrupted. An interrupt while waiting stops them at once and is passed on. True if all ended.
   */
  public static boolean shutdown(
      java.util.concurrent.ExecutorService executor, java.time.Duration timeout) {
    executor.shutdown();
    try {
      if (executor.awaitTermination(
          timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        return true;
      }
      executor.shutdownNow();
      return false;
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
