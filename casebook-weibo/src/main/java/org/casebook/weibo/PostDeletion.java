package org.casebook.weibo;

import java.util.Objects;

/**
 * Deleting a post everywhere it was delivered (Mastodon's {@code unpush_from_home}), in steps that
 * each finish or change nothing, so a delete stopped anywhere is finished by running it again and
 * two deletes of one post racing do it once:
 *
 * <ol>
 *   <li>hide: the content goes and a tombstone marks the row (one check-and-mutate on the content
 *       read), so the post is gone from the author's posts and from every timeline at once;
 *   <li>uncount: the author's post count drops by one together with a marker naming the post (one
 *       row mutation under the check that the marker is absent: never twice);
 *   <li>unpush: the post's cells leave the author's outbox and the inbox of every current follower
 *       (inboxes of accounts that stopped following keep a cell that names no content, which reads
 *       skip and the inbox TTL removes);
 *   <li>the post's row goes.
 * </ol>
 */
final class PostDeletion {
  private static final int FOLLOWER_CHUNK = 5000;

  private final WeiboStore store;

  PostDeletion(WeiboStore store) {
    this.store = Objects.requireNonNull(store, "store is null");
  }

  /** Deletes post {@code postId} of {@code uid}: false when there is no such post (or no more). */
  boolean delete(String uid, long postId) {
    Validation.uid(uid, "uid");
    byte[][] content = new byte[1][];
    PostStore.Stored stored = store.posts().state(uid, postId, content);
    while (stored == PostStore.Stored.VISIBLE) {
      if (store.posts().hide(uid, postId, content[0])) {
        stored = PostStore.Stored.HIDDEN;
      } else {
        // Another delete hid it, or the row changed under us: read again.
        stored = store.posts().state(uid, postId, content);
      }
    }
    if (stored == PostStore.Stored.ABSENT) {
      return false;
    }
    store.users().uncountDeletedPost(uid, postId);
    store.inbox().removeFromOutbox(uid, postId);
    store
        .relations()
        .forEachRelated(
            uid,
            RelationKind.FOLLOWER,
            FOLLOWER_CHUNK,
            followers -> store.inbox().removeFromInboxes(followers, uid, postId));
    store.posts().deleteRow(uid, postId);
    return true;
  }
}
