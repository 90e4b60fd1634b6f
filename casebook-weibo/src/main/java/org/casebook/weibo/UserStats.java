package org.casebook.weibo;

import java.util.Objects;

/**
 * Counters of one user and how their posts reach followers: {@code fanOutOnRead} is true once the
 * account has crossed the follower threshold and its posts are merged in at read time.
 */
public record UserStats(
    String uid, long followers, long following, long posts, boolean fanOutOnRead) {
  public UserStats {
    Objects.requireNonNull(uid, "uid is null");
  }
}
