package org.casebook.frontier;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A host's place in the due index as its row stores it: the time it is next due ({@code due}; null:
 * not in the index) and the token of the change that wrote it. Every change draws a new token, so a
 * value once replaced never comes back: a time alone does (two puts in one millisecond), and a
 * check-and-mutate on a time could then succeed on a later value that merely equals the one read.
 * Token 0: a time written before tokens were kept.
 */
record DueStamp(Long due, long token) {
  DueStamp {
    if (due == null && token == 0) {
      throw new IllegalArgumentException("an unscheduled stamp needs a token");
    }
  }

  /** A new stamp: due at {@code due}. */
  static DueStamp at(long due) {
    return new DueStamp(due, newToken());
  }

  /** A new stamp: not in the due index. */
  static DueStamp none() {
    return new DueStamp(null, newToken());
  }

  boolean scheduled() {
    return due != null;
  }

  private static long newToken() {
    long t = 0;
    while (t == 0) {
      t = ThreadLocalRandom.current().nextLong();
    }
    return t;
  }
}
