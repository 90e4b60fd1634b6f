package org.casebook.weibo;

import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.ZSTD;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The feed's tables in one namespace ({@code weibo} unless the setting {@code weibo.namespace} or a
 * benchmark picks its own). Every table leads with the user id, so writes spread by user. None is
 * pre-split: where uids fall is not known when the tables are made, so they grow by HBase's own
 * splits (at cluster scale, create them split at uid quantiles: docs/SCALING.md).
 *
 * <p>Compression: Snappy where a timeline is read (posts, inbox, users), ZSTD on the follow graph
 * (terabytes at the seed's scale, read by fan-out, not by a waiting user: 7.7× less disk than
 * none); figures in docs/SCALING.md.
 */
record WeiboSchema(
    String namespace, TableName posts, TableName inbox, TableName relations, TableName users) {
  static final String DEFAULT_NAMESPACE = "weibo";

  static final byte[] P = Bytes.toBytes("p");
  static final byte[] I = Bytes.toBytes("i");
  static final byte[] M = Bytes.toBytes("m");
  static final byte[] O = Bytes.toBytes("o");
  static final byte[] R = Bytes.toBytes("r");

  /**
   * relations family of transitions whose effects are not finished yet: its own family, so that the
   * repair scan reads only these few cells, not every edge.
   */
  static final byte[] PENDING = Bytes.toBytes("p");

  static final byte[] U = Bytes.toBytes("u");

  /** posts:p:c content (UTF-8). */
  static final byte[] CONTENT = Bytes.toBytes("c");

  /** posts:p:t title (UTF-8), absent when the post has none. */
  static final byte[] TITLE = Bytes.toBytes("t");

  /** posts:p:g images by reference ({@link PostCodec}), absent when the post has none. */
  static final byte[] IMAGES = Bytes.toBytes("g");

  /** posts:p:d a post being deleted (its content already gone). */
  static final byte[] DELETING = Bytes.toBytes("d");

  /** relations:r:t follow time (epoch millis). */
  static final byte[] SINCE = Bytes.toBytes("t");

  /** relations:r:s the relation state: 1 following, 0 not (absent on rows of earlier versions). */
  static final byte[] FOLLOWS = Bytes.toBytes("s");

  /** relations:r:v version of the relation state (following rows only; 8-byte long). */
  static final byte[] VERSION = Bytes.toBytes("v");

  /** users:u counters (8-byte longs, updated with Increment) and the fan-out state byte. */
  static final byte[] FOLLOWERS = Bytes.toBytes("followers");

  static final byte[] FOLLOWING = Bytes.toBytes("following");
  static final byte[] POST_COUNT = Bytes.toBytes("posts");
  static final byte[] STATE = Bytes.toBytes("state");

  static WeiboSchema in(String namespace) {
    return new WeiboSchema(
        namespace,
        TableName.valueOf(namespace, "posts"),
        TableName.valueOf(namespace, "inbox"),
        TableName.valueOf(namespace, "relations"),
        TableName.valueOf(namespace, "users"));
  }

  List<TableSpec> tables() {
    return List.of(
        new TableSpec(
            posts,
            List.of(FamilySpec.of("p").withCompression(SNAPPY)),
            SplitPoints.none(),
            WeiboKeys.POST.shape()),
        new TableSpec(
            inbox,
            List.of(
                FamilySpec.of("i")
                    .withCompression(SNAPPY)
                    .withTtlSeconds(WeiboConfig.INBOX_TTL_DAYS * 86_400),
                FamilySpec.of("m").withCompression(SNAPPY),
                FamilySpec.of("o")
                    .withCompression(SNAPPY)
                    .withTtlSeconds(WeiboConfig.INBOX_TTL_DAYS * 86_400)),
            SplitPoints.none(),
            WeiboKeys.USER.shape()
                + "; i: "
                + WeiboKeys.INBOX_ENTRY.shape()
                + "; m: "
                + WeiboKeys.MARKER.shape()
                + "; o: "
                + WeiboKeys.OUTBOX.shape()),
        new TableSpec(
            relations,
            List.of(
                FamilySpec.of("r").withCompression(ZSTD),
                FamilySpec.of("p").withCompression(SNAPPY)),
            SplitPoints.none(),
            WeiboKeys.RELATION.shape() + "; p: " + WeiboKeys.PENDING.shape()),
        new TableSpec(
            users,
            List.of(FamilySpec.of("u").withCompression(SNAPPY).withInMemory(true)),
            SplitPoints.none(),
            WeiboKeys.USER.shape()));
  }
}
