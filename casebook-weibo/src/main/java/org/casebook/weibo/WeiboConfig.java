package org.casebook.weibo;

import org.casebook.core.InvalidInputException;

/**
 * Tuning of the feed. Page sizes follow the platform's one rule ({@link
 * org.casebook.core.page.PageRequest}).
 *
 * @param fanOutThreshold followers at which an account switches from fan-out on write to merge on
 *     read (hybrid fan-out)
 * @param backfillPosts how many of the followee's latest posts a new follow copies to the inbox
 */
public record WeiboConfig(int fanOutThreshold, int backfillPosts) {
  /** Inbox entries expire after this long; the horizon of back-fill and unfollow clean-up too. */
  public static final int INBOX_TTL_DAYS = 30;

  public WeiboConfig {
    if (fanOutThreshold < 2) {
      throw new IllegalArgumentException("fanOutThreshold must be >= 2");
    }
    if (backfillPosts < 0 || backfillPosts > 10_000) {
      throw new IllegalArgumentException("backfillPosts must be 0..10000");
    }
  }

  public static WeiboConfig defaults() {
    return new WeiboConfig(10_000, 200);
  }

  /**
   * Defaults overridden by {@code CASEBOOK_WEIBO_FANOUT_THRESHOLD} and {@code
   * CASEBOOK_WEIBO_BACKFILL_POSTS} when set.
   */
  public static WeiboConfig fromEnvironment() {
    WeiboConfig d = defaults();
    return new WeiboConfig(
        intEnv("CASEBOOK_WEIBO_FANOUT_THRESHOLD", d.fanOutThreshold()),
        intEnv("CASEBOOK_WEIBO_BACKFILL_POSTS", d.backfillPosts()));
  }

  private static int intEnv(String name, int fallback) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new InvalidInputException(name, name + " must be an integer, got '" + v + "'");
    }
  }
}
