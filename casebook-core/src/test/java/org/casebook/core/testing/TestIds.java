package org.casebook.core.testing;

import java.util.concurrent.atomic.AtomicLong;

/** Unique ids per test, so tests sharing one HBase never see each other's rows. */
public final class TestIds {
  private static final AtomicLong NEXT = new AtomicLong(System.nanoTime() % 1_000_000);

  private TestIds() {}

  public static String unique(String prefix) {
    return prefix + "-" + Long.toString(NEXT.incrementAndGet(), 36);
  }
}
