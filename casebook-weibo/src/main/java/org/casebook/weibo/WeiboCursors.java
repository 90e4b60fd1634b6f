package org.casebook.weibo;

import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;

/**
 * Where each listing's next page starts, as core {@link Cursors}: opaque, checksummed and bound to
 * its listing, so a cursor of one listing, or an edited one, is a 400 naming {@code cursor} and
 * never starts a scan elsewhere.
 */
final class WeiboCursors {
  static final String TIMELINE_SCOPE = "weibo.timeline";
  static final String POSTS_SCOPE = "weibo.posts";
  static final String FOLLOWERS_SCOPE = "weibo.followers";
  static final String FOLLOWING_SCOPE = "weibo.following";

  private WeiboCursors() {}

  /** After the last entry a timeline page showed (or examined). */
  static String timeline(InboxEntry last) {
    return Cursors.encode(
        TIMELINE_SCOPE,
        KeyBuilder.create().addLong(last.postId()).addString(last.author()).build());
  }

  static InboxEntry parseTimeline(String cursor) {
    return Cursors.decode(
        TIMELINE_SCOPE, cursor, r -> new InboxEntry(nonNegative(r.readLong()), r.readString()));
  }

  /** After the last of an author's posts shown. */
  static String posts(long postId) {
    return Cursors.encode(POSTS_SCOPE, KeyBuilder.create().addLong(postId).build());
  }

  static long parsePosts(String cursor) {
    return Cursors.decode(POSTS_SCOPE, cursor, r -> nonNegative(r.readLong()));
  }

  /** After the last user of a followers or following listing ({@code scope}). */
  static String users(String scope, String uid) {
    return Cursors.encode(scope, KeyBuilder.create().addString(uid).build());
  }

  static String parseUsers(String scope, String cursor) {
    return Cursors.decode(scope, cursor, r -> r.readString());
  }

  /** The scope of the listing of {@code kind} rows. */
  static String scopeOf(RelationKind kind) {
    return kind == RelationKind.FOLLOWER ? FOLLOWERS_SCOPE : FOLLOWING_SCOPE;
  }

  private static long nonNegative(long postId) {
    if (postId < 0) {
      throw new IllegalArgumentException("negative post id");
    }
    return postId;
  }
}
