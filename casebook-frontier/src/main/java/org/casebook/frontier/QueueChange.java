package org.casebook.frontier;

/** A write to a host's queue of URLs: {@link QueueStore#apply} runs a batch of them. */
sealed interface QueueChange {
  /** The queued row of a URL: stored URL, the version of its known row and its due time. */
  record Enqueue(byte[] hostId, long priority, byte[] urlId, byte[] info, long version, long dueMs)
      implements QueueChange {}

  /**
   * The queued row goes (the URL was done, moved or lost a race) if it still holds {@code version}:
   * a put since may have written the same row for a newer version.
   */
  record Drop(byte[] hostId, long priority, byte[] urlId, long version) implements QueueChange {}
}
