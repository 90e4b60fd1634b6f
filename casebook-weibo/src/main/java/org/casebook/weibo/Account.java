package org.casebook.weibo;

import java.util.Objects;

/**
 * What the users row holds about one account: its counters and its fan-out state.
 *
 * @param followers accounts following it
 * @param following accounts it follows
 * @param posts posts it published
 * @param fanOut how its posts reach followers
 */
record Account(long followers, long following, long posts, FanOut fanOut) {
  /** Stands in for an account known to be read-merged, whose counters are not needed then. */
  static final Account READ_MERGED = new Account(0, 0, 0, FanOut.READ);

  Account {
    Objects.requireNonNull(fanOut, "fanOut is null");
  }
}
