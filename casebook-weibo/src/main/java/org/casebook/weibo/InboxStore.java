package org.casebook.weibo;

import static org.casebook.weibo.WeiboSchema.I;
import static org.casebook.weibo.WeiboSchema.M;
import static org.casebook.weibo.WeiboSchema.O;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;

/**
 * The rows of {@code weibo:inbox}: one wide row per user holding their feed (family {@code i}, one
 * qualifier {@code MAX-postId | author} per entry, so newest first without a sort), the read-merged
 * accounts they follow (family {@code m}), and, once the user is read-merged, their own recent
 * posts (family {@code o}, the outbox, with content, title and images: {@link PostCodec}).
 */
final class InboxStore {
  /** Inbox entries of one post written per batch when it fans out. */
  private static final int WRITE_CHUNK = 5000;

  private static final byte[] EMPTY = new byte[0];

  private final Connection connection;
  private final TableName table;

  InboxStore(Connection connection, WeiboSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.table = schema.inbox();
  }

  /**
   * Up to {@code limit} inbox entries of {@code owner}, newest first, strictly after {@code after}
   * if given, plus (if {@code withMarkers}) every read-merge marker of that user: two Gets on one
   * row, one multi-get.
   */
  InboxSlice slice(String owner, InboxEntry after, int limit, boolean withMarkers) {
    byte[] row = WeiboKeys.user(owner);
    ColumnPaginationFilter page =
        after == null
            ? new ColumnPaginationFilter(limit, 0)
            : new ColumnPaginationFilter(
                limit, KeyRange.successorOf(WeiboKeys.inboxEntry(after.postId(), after.author())));
    List<Get> gets = new ArrayList<>(2);
    gets.add(new Get(row).addFamily(I).setFilter(page));
    if (withMarkers) {
      gets.add(new Get(row).addFamily(M));
    }
    try (Table t = connection.getTable(table)) {
      Result[] r = t.get(gets);
      List<InboxCell> entries = new ArrayList<>();
      for (Cell c : r[0].rawCells()) {
        entries.add(
            new InboxCell(WeiboKeys.inboxEntryOf(CellUtil.cloneQualifier(c)), c.getTimestamp()));
      }
      List<MarkerCell> merged = new ArrayList<>();
      if (withMarkers) {
        for (Cell c : r[1].rawCells()) {
          merged.add(
              new MarkerCell(WeiboKeys.markerOf(CellUtil.cloneQualifier(c)), c.getTimestamp()));
        }
      }
      return new InboxSlice(entries, merged);
    } catch (IOException e) {
      throw StorageException.of("read inbox", e);
    }
  }

  /**
   * Deletes exactly these cells of {@code owner}'s inbox row (entries and markers of accounts no
   * longer followed): each Delete names the cell's timestamp, so it can never hide a cell written
   * later with another timestamp.
   */
  void deleteExactly(String owner, List<InboxCell> entries, List<MarkerCell> markers) {
    if (entries.isEmpty() && markers.isEmpty()) {
      return;
    }
    Delete d = new Delete(WeiboKeys.user(owner));
    for (InboxCell c : entries) {
      d.addColumn(I, WeiboKeys.inboxEntry(c.entry().postId(), c.entry().author()), c.ts());
    }
    for (MarkerCell c : markers) {
      d.addColumn(M, WeiboKeys.marker(c.followee()), c.ts());
    }
    batch(List.of(d));
  }

