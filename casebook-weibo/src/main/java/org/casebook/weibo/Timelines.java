package org.casebook.weibo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Futures;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.weibo.WeiboKeys.InboxEntry;

/**
 * The reads of posts: a reader's timeline (inbox entries merged with the outboxes of read-merged
 * accounts followed) and an author's own posts.
 */
final class Timelines {
  private static final int MAX_READ_MERGED_FOLLOWS = 1000;

  private final WeiboStore store;
  private final ExecutorService sideWork;

  Timelines(WeiboStore store, ExecutorService sideWork) {
    this.store = store;
    this.sideWork = sideWork;
  }

  /**
   * The first page of the inbox row and the user's read-merge markers (one multi-get), then the
   * bodies of those entries and the outboxes of followed read-merged accounts (one multi-get each,
   * side by side), merged in (post id desc, author) order with duplicates removed.
   */
  Page<Post> timeline(String uid, PageRequest request) {
    Validation.uid(uid, "uid");
    int limit = request.limit();
    InboxEntry after = request.cursor().map(WeiboKeys::parseTimelineCursor).orElse(null);
    WeiboStore.FeedRow feed = store.feed(uid, after, request.fetchSize());
    // Order of the merged timeline = order of inbox qualifiers: post id descending, then author
    // bytes.
    TreeMap<TimelineKey, String> merged = new TreeMap<>();
    for (InboxEntry e : feed.entries()) {
      merged.put(TimelineKey.of(e), null);
    }
    List<String> bigs =
        feed.readMerged().size() > MAX_READ_MERGED_FOLLOWS
            ? feed.readMerged().subList(0, MAX_READ_MERGED_FOLLOWS)
            : feed.readMerged();
    // Outboxes and bodies are independent: fetch them side by side (bodies of every inbox entry
    // read, at most one more than the page needs).
    Future<List<List<Post>>> outboxes = null;
    if (!bigs.isEmpty()) {
      List<byte[]> starts = new ArrayList<>(bigs.size());
      for (String big : bigs) {
        if (after == null) {
          starts.add(null);
        } else {
          // A post with the cursor's id comes after the cursor only if its author sorts after the
          // cursor's.
          byte[] q = WeiboKeys.outboxEntry(after.postId());
          boolean inclusive =
              Bytes.compareTo(TimelineKey.authorKey(big), TimelineKey.authorKey(after.author()))
                  > 0;
          starts.add(inclusive ? q : KeyRange.successorOf(q));
        }
      }
      outboxes = sideWork.submit(() -> store.outboxes(bigs, starts, request.fetchSize()));
    }
    List<String> fetched = feed.entries().isEmpty() ? List.of() : store.contents(feed.entries());
    Map<TimelineKey, String> bodies = new HashMap<>();
    for (int i = 0; i < feed.entries().size(); i++) {
      bodies.put(TimelineKey.of(feed.entries().get(i)), fetched.get(i));
    }
    if (outboxes != null) {
      for (List<Post> posts : Futures.await(outboxes)) {
        for (Post p : posts) {
          merged.put(TimelineKey.of(new InboxEntry(Long.parseLong(p.id()), p.uid())), p.content());
        }
      }
    }
    List<TimelineKey> page =
        new ArrayList<>(merged.keySet()).subList(0, Math.min(limit, merged.size()));
    List<Post> posts = new ArrayList<>(page.size());
    for (TimelineKey k : page) {
      String content = merged.get(k) != null ? merged.get(k) : bodies.get(k);
      // No body: the post is gone from the posts table; the entry is skipped, the cursor still
      // moves past it.
      if (content != null) {
        InboxEntry e = k.entry();
        posts.add(
            new Post(Long.toString(e.postId()), e.author(), PostIds.millisOf(e.postId()), content));
      }
    }
    Optional<String> next =
        merged.size() > limit && !page.isEmpty()
            ? Optional.of(WeiboKeys.timelineCursor(page.get(page.size() - 1).entry()))
            : Optional.empty();
    return new Page<>(posts, next);
  }

  /** {@code uid}'s own posts, newest first. */
  Page<Post> posts(String uid, PageRequest request) {
    Validation.uid(uid, "uid");
    long before = request.cursor().map(WeiboKeys::parsePostCursor).orElse(-1L);
    List<Post> posts = store.posts(uid, before, false, request.fetchSize());
    return Page.of(posts, request.limit(), last -> WeiboKeys.postCursor(Long.parseLong(last.id())));
  }

  /** Sort key of the merged timeline: post id descending, then the author's key bytes. */
  private record TimelineKey(InboxEntry entry, byte[] author) implements Comparable<TimelineKey> {
    static final Comparator<TimelineKey> ORDER =
        Comparator.<TimelineKey>comparingLong(k -> -k.entry().postId())
            .thenComparing(TimelineKey::author, Bytes.BYTES_COMPARATOR);

    static TimelineKey of(InboxEntry e) {
      return new TimelineKey(e, authorKey(e.author()));
    }

    /**
     * The author part as the inbox qualifier orders it (the same string encoding as a user row).
     */
    static byte[] authorKey(String author) {
      return WeiboKeys.user(author);
    }

    @Override
    public int compareTo(TimelineKey o) {
      return ORDER.compare(this, o);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof TimelineKey k
          && k.entry().postId() == entry.postId()
          && Bytes.equals(k.author, author);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(entry.postId()) * 31 + Bytes.hashCode(author);
    }
  }
}
