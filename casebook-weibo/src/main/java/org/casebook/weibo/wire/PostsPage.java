package org.casebook.weibo.wire;

import java.util.List;
import org.casebook.core.page.Page;
import org.casebook.weibo.Post;

/** A page of posts as the REST API and the CLI print it: {@code {"posts":[…],"next":"…"|null}}. */
public record PostsPage(List<Post> posts, String next) {
  public PostsPage {
    posts = List.copyOf(posts);
  }

  public static PostsPage of(Page<Post> page) {
    return new PostsPage(page.items(), page.nextOrNull());
  }
}
