package org.casebook.weibo;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.casebook.core.Futures;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reads of posts: a reader's timeline (inbox entries merged with the outboxes of read-merged
 * accounts, both kept only for authors the reader follows now) and an author's own posts.
 */
final class Timelines {
  private static final Logger LOG = LoggerFactory.getLogger(Timelines.class);
  private static final int MAX_READ_MERGED_FOLLOWS = 1000;

  /** Inbox entries examined at most for one page when many belong to accounts unfollowed. */
  private static final int MAX_ENTRIES_EXAMINED = 10_000;

  /**
   * Entries of unfollowed accounts younger than this are not cleaned up: a re-follow's back-fill
   * writes the same qualifier, and only a different timestamp keeps it out of an exact delete's
   * reach (a margin for clock differences between this process and the region servers).
   */
  static final long CLEANUP_MIN_AGE_MILLIS = 60_000;

  /** A reader over {@link #MAX_READ_MERGED_FOLLOWS} is warned about at most this often. */
  private static final long READ_MERGED_WARNING_INTERVAL_MILLIS = 3_600_000;

  /** Readers remembered as warned about, at most (then forgotten all at once). */
  private static final int MAX_WARNED_READERS = 10_000;

  private final WeiboStore store;
  private final ExecutorService sideWork;
  private final Clock clock;

  /** When each reader over the read-merged limit was last warned about. */
  private final Map<String, Long> readMergedWarnings = new ConcurrentHashMap<>();