  /**
   * Recent posts of read-merged accounts from their outboxes, newest first, up to {@code limit}
   * each, in one multi-get: from each account's newest post, or (given the timeline position {@code
   * after}) from the first post that comes after it in timeline order.
   */
  List<List<Post>> outboxes(List<String> accounts, InboxEntry after, int limit) {
    List<Get> gets = new ArrayList<>(accounts.size());
    for (String account : accounts) {
      byte[] start = outboxStart(account, after);
      gets.add(
          new Get(WeiboKeys.user(account))
              .addFamily(O)
              .setFilter(
                  start == null
                      ? new ColumnPaginationFilter(limit, 0)
                      : new ColumnPaginationFilter(limit, start)));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<List<Post>> out = new ArrayList<>(results.length);
      for (int i = 0; i < results.length; i++) {
        List<Post> posts = new ArrayList<>();
        for (Cell c : results[i].rawCells()) {
          posts.add(
              Post.of(
                  WeiboKeys.outboxPostIdOf(CellUtil.cloneQualifier(c)),
                  accounts.get(i),
                  PostCodec.outboxBodyOf(CellUtil.cloneValue(c))));
        }
        out.add(posts);
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read outboxes", e);
    }
  }

  /**
   * The first outbox qualifier of {@code account} after the timeline position {@code after}
   * (inclusive), or null to start at its newest post.
   */
  private static byte[] outboxStart(String account, InboxEntry after) {
    if (after == null) {
      return null;
    }
    // Timelines order entries by post id descending, then author as the inbox qualifier orders it:
    // a post with the cursor's id comes after the cursor only if its author sorts after the
    // cursor's.
    byte[] q = WeiboKeys.outboxEntry(after.postId());
    boolean inclusive =
        Bytes.compareTo(WeiboKeys.authorOrder(account), WeiboKeys.authorOrder(after.author())) > 0;
    return inclusive ? q : KeyRange.successorOf(q);
  }

  /** Adds one post of {@code author} to every inbox in {@code owners}. */
  void addToInboxes(List<String> owners, String author, long postId) {
    byte[] q = WeiboKeys.inboxEntry(postId, author);
    List<Mutation> puts = new ArrayList<>(Math.min(owners.size(), WRITE_CHUNK));
    for (String owner : owners) {
      puts.add(new Put(WeiboKeys.user(owner)).addColumn(I, q, EMPTY));
      if (puts.size() == WRITE_CHUNK) {
        batch(puts);
        puts.clear();
      }
    }
    batch(puts);
  }

  /** Adds posts of one author to one inbox: one row mutation. */
  void addToInbox(String owner, String author, List<Long> postIds) {
    if (postIds.isEmpty()) {
      return;
    }
    Put p = new Put(WeiboKeys.user(owner));
    postIds.forEach(id -> p.addColumn(I, WeiboKeys.inboxEntry(id, author), EMPTY));
    batch(List.of(p));
  }

  /**
   * Marks that each of {@code owners} follows the read-merged account {@code followee}. Markers are
   * never deleted here: readers check the follow itself.
   */
  void addMarkers(List<String> owners, String followee, long now) {
    byte[] q = WeiboKeys.marker(followee);
    List<Mutation> ms = new ArrayList<>(owners.size());
    for (String owner : owners) {
      ms.add(new Put(WeiboKeys.user(owner)).addColumn(M, q, Bytes.toBytes(now)));
    }
    batch(ms);
  }

  /**
   * Removes one post of {@code author} from every inbox in {@code owners} (a post's delete;
   * deleting a cell that is not there changes nothing, so a rerun is harmless).
   */
  void removeFromInboxes(List<String> owners, String author, long postId) {
    byte[] q = WeiboKeys.inboxEntry(postId, author);
    List<Mutation> deletes = new ArrayList<>(Math.min(owners.size(), WRITE_CHUNK));
    for (String owner : owners) {
      deletes.add(new Delete(WeiboKeys.user(owner)).addColumns(I, q));
      if (deletes.size() == WRITE_CHUNK) {
        batch(deletes);
        deletes.clear();
      }
    }
    batch(deletes);
  }

  /** Removes one post from an account's outbox. */
  void removeFromOutbox(String account, long postId) {
    batch(
        List.of(new Delete(WeiboKeys.user(account)).addColumns(O, WeiboKeys.outboxEntry(postId))));
  }

  /**
   * Adds posts to an account's outbox (family o of its own inbox row), each with its whole body: a
   * timeline then merges read-merged accounts from these cells alone, without a read of their post
   * rows.
   */
  void addToOutbox(String account, List<Post> posts) {
    if (posts.isEmpty()) {
      return;
    }
    Put p = new Put(WeiboKeys.user(account));
    for (Post post : posts) {
      p.addColumn(O, WeiboKeys.outboxEntry(post.postId()), PostCodec.outboxValue(post.body()));
    }
    batch(List.of(p));
  }

  private void batch(List<? extends Mutation> mutations) {
    WeiboStore.batch(connection, table, mutations);
  }
}
