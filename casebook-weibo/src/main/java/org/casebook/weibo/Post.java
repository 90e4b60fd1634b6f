package org.casebook.weibo;

import java.util.List;
import java.util.Objects;

/**
 * One post. {@code id} is unique per author and orders posts in time; {@code ts} is the publish
 * time in epoch milliseconds; {@code title} is null and {@code images} empty when the post has none
 * (every post written before they existed).
 */
public record Post(
    String id, String uid, long ts, String content, String title, List<PostImage> images) {
  public Post {
    Objects.requireNonNull(id, "id is null");
    Objects.requireNonNull(uid, "uid is null");
    Objects.requireNonNull(content, "content is null");
    images = List.copyOf(Objects.requireNonNull(images, "images is null"));
  }

  /** A post of content only. */
  public Post(String id, String uid, long ts, String content) {
    this(id, uid, ts, content, null, List.of());
  }

  /** The post {@code postId} of {@code uid}: its time is the one the id carries. */
  static Post of(long postId, String uid, PostBody body) {
    return new Post(
        Long.toString(postId),
        uid,
        PostIds.millisOf(postId),
        body.content(),
        body.title(),
        body.images());
  }

  /** What is stored of this post besides its key. */
  PostBody body() {
    return new PostBody(content, title, images);
  }

  /** The id as stored (the REST API shows it as a string). */
  long postId() {
    return Long.parseLong(id);
  }
}
