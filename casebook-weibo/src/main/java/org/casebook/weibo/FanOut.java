package org.casebook.weibo;

/**
 * How an account's posts reach its followers (hybrid fan-out). It only moves forward: WRITE →
 * PROMOTING → READ.
 */
enum FanOut {
  /** Each post is copied into every follower's inbox. */
  WRITE,
  /** Switching over: posts still fan out and also go to the outbox; new followers get a marker. */
  PROMOTING,
  /** Posts go to the account's outbox only and are merged into timelines when read. */
  READ
}
