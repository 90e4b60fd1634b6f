package org.casebook.weibo;

import java.util.Objects;
import org.apache.hadoop.hbase.client.Connection;

/**
 * Every HBase read and write of the feed, one store per table, each owning its rows: keys through
 * the layouts of {@link WeiboKeys}, storage errors as {@link org.casebook.core.StorageException}s.
 *
 * @param posts {@code weibo:posts}: the posts
 * @param inbox {@code weibo:inbox}: feeds, read-merge markers and outboxes
 * @param relations {@code weibo:relations}: the follow graph and its pending changes
 * @param users {@code weibo:users}: counters and fan-out states
 */
record WeiboStore(PostStore posts, InboxStore inbox, RelationStore relations, UserStore users) {
  WeiboStore {
    Objects.requireNonNull(posts, "posts is null");
    Objects.requireNonNull(inbox, "inbox is null");
    Objects.requireNonNull(relations, "relations is null");
    Objects.requireNonNull(users, "users is null");
  }

  /** The feed's tables in {@code schema}'s namespace on the process's shared connection. */
  static WeiboStore open(Connection connection, WeiboSchema schema) {
    return new WeiboStore(
        new PostStore(connection, schema),
        new InboxStore(connection, schema),
        new RelationStore(connection, schema),
        new UserStore(connection, schema));
  }
}
