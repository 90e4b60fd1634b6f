package org.casebook.weibo;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.casebook.core.Futures;

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
    this.store = Objects.requireNonNull(store, "store is null");
    this.config = Objects.requireNonNull(config, "config is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
    this.ids = Objects.requireNonNull(ids, "ids is null");
    this.sideWork = Objects.requireNonNull(sideWork, "sideWork is null");
    this.promotion = Objects.requireNonNull(promotion, "promotion is null");
  }

  Post publish(String uid, String content, String title, List<PostImage> images) {
    Validation.uid(uid, "uid");
    // Every check before the first write: a refused publish stores nothing.
    PostBody body =
        new PostBody(
            Validation.content(content), Validation.title(title), Validation.images(images));
    Account author = promotion.author(uid);
    long now = clock.millis();
    Post post = null;
    for (int attempt = 0; attempt < POST_ID_ATTEMPTS && post == null; attempt++) {
      long candidate = ids.next(now);
      if (store.posts().insertIfAbsent(uid, candidate, body)) {
        post = Post.of(candidate, uid, body);
      }
    }
    if (post == null) {
      throw new IllegalStateException(
          "no free post id for " + uid + " after " + POST_ID_ATTEMPTS + " attempts");
    }
    // Only a stored post is counted and goes to the outbox (timelines show outbox cells as they
    // are): a publish that fails before this point leaves no trace.
    Future<?> counted = sideWork.submit(() -> store.users().addToCounters(uid, 0, 0, 1));
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
                store.inbox().addToOutbox(uid, List.of(stored));
              }
            });
    long postId = post.postId();
    if (fanOut != FanOut.READ) {
      store
          .relations()
          .forEachRelated(
              uid,
              RelationKind.FOLLOWER,
              FAN_OUT_CHUNK,
              followers -> store.inbox().addToInboxes(followers, uid, postId));
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
