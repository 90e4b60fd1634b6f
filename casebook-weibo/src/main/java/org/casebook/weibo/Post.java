package org.casebook.weibo;

import java.util.Objects;

/**
 * One post. {@code id} is unique per author and orders posts in time; {@code ts} is the publish
 * time in epoch milliseconds.
 */
public record Post(String id, String uid, long ts, String content) {
  public Post {
    Objects.requireNonNull(id, "id is null");
    Objects.requireNonNull(uid, "uid is null");
    Objects.requireNonNull(content, "content is null");
  }

  /** The post {@code postId} of {@code uid}: its time is the one the id carries. */
  static Post of(long postId, String uid, String content) {
    return new Post(Long.toString(postId), uid, PostIds.millisOf(postId), content);
  }

  /** The id as stored (the REST API shows it as a string). */
  long postId() {
    return Long.parseLong(id);
  }
}
