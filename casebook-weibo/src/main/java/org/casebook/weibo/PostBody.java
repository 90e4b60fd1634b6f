package org.casebook.weibo;

import java.util.List;
import java.util.Objects;

/** What a post row holds: content, the optional title (null when none) and images. */
record PostBody(String content, String title, List<PostImage> images) {
  PostBody {
    Objects.requireNonNull(content, "content is null");
    images = List.copyOf(Objects.requireNonNull(images, "images is null"));
  }

  static PostBody of(String content) {
    return new PostBody(content, null, List.of());
  }

  /** Whether there is more than the content (a title or an image). */
  boolean hasMedia() {
    return title != null || !images.isEmpty();
  }
}
