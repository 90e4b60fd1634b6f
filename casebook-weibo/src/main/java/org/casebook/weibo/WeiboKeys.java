package org.casebook.weibo;

import java.util.List;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;

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
  /** The kind byte of a following row ({@link RelationKind#FOLLOWING}). */
  static final int FOLLOWING = 1;

  /** The kind byte of a follower row ({@link RelationKind#FOLLOWER}). */
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

  private WeiboKeys() {}

  static byte[] user(String uid) {
    return USER.encode(uid);
  }

  /**
   * Bytes that order authors as the inbox qualifier does (its author part is encoded as a user
   * row): timelines merge their sources in this order.
   */
  static byte[] authorOrder(String author) {
    return USER.encode(author);
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

  static byte[] relation(String uid, RelationKind kind, String other) {
    return RELATION.encode(uid, code(kind), other);
  }

  /** The kind byte of a relation row. */
  static int code(RelationKind kind) {
    return switch (kind) {
      case FOLLOWING -> FOLLOWING;
      case FOLLOWER -> FOLLOWER;
    };
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
}
