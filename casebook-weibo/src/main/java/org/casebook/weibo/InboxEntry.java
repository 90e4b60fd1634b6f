package org.casebook.weibo;

import java.util.Objects;

/** One entry of a timeline: which post of which author. */
record InboxEntry(long postId, String author) {
  InboxEntry {
    Objects.requireNonNull(author, "author is null");
  }
}
