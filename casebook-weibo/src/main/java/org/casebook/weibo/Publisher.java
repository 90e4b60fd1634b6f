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
 * server), then the post counter and delivery by the author's fan-out state — to every follower's
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
    Post post = null;
    for (int attempt = 0; attempt < POST_ID_ATTEMPTS && post == null; attempt++) {
      long candidate = ids.next(now);
      if (store.insertPost(uid, candidate, content)) {
        post = new Post(Long.toString(candidate), uid, PostIds.millisOf(candidate), content);
      }
    }
    if (post == null) {
      throw new IllegalStateException(
          "no free post id for " + uid + " after " + POST_ID_ATTEMPTS + " attempts");
    }
    // Only a stored post is counted and goes to the outbox (timelines show outbox cells as they
    // are): a publish that fails before this point leaves no trace.
    Future<?> counted = sideWork.submit(() -> store.addToCounters(uid, 0, 0, 1));
    FanOut fanOut = author.fanOut();
    Post stored = post;
    // Side by side with the fan-out. For an author read as WRITE, the state is read again: a
    // promotion that started meanwhile may have copied the recent posts to the outbox before our
    // insert. If it still is WRITE, the promotion's copy (which follows its move away from WRITE)
    // runs after our insert and includes the post.
    Future<?> outboxed =
        sideWork.submit(
            () -> {
              if (fanOut != FanOut.WRITE || promotion.author(uid).fanOut() != FanOut.WRITE) {
                store.addToOutbox(uid, List.of(stored));
              }
            });
    long postId = Long.parseLong(post.id());
    if (fanOut != FanOut.READ) {
      store.forEachRelated(
          uid,
          WeiboKeys.FOLLOWER,
          FAN_OUT_CHUNK,
          followers -> store.addToInboxes(followers, uid, postId));
    }
    if (fanOut == FanOut.PROMOTING
        || (fanOut == FanOut.WRITE && author.followers() >= config.fanOutThreshold())) {
      promotion.promoteLater(uid);
    }
    Futures.await(outboxed);
    Futures.await(counted);
    return post;
  }
}
