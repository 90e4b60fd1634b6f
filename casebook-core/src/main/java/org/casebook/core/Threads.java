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
}
