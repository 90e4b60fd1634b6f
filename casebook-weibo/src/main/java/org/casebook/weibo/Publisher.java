package org.casebook.weibo;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.casebook.core.Futures;
import org.casebook.weibo.WeiboStore.FanOut;
import org.casebook.weibo.WeiboStore.UserRow;

/**
 * Publishing: a conditional insert under a fresh post id (retried on a collision with another
 * server), the post counter, and delivery by the author's fan-out state — to every follower's
 * inbox, to the author's outbox, or both while a promotion runs.
 */
final class Publisher {
  private static final int POST_ID_ATTEMPTS = 5;
  private static final int FAN_OUT_CHUNK = 5000;

  private final WeiboStore store;
  private final WeiboConfig config;
  private final Clock clock;
  private final PostIds ids;
  private final ExecutorService sideWork;
  private final FanOutPromotion promotion;

  Publisher(
      WeiboStore store,
      WeiboConfig config,
      Clock clock,
      PostIds ids,
      ExecutorService sideWork,
      FanOutPromotion promotion) {
    this.store = store;
    this.config = config;
    this.clock = clock;
    this.ids = ids;
    this.sideWork = sideWork;
    this.promotion = promotion;
  }

  Post publish(String uid, String content) {
    Validation.uid(uid, "uid");
    Validation.content(content);
    UserRow author = promotion.author(uid);
    long now = clock.millis();
    boolean outbox = author.fanOut() != FanOut.WRITE;
    // Independent writes go side by side: the counter always, and for a read-merged author the
    // outbox cell, optimistically, next to the conditional insert of the post itself.
    Future<?> counted = sideWork.submit(() -> store.addToCounters(uid, 0, 0, 1));
    Post post = null;
    for (int attempt = 0; attempt < POST_ID_ATTEMPTS && post == null; attempt++) {
      long candidate = ids.next(now);
      Post p = new Post(Long.toString(candidate), uid, PostIds.millisOf(candidate), content);
      Future<?> outboxed =
          outbox ? sideWork.submit(() -> store.addToOutbox(uid, List.of(p))) : null;
      boolean inserted = store.insertPost(uid, candidate, content);
      if (outboxed != null) {
        Futures.await(outboxed);
      }
      if (inserted) {
        post = p;
      } else if (outboxed != null) {
        // Another server took this id for this author: its post owns the outbox cell we just
        // overwrote.
        store.restoreOutboxEntry(uid, candidate);
      }
    }
    if (post == null) {
      Futures.await(counted);
      store.addToCounters(uid, 0, 0, -1);
      throw new IllegalStateException(
          "no free post id for " + uid + " after " + POST_ID_ATTEMPTS + " attempts");
    }
    long postId = Long.parseLong(post.id());
    if (author.fanOut() != FanOut.READ) {
      store.forEachRelated(
          uid,
          WeiboKeys.FOLLOWER,
          FAN_OUT_CHUNK,
          followers -> store.addToInboxes(followers, uid, postId));
    }
    if (author.fanOut() == FanOut.PROMOTING
        || (author.fanOut() == FanOut.WRITE && author.followers() >= config.fanOutThreshold())) {
      promotion.promoteLater(uid);
    }
    Futures.await(counted);
    return post;
  }
}
