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

  /** The smallest fan-out threshold: an account with one follower fans out on write. */
  public static final int MIN_FANOUT_THRESHOLD = 2;

  /** The most posts a new follow copies. */
  public static final int MAX_BACKFILL_POSTS = 10_000;

  public WeiboConfig {
    if (fanOutThreshold < MIN_FANOUT_THRESHOLD) {
      throw new IllegalArgumentException("fanOutThreshold must be >= " + MIN_FANOUT_THRESHOLD);
    }
    if (backfillPosts < 0 || backfillPosts > MAX_BACKFILL_POSTS) {
      throw new IllegalArgumentException("backfillPosts must be 0.." + MAX_BACKFILL_POSTS);
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
