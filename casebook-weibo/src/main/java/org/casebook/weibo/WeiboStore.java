package org.casebook.weibo;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.StorageException;

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

  /** Writes {@code mutations} to {@code table} in one batch (nothing when there are none). */
  static void batch(Connection connection, TableName table, List<? extends Mutation> mutations) {
    if (mutations.isEmpty()) {
      return;
    }
    try (Table t = connection.getTable(table)) {
      Object[] results = new Object[mutations.size()];
      t.batch(mutations, results);
    } catch (IOException e) {
      throw StorageException.of("write " + table.getQualifierAsString(), e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("write " + table.getQualifierAsString(), e);
    }
  }
}
