package org.casebook.frontier;

/** A write to a host's queue of URLs: {@link QueueStore#apply} runs a batch of them. */
sealed interface QueueChange {
  /** The queued row of a URL: stored URL, the version of its known row and its due time. */
  record Enqueue(byte[] hostId, long priority, byte[] urlId, byte[] info, long version, long dueMs)
      implements QueueChange {}

  /** The queued row goes (the URL was done, moved or lost a race). */
  record Drop(byte[] hostId, long priority, byte[] urlId) implements QueueChange {}
}
