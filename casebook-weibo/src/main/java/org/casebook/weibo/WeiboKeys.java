package org.casebook.weibo;

import java.util.Base64;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyReader;

/**
 * Row keys and qualifiers of the feed tables. Every user id is an escaped, terminated string
 * part (core toolkit), so ids containing separators, and ids that are prefixes of others, stay apart.
 *
 * <pre>
 * posts     row uid | MAX-postId                  newest first within a user
 * inbox     row uid; family i: MAX-postId | author   the feed, newest first (one wide row per user)
 *                    family m: followee            read-merged accounts this user follows
 *                    family o: MAX-postId          this account's recent posts, if read-merged
 * relations row uid | kind | other                kind 1 following, 2 follower
 * users     row uid                               counters and fan-out state
 * </pre>
 */
final class WeiboKeys {
  static final int FOLLOWING = 1;
  static final int FOLLOWER = 2;

  static final KeyLayout POST = KeyLayout.named("post").part("uid", KeyLayout.PartType.STRING)
      .part("postId", KeyLayout.PartType.REVERSE_TIMESTAMP).build();
  static final KeyLayout INBOX_ENTRY = KeyLayout.named("inbox entry qualifier")
      .part("postId", KeyLayout.PartType.REVERSE_TIMESTAMP).part("author", KeyLayout.PartType.STRING).build();
  static final KeyLayout RELATION = KeyLayout.named("relation").part("uid", KeyLayout.PartType.STRING)
      .part("kind", KeyLayout.PartType.BYTE).part("other", KeyLayout.PartType.STRING).build();

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private WeiboKeys() {}

  /** A user's key part: the users row, the inbox row, and the prefix of its posts and relations. */
  static byte[] user(String uid) {
    return KeyBuilder.create().addString(uid).build();
  }

  static byte[] post(String uid, long postId) {
    return KeyBuilder.create().addString(uid).addReverseTimestamp(postId).build();
  }

  /** Post id of a posts row whose uid is already known. */
  static long postIdOf(byte[] row) {
    KeyReader r = new KeyReader(row);
    r.skipBytes();
    return r.readReverseTimestamp();
  }

  /** Qualifier of an inbox entry: newest first, then by author. */
  static byte[] inboxEntry(long postId, String author) {
    return KeyBuilder.create().addReverseTimestamp(postId).addString(author).build();
  }

  static InboxEntry inboxEntryOf(byte[] qualifier) {
    KeyReader r = new KeyReader(qualifier);
    long postId = r.readReverseTimestamp();
    return new InboxEntry(postId, r.readString());
  }

  /** Qualifier of a read-merge marker (family m). */
  static byte[] marker(String followee) {
    return KeyBuilder.create().addString(followee).build();
  }

  static String markerOf(byte[] qualifier) {
    return new KeyReader(qualifier).readString();
  }

  /** Qualifier of an outbox entry (family o): newest first. */
  static byte[] outboxEntry(long postId) {
    return KeyBuilder.create().addReverseTimestamp(postId).build();
  }

  static long outboxPostIdOf(byte[] qualifier) {
    return new KeyReader(qualifier).readReverseTimestamp();
  }

  static byte[] relation(String uid, int kind, String other) {
    return KeyBuilder.create().addString(uid).addByte(kind).addString(other).build();
  }

  static byte[] relationPrefix(String uid, int kind) {
    return KeyBuilder.create().addString(uid).addByte(kind).build();
  }

  static String otherOf(byte[] relationRow) {
    KeyReader r = new KeyReader(relationRow);
    r.skipBytes();
    r.readByte();
    return r.readString();
  }

  /** An inbox row's content: which post of which author. */
  record InboxEntry(long postId, String author) {}

  // Cursors are opaque to callers: base64url of a small key. Bad ones are a 400 on "cursor".

  static String timelineCursor(long postId, String author) {
    return B64.encodeToString(KeyBuilder.create().addLong(postId).addString(author).build());
  }

  static InboxEntry parseTimelineCursor(String cursor) {
    try {
      KeyReader r = new KeyReader(B64D.decode(cursor));
      InboxEntry e = new InboxEntry(r.readLong(), r.readString());
      InvalidInputException.check(!r.hasRemaining() && e.postId() >= 0, "cursor", "cursor is not valid here");
      return e;
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("cursor", "cursor is not valid here");
    }
  }

  static String postCursor(long postId) {
    return B64.encodeToString(KeyBuilder.create().addLong(postId).build());
  }

  static long parsePostCursor(String cursor) {
    try {
      KeyReader r = new KeyReader(B64D.decode(cursor));
      long id = r.readLong();
      InvalidInputException.check(!r.hasRemaining() && id >= 0, "cursor", "cursor is not valid here");
      return id;
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("cursor", "cursor is not valid here");
    }
  }

  static String userCursor(String uid) {
    return B64.encodeToString(KeyBuilder.create().addString(uid).build());
  }

  static String parseUserCursor(String cursor) {
    try {
      KeyReader r = new KeyReader(B64D.decode(cursor));
      String uid = r.readString();
      InvalidInputException.check(!r.hasRemaining(), "cursor", "cursor is not valid here");
      return uid;
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("cursor", "cursor is not valid here");
    }
  }
}
