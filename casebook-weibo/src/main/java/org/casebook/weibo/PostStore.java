package org.casebook.weibo;

import static org.casebook.weibo.WeiboSchema.CONTENT;
import static org.casebook.weibo.WeiboSchema.DELETING;
import static org.casebook.weibo.WeiboSchema.IMAGES;
import static org.casebook.weibo.WeiboSchema.P;
import static org.casebook.weibo.WeiboSchema.TITLE;

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
 * author; the content in {@code p:c}, the title in {@code p:t} and the images in {@code p:g} (both
 * absent when the post has none, as on every row written before they existed).
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
  boolean insertIfAbsent(String uid, long postId, PostBody body) {
    byte[] row = WeiboKeys.post(uid, postId);
    Put put = new Put(row).addColumn(P, CONTENT, body.content().getBytes(StandardCharsets.UTF_8));
    if (body.title() != null) {
      put.addColumn(P, TITLE, body.title().getBytes(StandardCharsets.UTF_8));
    }
    if (!body.images().isEmpty()) {
      put.addColumn(P, IMAGES, PostCodec.images(body.images()));
    }
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

  /** Post {@code postId} of {@code uid}, or null when there is none (or it is being deleted). */
  Post post(String uid, long postId) {
    try (Table t = connection.getTable(table)) {
      Result r =
          t.get(
              new Get(WeiboKeys.post(uid, postId))
                  .addColumn(P, CONTENT)
                  .addColumn(P, TITLE)
                  .addColumn(P, IMAGES));
      PostBody body = bodyOf(r);
      return body == null ? null : Post.of(postId, uid, body);
    } catch (IOException e) {
      throw StorageException.of("read post", e);
    }
  }

  /**
   * The first step of a delete: content, title and images go and a tombstone marks the row, in one
   * row mutation under the check that the content is still {@code content}. Every read asks for the
   * content, so the post disappears from the author's posts and every timeline at once. Returns
   * whether this call hid it.
   */
  boolean hide(String uid, long postId, byte[] content) {
    byte[] row = WeiboKeys.post(uid, postId);
    try (Table t = connection.getTable(table)) {
      RowMutations m = new RowMutations(row);
      m.add(new Delete(row).addColumns(P, CONTENT).addColumns(P, TITLE).addColumns(P, IMAGES));
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
        WeiboKeys.POST.range(uid).toScan().setLimit(limit).setCaching(Math.min(limit, 1000));
    if (beforeId >= 0) {
      scan.withStartRow(WeiboKeys.post(uid, beforeId), false);
    }
    return scanPosts(uid, withBody(scan));
  }

  /** {@code uid}'s posts with id at least {@code sinceId}, newest first, at most {@code limit}. */
  List<Post> postsSince(String uid, long sinceId, int limit) {
    Scan scan =
        new Scan()
            .withStartRow(WeiboKeys.POST.prefix(uid))
            .withStopRow(WeiboKeys.post(uid, sinceId), true)
            .setCaching(Math.min(Math.max(limit, 1), 1000))
            .setLimit(limit);
    return scanPosts(uid, withBody(scan));
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

  /**
   * The bodies of the posts {@code entries} name, in the same order; null where a post is gone (or
   * hidden by a delete: no content).
   */
  List<PostBody> bodies(List<InboxEntry> entries) {
    List<Get> gets = new ArrayList<>(entries.size());
    for (InboxEntry e : entries) {
      gets.add(
          new Get(WeiboKeys.post(e.author(), e.postId()))
              .addColumn(P, CONTENT)
              .addColumn(P, TITLE)
              .addColumn(P, IMAGES));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<PostBody> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(bodyOf(r));
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
        PostBody body = bodyOf(r);
        if (body != null) {
          out.add(Post.of(WeiboKeys.postIdOf(r.getRow()), uid, body));
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read posts", e);
    }
  }

  /** The columns of a post's body; a row without content (a delete's tombstone) is not returned. */
  private static Scan withBody(Scan scan) {
    return scan.addColumn(P, CONTENT).addColumn(P, TITLE).addColumn(P, IMAGES);
  }

  /** The body of a post row read with its body columns, or null when it has no content. */
  private static PostBody bodyOf(Result r) {
    byte[] content = r.getValue(P, CONTENT);
    if (content == null) {
      return null;
    }
    byte[] title = r.getValue(P, TITLE);
    return new PostBody(
        Bytes.toString(content),
        title == null ? null : Bytes.toString(title),
        PostCodec.imagesOf(r.getValue(P, IMAGES)));
  }
}
