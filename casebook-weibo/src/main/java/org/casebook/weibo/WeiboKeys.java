package org.casebook.weibo;

import java.util.List;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.page.Cursors;

/**
 * Row keys and qualifiers of the feed tables, each a declared {@link KeyLayout} (the stores build
 * and read every key through these). Every user id is an escaped, terminated string part, so ids
 * containing separators, and ids that are prefixes of others, stay apart.
 *
 * <pre>
 * posts     row uid | MAX-postId                  newest first within a user
 * inbox     row uid; family i: MAX-postId | author   the feed, newest first (one wide row per user)
 *                    family m: followee            read-merged accounts this user follows
 *                    family o: MAX-postId          this account's recent posts, if read-merged
 * relations row uid | kind | other                kind 1 following, 2 follower
 *                    family p: version             transitions whose effects are not done yet
 * users     row uid                               counters and fan-out state
 * </pre>
 */
final class WeiboKeys {
  static final int FOLLOWING = 1;
  static final int FOLLOWER = 2;

  static final KeyLayout POST =
      KeyLayout.named("post row")
          .part("uid", PartType.STRING)
          .part("postId", PartType.REVERSE_TIMESTAMP)
          .build();

  /**
   * The users row and the inbox row of a user (the same bytes as the prefix of its posts and
   * relations).
   */
  static final KeyLayout USER = KeyLayout.named("user row").part("uid", PartType.STRING).build();

  static final KeyLayout RELATION =
      KeyLayout.named("relation row")
          .part("uid", PartType.STRING)
          .part("kind", PartType.BYTE)
          .part("other", PartType.STRING)
          .build();
  static final KeyLayout INBOX_ENTRY =
      KeyLayout.named("inbox entry qualifier")
          .part("postId", PartType.REVERSE_TIMESTAMP)
          .part("author", PartType.STRING)
          .build();
  static final KeyLayout MARKER =
      KeyLayout.named("marker qualifier").part("followee", PartType.STRING).build();
  static final KeyLayout OUTBOX =
      KeyLayout.named("outbox qualifier").part("postId", PartType.REVERSE_TIMESTAMP).build();

  /** Qualifier of a pending transition (relations family p): one column per version. */
  static final KeyLayout PENDING =
      KeyLayout.named("pending qualifier").part("version", PartType.LONG).build();

  /** Every layout above, for the descriptor. */
  static final List<KeyLayout> ALL =
      List.of(POST, USER, RELATION, INBOX_ENTRY, MARKER, OUTBOX, PENDING);

  // One cursor scope per listing: a cursor of one listing is refused by another.
  static final String TIMELINE_SCOPE = "weibo.timeline";
  static final String POSTS_SCOPE = "weibo.posts";
  static final String FOLLOWERS_SCOPE = "weibo.followers";
  static final String FOLLOWING_SCOPE = "weibo.following";

  private WeiboKeys() {}

  static byte[] user(String uid) {
    return USER.encode(uid);
  }

  static byte[] post(String uid, long postId) {
    return POST.encode(uid, postId);
  }

  /** Post id of a posts row. */
  static long postIdOf(byte[] row) {
    return POST.decode(row).number("postId");
  }

  /** Qualifier of an inbox entry: newest first, then by author. */
  static byte[] inboxEntry(long postId, String author) {
    return INBOX_ENTRY.encode(postId, author);
  }

  static InboxEntry inboxEntryOf(byte[] qualifier) {
    KeyLayout.Key k = INBOX_ENTRY.decode(qualifier);
    return new InboxEntry(k.number("postId"), k.string("author"));
  }

  /** Qualifier of a read-merge marker (family m). */
  static byte[] marker(String followee) {
    return MARKER.encode(followee);
  }

  static String markerOf(byte[] qualifier) {
    return MARKER.decode(qualifier).string("followee");
  }

  /** Qualifier of an outbox entry (family o): newest first. */
  static byte[] outboxEntry(long postId) {
    return OUTBOX.encode(postId);
  }

  static long outboxPostIdOf(byte[] qualifier) {
    return OUTBOX.decode(qualifier).number("postId");
  }

  static byte[] relation(String uid, int kind, String other) {
    return RELATION.encode(uid, kind, other);
  }

  static String otherOf(byte[] relationRow) {
    return RELATION.decode(relationRow).string("other");
  }

  static KeyLayout.Key relationOf(byte[] relationRow) {
    return RELATION.decode(relationRow);
  }

  static byte[] pending(long version) {
    return PENDING.encode(version);
  }

  static long pendingVersionOf(byte[] qualifier) {
    return PENDING.decode(qualifier).number("version");
  }

  /** An inbox entry: which post of which author. */
  record InboxEntry(long postId, String author) {}

  // Cursor positions (opaque and checked by Cursors): a 400 naming "cursor" when they do not
  // decode.

  static String timelineCursor(InboxEntry last) {
    return Cursors.encode(
        TIMELINE_SCOPE,
        KeyBuilder.create().addLong(last.postId()).addString(last.author()).build());
  }

  static InboxEntry parseTimelineCursor(String cursor) {
    return Cursors.decode(
        TIMELINE_SCOPE, cursor, r -> new InboxEntry(nonNegative(r.readLong()), r.readString()));
  }

  static String postCursor(long postId) {
    return Cursors.encode(POSTS_SCOPE, KeyBuilder.create().addLong(postId).build());
  }

  static long parsePostCursor(String cursor) {
    return Cursors.decode(POSTS_SCOPE, cursor, r -> nonNegative(r.readLong()));
  }

  static String userCursor(String scope, String uid) {
    return Cursors.encode(scope, KeyBuilder.create().addString(uid).build());
  }

  static String parseUserCursor(String scope, String cursor) {
    return Cursors.decode(scope, cursor, r -> r.readString());
  }

  private static long nonNegative(long postId) {
    if (postId < 0) {
      throw new IllegalArgumentException("negative post id");
    }
    return postId;
  }
}
