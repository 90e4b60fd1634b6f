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
}
