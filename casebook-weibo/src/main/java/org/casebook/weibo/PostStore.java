package org.casebook.weibo;

import static org.casebook.weibo.WeiboSchema.CONTENT;
import static org.casebook.weibo.WeiboSchema.DELETING;
import static org.casebook.weibo.WeiboSchema.P;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * The rows of {@code weibo:posts}: one per post, {@code uid | MAX-postId}, newest first within an
 * author; the content in {@code p:c}.
 */
final class PostStore {
  private final Connection connection;
  private final TableName table;

  PostStore(Connection connection, WeiboSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.table = schema.posts();
  }

  /**
   * Writes the post unless a post with that id exists for that author (a conditional put, so an id
   * collision between two servers is refused, never an overwrite). Returns whether it was written.
   */
  boolean insertIfAbsent(String uid, long postId, String content) {
    byte[] row = WeiboKeys.post(uid, postId);
    Put put = new Put(row).addColumn(P, CONTENT, content.getBytes(StandardCharsets.UTF_8));
    try (Table t = connection.getTable(table)) {
      return t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(P, CONTENT).build(put))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write post", e);
    }
  }

  /** What is stored of one post: its content, a hidden post's tombstone, or nothing. */
  enum Stored {
    VISIBLE,
    HIDDEN,
    ABSENT
  }

  /** The state of post {@code postId} of {@code uid}, with its content when visible. */
  Stored state(String uid, long postId, byte[][] content) {
    try (Table t = connection.getTable(table)) {
      Result r = t.get(new Get(WeiboKeys.post(uid, postId)).addFamily(P));
      byte[] c = r.getValue(P, CONTENT);
      if (c != null) {
        content[0] = c;
        return Stored.VISIBLE;
      }
      return r.containsColumn(P, DELETING) ? Stored.HIDDEN : Stored.ABSENT;
    } catch (IOException e) {
      throw StorageException.of("read post", e);
    }
  }

  /**
   * The first step of a delete: the content goes and a tombstone marks the row, in one row mutation
   * under the check that the content is still {@code content}. Every read asks for the content, so
   * the post disappears from the author's posts and every timeline at once. Returns whether this
   * call hid it.
   */
  boolean hide(String uid, long postId, byte[] content) {
    byte[] row = WeiboKeys.post(uid, postId);
    try (Table t = connection.getTable(table)) {
      RowMutations m = new RowMutations(row);
      m.add(new Delete(row).addColumns(P, CONTENT));
      m.add(new Put(row).addColumn(P, DELETING, new byte[0]));
      return t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(P, CONTENT, content).build(m))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("hide post", e);
    }
  }

  /** The last step of a delete: the row, tombstone and all. */
  void deleteRow(String uid, long postId) {
    try (Table t = connection.getTable(table)) {
      t.delete(new Delete(WeiboKeys.post(uid, postId)));
    } catch (IOException e) {
      throw StorageException.of("delete post", e);
    }
  }

  /**
   * Up to {@code limit} posts of {@code uid} with ids below {@code beforeId} (or from the newest if
   * it is negative), newest first.
   */
  List<Post> postsBefore(String uid, long beforeId, int limit) {
    Scan scan =
        WeiboKeys.POST
            .range(uid)
            .toScan()
            .addColumn(P, CONTENT)
            .setLimit(limit)
            .setCaching(Math.min(limit, 1000));
    if (beforeId >= 0) {
      scan.withStartRow(WeiboKeys.post(uid, beforeId), false);
    }
    return scanPosts(uid, scan);
  }

  /** {@code uid}'s posts with id at least {@code sinceId}, newest first, at most {@code limit}. */
  List<Post> postsSince(String uid, long sinceId, int limit) {
    Scan scan =
        new Scan()
            .withStartRow(WeiboKeys.POST.prefix(uid))
            .withStopRow(WeiboKeys.post(uid, sinceId), true)
            .addColumn(P, CONTENT)
            .setCaching(Math.min(Math.max(limit, 1), 1000))
            .setLimit(limit);
    return scanPosts(uid, scan);
  }

  /**
   * Ids of {@code uid}'s posts with id at least {@code sinceId}, newest first, at most {@code
   * limit}: the keys only.
   */
  List<Long> postIdsSince(String uid, long sinceId, int limit) {
    // Newest first: the range ends at the row of the oldest id we still want.
    Scan scan =
        new Scan()
            .withStartRow(WeiboKeys.POST.prefix(uid))
            .withStopRow(WeiboKeys.post(uid, sinceId), true)
            .setFilter(new KeyOnlyFilter())
            .setCaching(Math.min(Math.max(limit, 1), 1000))
            .setLimit(limit);
    List<Long> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(WeiboKeys.postIdOf(r.getRow()));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read post ids", e);
    }
  }

  /** The bodies of the posts {@code entries} name, in the same order; null where a post is gone. */
  List<String> contents(List<InboxEntry> entries) {
    List<Get> gets = new ArrayList<>(entries.size());
    for (InboxEntry e : entries) {
      gets.add(new Get(WeiboKeys.post(e.author(), e.postId())).addColumn(P, CONTENT));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<String> out = new ArrayList<>(results.length);
      for (Result r : results) {
        byte[] v = r.getValue(P, CONTENT);
        out.add(v == null ? null : Bytes.toString(v));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read post bodies", e);
    }
  }

  private List<Post> scanPosts(String uid, Scan scan) {
    List<Post> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(
            Post.of(WeiboKeys.postIdOf(r.getRow()), uid, Bytes.toString(r.getValue(P, CONTENT))));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read posts", e);
    }
  }
}
