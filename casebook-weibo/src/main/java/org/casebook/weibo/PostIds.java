package org.casebook.weibo;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Post ids: {@code millis << 20 | n}. They sort by publish time, are strictly increasing within a
 * process, and start each millisecond at a random offset so that two servers rarely pick the same
 * id for one author; a collision is caught by the conditional write anyway. 43 bits of milliseconds
 * last until the year 2248.
 */
final class PostIds {
  static final int SEQUENCE_BITS = 20;
  private final AtomicLong last = new AtomicLong();
  private final java.util.function.IntSupplier offset;

  PostIds() {
    this(() -> ThreadLocalRandom.current().nextInt(1 << 10));
  }

  /** With a chosen start offset per millisecond (tests force collisions with a constant). */
  PostIds(java.util.function.IntSupplier offset) {
    this.offset = offset;
  }

  long next(long nowMillis) {
    long candidate = (nowMillis << SEQUENCE_BITS) | offset.getAsInt();
    return last.accumulateAndGet(candidate, (prev, c) -> Math.max(prev + 1, c));
  }

  static long millisOf(long postId) {
    return postId >>> SEQUENCE_BITS;
  }

  /** The smallest id of posts published at or after {@code millis}. */
  static long firstIdAt(long millis) {
    return millis << SEQUENCE_BITS;
  }

  /**
   * The smallest id still inside the inbox TTL: the horizon of back-fill, unfollow clean-up and
   * promotion.
   */
  static long inboxHorizonId(long nowMillis) {
    return firstIdAt(Math.max(0, nowMillis - WeiboConfig.INBOX_TTL_DAYS * 86_400_000L));
  }
}
