package org.casebook.weibo;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/** The {@code weibo} namespace. Every table leads with the user id, so writes spread by user. */
final class WeiboSchema {
  static final String NAMESPACE = "weibo";
  static final TableName POSTS = TableName.valueOf(NAMESPACE, "posts");
  static final TableName INBOX = TableName.valueOf(NAMESPACE, "inbox");
  static final TableName RELATIONS = TableName.valueOf(NAMESPACE, "relations");
  static final TableName USERS = TableName.valueOf(NAMESPACE, "users");

  static final byte[] P = Bytes.toBytes("p");
  static final byte[] I = Bytes.toBytes("i");
  static final byte[] R = Bytes.toBytes("r");
  static final byte[] U = Bytes.toBytes("u");

  /** posts:p:c content (UTF-8). */
  static final byte[] CONTENT = Bytes.toBytes("c");
  /** inbox:i:a empty marker; the row key says everything. */
  static final byte[] ENTRY = Bytes.toBytes("a");
  /** relations:r:t follow time (epoch millis). */
  static final byte[] SINCE = Bytes.toBytes("t");
  /** users:u counters (8-byte longs, updated with Increment) and the fan-out state byte. */
  static final byte[] FOLLOWERS = Bytes.toBytes("followers");
  static final byte[] FOLLOWING = Bytes.toBytes("following");
  static final byte[] POST_COUNT = Bytes.toBytes("posts");
  static final byte[] STATE = Bytes.toBytes("state");

  private WeiboSchema() {}

  static List<TableSpec> tables() {
    return List.of(
        TableSpec.of(NAMESPACE, "posts", WeiboKeys.POST.shape(), SplitPoints.none(), FamilySpec.of("p")),
        TableSpec.of(NAMESPACE, "inbox", WeiboKeys.INBOX.shape(), SplitPoints.none(),
            FamilySpec.of("i").withTtlSeconds(WeiboConfig.INBOX_TTL_DAYS * 86_400)),
        TableSpec.of(NAMESPACE, "relations", WeiboKeys.RELATION.shape(), SplitPoints.none(), FamilySpec.of("r")),
        TableSpec.of(NAMESPACE, "users", "uid:string", SplitPoints.none(), FamilySpec.of("u").withInMemory(true)));
  }
}
