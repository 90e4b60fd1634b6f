package org.casebook.weibo;

import java.util.Objects;

/** One edge of the social graph: {@code follower} follows {@code followee}. */
public record Follow(String follower, String followee) {
  public Follow {
    Objects.requireNonNull(follower, "follower is null");
    Objects.requireNonNull(followee, "followee is null");
  }
}