  Timelines(WeiboStore store, ExecutorService sideWork, Clock clock) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.sideWork = Objects.requireNonNull(sideWork, "sideWork is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  /**
   * A slice of the inbox row and the user's read-merge markers (one multi-get), then side by side:
   * the bodies of those entries, the outboxes of read-merged accounts and the follow state of every
   * author seen (one multi-get each). Only authors the reader follows now are kept; if that leaves
   * the page short, further slices of the inbox are read. Merged in (post id desc, author) order
   * with duplicates removed. Entries and markers of accounts no longer followed are deleted in the
   * background, exactly by cell timestamp.
   */
  Page<Post> timeline(String uid, PageRequest request) {
    Validation.uid(uid, "uid");
    int limit = request.limit();
    int fetch = request.fetchSize();
    InboxEntry after = request.cursor().map(WeiboCursors::parseTimeline).orElse(null);
    InboxSlice feed = store.inbox().slice(uid, after, fetch, true);
    List<MarkerCell> markers = feed.readMerged();
    if (markers.size() > MAX_READ_MERGED_FOLLOWS) {
      warnTooManyReadMerged(uid, markers.size());
      markers = markers.subList(0, MAX_READ_MERGED_FOLLOWS);
    }
    Future<List<List<Post>>> outboxes = null;
    if (!markers.isEmpty()) {
      List<String> bigs = markers.stream().map(MarkerCell::followee).toList();
      outboxes = sideWork.submit(() -> store.inbox().outboxes(bigs, after, fetch));
    }
    Map<String, Boolean> follows = new HashMap<>();
    // The first state check covers the read-merged accounts too.
    List<String> alsoCheck = markers.stream().map(MarkerCell::followee).toList();
    // Order of the merged timeline = order of inbox qualifiers: post id descending, then author.
    TreeMap<TimelineKey, PostBody> merged = new TreeMap<>();
    List<InboxCell> stale = new ArrayList<>();
    List<InboxCell> slice = feed.entries();
    int kept = 0;
    int examined = 0;
    InboxEntry lastExamined = null;
    boolean truncated = false;
    while (true) {
      List<InboxCell> cells = slice;
      // Inbox cells name posts only: the body (content, title, images) is read from the post row
      // in this one multi-get, so a fan-out writes no copy of it.
      Future<List<PostBody>> bodies =
          cells.isEmpty()
              ? null
              : sideWork.submit(
                  () -> store.posts().bodies(cells.stream().map(InboxCell::entry).toList()));
      List<String> authors = new ArrayList<>(alsoCheck);
      cells.forEach(c -> authors.add(c.entry().author()));
      alsoCheck = List.of();
      checkFollows(uid, authors, follows);
      List<PostBody> fetched = bodies == null ? List.of() : Futures.await(bodies);
      for (int i = 0; i < cells.size(); i++) {
        InboxCell c = cells.get(i);
        if (follows.get(c.entry().author())) {
          // No body: the post is gone from the posts table; the entry is skipped, the cursor
          // still moves past it.
          merged.put(TimelineKey.of(c.entry()), fetched.get(i));
          kept++;
        } else {
          stale.add(c);
        }
      }
      examined += cells.size();
      if (!cells.isEmpty()) {
        lastExamined = cells.get(cells.size() - 1).entry();
      }
      if (cells.size() < fetch || kept >= fetch) {
        break;
      }
      if (examined >= MAX_ENTRIES_EXAMINED) {
        truncated = true;
        break;
      }
      slice = store.inbox().slice(uid, lastExamined, fetch, false).entries();
    }
    List<MarkerCell> staleMarkers = new ArrayList<>();
    if (outboxes != null) {
      List<List<Post>> posts = Futures.await(outboxes);
      for (int i = 0; i < markers.size(); i++) {
        if (!follows.get(markers.get(i).followee())) {
          staleMarkers.add(markers.get(i));
          continue;
        }
        for (Post p : posts.get(i)) {
          merged.put(TimelineKey.of(new InboxEntry(p.postId(), p.uid())), p.body());
        }
      }
    }
    if (!stale.isEmpty() || !staleMarkers.isEmpty()) {
      cleanUpLater(uid, stale, staleMarkers);
    }
    if (truncated) {
      // The inbox was read only down to lastExamined: outbox posts past it wait for the next page.
      merged.tailMap(TimelineKey.of(lastExamined), false).clear();
    }
    List<TimelineKey> page =
        new ArrayList<>(merged.keySet()).subList(0, Math.min(limit, merged.size()));
    List<Post> posts = new ArrayList<>(page.size());
    for (TimelineKey k : page) {
      PostBody body = merged.get(k);
      if (body != null) {
        InboxEntry e = k.entry();
        posts.add(Post.of(e.postId(), e.author(), body));
      }
    }
    Optional<String> next;
    if (merged.size() > limit && !page.isEmpty()) {
      next = Optional.of(WeiboCursors.timeline(page.get(page.size() - 1).entry()));
    } else if (truncated) {
      next = Optional.of(WeiboCursors.timeline(lastExamined));
    } else {
      next = Optional.empty();
    }
    return new Page<>(posts, next);
  }

  /**
   * Logs that {@code uid}'s timeline leaves out read-merged accounts beyond the limit: once per
   * reader per interval, not on every page read.
   */
  private void warnTooManyReadMerged(String uid, int followed) {
    long now = clock.millis();
    Long last = readMergedWarnings.get(uid);
    if (last != null && now - last < READ_MERGED_WARNING_INTERVAL_MILLIS) {
      return;
    }
    if (readMergedWarnings.size() >= MAX_WARNED_READERS) {
      readMergedWarnings.clear();
    }
    boolean mine =
        last == null
            ? readMergedWarnings.putIfAbsent(uid, now) == null
            : readMergedWarnings.replace(uid, last, now);
    if (mine) {
      LOG.warn(
          "{} follows {} read-merged accounts; the timeline merges only the first {} of them",
          uid,
          followed,
          MAX_READ_MERGED_FOLLOWS);
    }
  }

  /**
   * Adds to {@code follows} whether {@code uid} follows each author not in it yet: one multi-get.
   */
  private void checkFollows(String uid, List<String> authors, Map<String, Boolean> follows) {
    List<String> unknown =
        authors.stream().distinct().filter(a -> !follows.containsKey(a)).toList();
    if (unknown.isEmpty()) {
      return;
    }
    List<RelationState> states = store.relations().states(uid, unknown);
    for (int i = 0; i < unknown.size(); i++) {
      follows.put(unknown.get(i), states.get(i).following());
    }
  }

  /**
   * Deletes, on side work, the cells of accounts {@code owner} still does not follow once checked
   * again, and only cells old enough that a re-follow's back-fill cannot share their timestamp.
   */
  private void cleanUpLater(String owner, List<InboxCell> entries, List<MarkerCell> markers) {
    sideWork.execute(
        () -> {
          try {
            cleanUp(owner, entries, markers);
          } catch (RuntimeException e) {
            // Clean-up is an optimisation: readers filter these entries anyway.
            LOG.debug("inbox clean-up of {} failed", owner, e);
          }
        });
  }

  private void cleanUp(String owner, List<InboxCell> entries, List<MarkerCell> markers) {
    long oldest = clock.millis() - CLEANUP_MIN_AGE_MILLIS;
    List<InboxCell> oldEntries = entries.stream().filter(c -> c.ts() < oldest).toList();
    List<MarkerCell> oldMarkers = markers.stream().filter(c -> c.ts() < oldest).toList();
    if (oldEntries.isEmpty() && oldMarkers.isEmpty()) {
      return;
    }
    Map<String, Boolean> follows = new HashMap<>();
    List<String> authors = new ArrayList<>();
    oldEntries.forEach(c -> authors.add(c.entry().author()));
    oldMarkers.forEach(c -> authors.add(c.followee()));
    checkFollows(owner, authors, follows);
    store
        .inbox()
        .deleteExactly(
            owner,
            oldEntries.stream().filter(c -> !follows.get(c.entry().author())).toList(),
            oldMarkers.stream().filter(c -> !follows.get(c.followee())).toList());
  }

  /** {@code uid}'s own posts, newest first. */
  Page<Post> posts(String uid, PageRequest request) {
    Validation.uid(uid, "uid");
    long before = request.cursor().map(WeiboCursors::parsePosts).orElse(-1L);
    List<Post> posts = store.posts().postsBefore(uid, before, request.fetchSize());
    return Page.of(posts, request.limit(), last -> WeiboCursors.posts(last.postId()));
  }

  /**
   * Sort key of the merged timeline: post id descending, then the author's key bytes. A class, not
   * a record, because it holds a byte array: equality and hashing compare the array's contents.
   */
  private static final class TimelineKey implements Comparable<TimelineKey> {
    static final Comparator<TimelineKey> ORDER =
        Comparator.<TimelineKey>comparingLong(k -> -k.entry().postId())
            .thenComparing(TimelineKey::author, Arrays::compareUnsigned);

    private final InboxEntry entry;
    private final byte[] author;

    private TimelineKey(InboxEntry entry, byte[] author) {
      this.entry = entry;
      this.author = author;
    }

    static TimelineKey of(InboxEntry e) {
      return new TimelineKey(e, WeiboKeys.authorOrder(e.author()));
    }

    InboxEntry entry() {
      return entry;
    }

    byte[] author() {
      return author;
    }

    @Override
    public int compareTo(TimelineKey o) {
      return ORDER.compare(this, o);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof TimelineKey k
          && k.entry().postId() == entry.postId()
          && Arrays.equals(k.author, author);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(entry.postId()) * 31 + Arrays.hashCode(author);
    }
  }
}
