package org.casebook.weibo;

/**
 * Tuning of the feed: what the settings {@code weibo.fanout-threshold} and {@code
 * weibo.backfill-posts} set when the platform starts it ({@link WeiboSystem}). Page sizes follow
 * the platform's one rule ({@link org.casebook.core.page.PageRequest}).
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

  /** Threshold 10,000 followers, back-fill 200 posts. */
  public static WeiboConfig defaults() {
    return new WeiboConfig(10_000, 200);
  }

  /** This config with another fan-out threshold. */
  public WeiboConfig withFanOutThreshold(int value) {
    return new WeiboConfig(value, backfillPosts);
  }
}
