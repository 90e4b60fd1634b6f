package org.casebook.weibo;

import static org.casebook.weibo.WeiboSchema.CONTENT;
import static org.casebook.weibo.WeiboSchema.FOLLOWERS;
import static org.casebook.weibo.WeiboSchema.FOLLOWING;
import static org.casebook.weibo.WeiboSchema.FOLLOWS;
import static org.casebook.weibo.WeiboSchema.I;
import static org.casebook.weibo.WeiboSchema.M;
import static org.casebook.weibo.WeiboSchema.O;
import static org.casebook.weibo.WeiboSchema.P;
import static org.casebook.weibo.WeiboSchema.PENDING;
import static org.casebook.weibo.WeiboSchema.POST_COUNT;
import static org.casebook.weibo.WeiboSchema.R;
import static org.casebook.weibo.WeiboSchema.SINCE;
import static org.casebook.weibo.WeiboSchema.STATE;
import static org.casebook.weibo.WeiboSchema.U;
import static org.casebook.weibo.WeiboSchema.VERSION;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;
import org.casebook.weibo.WeiboKeys.InboxEntry;

/**
 * Every HBase read and write of the feed, in one place; keys through the layouts of {@link
 * WeiboKeys}. Storage errors become {@link StorageException}s.
 */
final class WeiboStore {
  /** Fan-out state of an account, kept in users:u:state. */
  enum FanOut {
    WRITE(0),
    PROMOTING(1),
    READ(2);

    final byte code;

    FanOut(int code) {
      this.code = (byte) code;
    }

    static FanOut of(byte[] value) {
      if (value == null || value.length == 0) {
        return WRITE;
      }
      for (FanOut f : values()) {
        if (f.code == value[0]) {
          return f;
        }
      }
      throw new IllegalStateException("unknown fan-out state " + value[0]);
    }
  }

  /** One users row. */
  record UserRow(long followers, long following, long posts, FanOut fanOut) {}

  private static final int WRITE_CHUNK = 5000;
  private final Connection connection;
  private final WeiboSchema schema;

  WeiboStore(Connection connection, WeiboSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  UserRow user(String uid) {
    try (Table t = connection.getTable(schema.users())) {
      Result r = t.get(new Get(WeiboKeys.user(uid)).addFamily(U));
      return new UserRow(
          counter(r, FOLLOWERS),
          counter(r, FOLLOWING),
          counter(r, POST_COUNT),
          FanOut.of(r.getValue(U, STATE)));
    } catch (IOException e) {
      throw StorageException.of("read user", e);
    }
  }

  /** Adds to the counters of one user; returns the followers count after the change. */
  long addToCounters(String uid, long followers, long following, long posts) {
    Increment inc = new Increment(WeiboKeys.user(uid));
    if (followers != 0) {
      inc.addColumn(U, FOLLOWERS, followers);
    }
    if (following != 0) {
      inc.addColumn(U, FOLLOWING, following);
    }
    if (posts != 0) {
      inc.addColumn(U, POST_COUNT, posts);
    }
    if (inc.getFamilyCellMap().isEmpty()) {
      return -1;
    }
    try (Table t = connection.getTable(schema.users())) {
      Result r = t.increment(inc);
      return counter(r, FOLLOWERS);
    } catch (IOException e) {
      throw StorageException.of("update counters", e);
    }
  }

  /** Moves the fan-out state forward: WRITE→PROMOTING only if still WRITE; anything→READ. */
  boolean setFanOut(String uid, FanOut expected, FanOut next) {
    byte[] row = WeiboKeys.user(uid);
    Put put = new Put(row).addColumn(U, STATE, new byte[] {next.code});
    try (Table t = connection.getTable(schema.users())) {
      if (expected == null) {
        t.put(put);
        return true;
      }
      CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
      CheckAndMutate cam =
          expected == FanOut.WRITE
              ? check.ifNotExists(U, STATE).build(put)
              : check.ifEquals(U, STATE, new byte[] {expected.code}).build(put);
      return t.checkAndMutate(cam).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("update fan-out state", e);
    }
  }

  /** Writes the post unless a post with that id exists for that author. */
  boolean insertPost(String uid, long postId, String content) {
    byte[] row = WeiboKeys.post(uid, postId);
    Put put = new Put(row).addColumn(P, CONTENT, content.getBytes(StandardCharsets.UTF_8));
    try (Table t = connection.getTable(schema.posts())) {
      return t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(P, CONTENT).build(put))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("write post", e);
    }
  }

  /**
   * Up to {@code limit} posts of {@code uid} with ids below {@code beforeId} (or from the newest),
   * newest first.
   */
  List<Post> posts(String uid, long beforeId, boolean inclusive, int limit) {
    Scan scan =
        WeiboKeys.POST
            .range(uid)
            .toScan()
            .addColumn(P, CONTENT)
            .setLimit(limit)
            .setCaching(Math.min(limit, 1000));
    if (beforeId >= 0) {
      scan.withStartRow(WeiboKeys.post(uid, beforeId), inclusive);
    }
    return scanPosts(uid, scan);
  }

  /** {@code uid}'s posts with id at least {@code sinceId}, newest first, at most {@code limit}. */
  List<Post> postsSince(String uid, long sinceId, int limit) {
    Scan scan =
        new Scan()
            .withStartRow(WeiboKeys.POST.prefix(uid))
            .withStopRow(WeiboKeys.post(uid, sinceId), true)
            .addColumn(P, CONTENT)
            .setCaching(Math.min(Math.max(limit, 1), 1000))
            .setLimit(limit);
    return scanPosts(uid, scan);
  }

  private List<Post> scanPosts(String uid, Scan scan) {
    List<Post> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.posts());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(postOf(uid, WeiboKeys.postIdOf(r.getRow()), r.getValue(P, CONTENT)));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read posts", e);
    }
  }

  private static Post postOf(String uid, long postId, byte[] content) {
    return new Post(Long.toString(postId), uid, PostIds.millisOf(postId), Bytes.toString(content));
  }

  /**
   * Ids of {@code uid}'s posts with id at least {@code sinceId}, newest first, at most {@code
   * limit}.
   */
  void forEachPostIdSince(String uid, long sinceId, int limit, Consumer<Long> action) {
    // Newest first: the range ends at the row of the oldest id we still want.
    Scan scan =
        new Scan()
            .withStartRow(WeiboKeys.POST.prefix(uid))
            .withStopRow(WeiboKeys.post(uid, sinceId), true)
            .setFilter(new KeyOnlyFilter())
            .setCaching(Math.min(Math.max(limit, 1), 1000))
            .setLimit(limit);
    try (Table t = connection.getTable(schema.posts());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        action.accept(WeiboKeys.postIdOf(r.getRow()));
      }
    } catch (IOException e) {
      throw StorageException.of("read post ids", e);
    }
  }

  /**
   * Bodies of the given posts of the given authors, in the same order; null where a post is gone.
   */
  List<String> contents(List<InboxEntry> entries) {
    List<Get> gets = new ArrayList<>(entries.size());
    for (InboxEntry e : entries) {
      gets.add(new Get(WeiboKeys.post(e.author(), e.postId())).addColumn(P, CONTENT));
    }
    try (Table t = connection.getTable(schema.posts())) {
      Result[] results = t.get(gets);
      List<String> out = new ArrayList<>(results.length);
      for (Result r : results) {
        byte[] v = r.getValue(P, CONTENT);
        out.add(v == null ? null : Bytes.toString(v));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read post bodies", e);
    }
  }

  /** An inbox entry with the timestamp of its cell (for exact-version clean-up). */
  record InboxCell(InboxEntry entry, long ts) {}

  /** A read-merge marker with the timestamp of its cell. */
  record MarkerCell(String followee, long ts) {}

  /**
   * A slice of a user's feed row and, if asked for, the read-merged accounts they follow, in one
   * round trip.
   */
  record FeedRow(List<InboxCell> entries, List<MarkerCell> readMerged) {}

  private static final byte[] EMPTY = new byte[0];

  /**
   * Up to {@code limit} inbox entries of {@code owner}, newest first, strictly after {@code after}
   * if given, plus (if {@code withMarkers}) every read-merge marker of that user: two Gets on one
   * row, one multi-get.
   */
  FeedRow feed(String owner, InboxEntry after, int limit, boolean withMarkers) {
    byte[] row = WeiboKeys.user(owner);
    ColumnPaginationFilter page =
        after == null
            ? new ColumnPaginationFilter(limit, 0)
            : new ColumnPaginationFilter(
                limit, KeyRange.successorOf(WeiboKeys.inboxEntry(after.postId(), after.author())));
    List<Get> gets = new ArrayList<>(2);
    gets.add(new Get(row).addFamily(I).setFilter(page));
    if (withMarkers) {
      gets.add(new Get(row).addFamily(M));
    }
    try (Table t = connection.getTable(schema.inbox())) {
      Result[] r = t.get(gets);
      List<InboxCell> entries = new ArrayList<>();
      for (Cell c : r[0].rawCells()) {
        entries.add(
            new InboxCell(WeiboKeys.inboxEntryOf(CellUtil.cloneQualifier(c)), c.getTimestamp()));
      }
      List<MarkerCell> merged = new ArrayList<>();
      if (withMarkers) {
        for (Cell c : r[1].rawCells()) {
          merged.add(
              new MarkerCell(WeiboKeys.markerOf(CellUtil.cloneQualifier(c)), c.getTimestamp()));
        }
      }
      return new FeedRow(entries, merged);
    } catch (IOException e) {
      throw StorageException.of("read inbox", e);
    }
  }

  /**
   * Deletes exactly these cells of {@code owner}'s inbox row (entries and markers of accounts no
   * longer followed): each Delete names the cell's timestamp, so it can never hide a cell written
   * later with another timestamp.
   */
  void deleteExactly(String owner, List<InboxCell> entries, List<MarkerCell> markers) {
    if (entries.isEmpty() && markers.isEmpty()) {
      return;
    }
    Delete d = new Delete(WeiboKeys.user(owner));
    for (InboxCell c : entries) {
      d.addColumn(I, WeiboKeys.inboxEntry(c.entry().postId(), c.entry().author()), c.ts());
    }
    for (MarkerCell c : markers) {
      d.addColumn(M, WeiboKeys.marker(c.followee()), c.ts());
    }
    batch(schema.inbox(), List.of(d));
  }

  /**
   * Recent posts of read-merged accounts, newest first, up to {@code limit} each, from their
   * outboxes in one multi-get. {@code startQualifiers} gives each account's first qualifier
   * (inclusive) or null for its newest post.
   */
  List<List<Post>> outboxes(List<String> accounts, List<byte[]> startQualifiers, int limit) {
    List<Get> gets = new ArrayList<>(accounts.size());
    for (int i = 0; i < accounts.size(); i++) {
      byte[] start = startQualifiers.get(i);
      gets.add(
          new Get(WeiboKeys.user(accounts.get(i)))
              .addFamily(O)
              .setFilter(
                  start == null
                      ? new ColumnPaginationFilter(limit, 0)
                      : new ColumnPaginationFilter(limit, start)));
    }
    try (Table t = connection.getTable(schema.inbox())) {
      Result[] results = t.get(gets);
      List<List<Post>> out = new ArrayList<>(results.length);
      for (int i = 0; i < results.length; i++) {
        List<Post> posts = new ArrayList<>();
        for (Cell c : results[i].rawCells()) {
          posts.add(
              postOf(
                  accounts.get(i),
                  WeiboKeys.outboxPostIdOf(CellUtil.cloneQualifier(c)),
                  CellUtil.cloneValue(c)));
        }
        out.add(posts);
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read outboxes", e);
    }
  }

  /** Adds one post of {@code author} to every inbox in {@code owners}. */
  void addToInboxes(List<String> owners, String author, long postId) {
    byte[] q = WeiboKeys.inboxEntry(postId, author);
    List<Mutation> puts = new ArrayList<>(Math.min(owners.size(), WRITE_CHUNK));
    for (String owner : owners) {
      puts.add(new Put(WeiboKeys.user(owner)).addColumn(I, q, EMPTY));
      if (puts.size() == WRITE_CHUNK) {
        batch(schema.inbox(), puts);
        puts.clear();
      }
    }
    batch(schema.inbox(), puts);
  }

  /** Adds posts of one author to one inbox: one row mutation. */
  void addToInbox(String owner, String author, List<Long> postIds) {
    if (postIds.isEmpty()) {
      return;
    }
    Put p = new Put(WeiboKeys.user(owner));
    postIds.forEach(id -> p.addColumn(I, WeiboKeys.inboxEntry(id, author), EMPTY));
    batch(schema.inbox(), List.of(p));
  }

  /**
   * Marks that each of {@code owners} follows the read-merged account {@code followee}. Markers are
   * never deleted here: readers check the follow itself.
   */
  void addMarkers(List<String> owners, String followee, long now) {
    byte[] q = WeiboKeys.marker(followee);
    List<Mutation> ms = new ArrayList<>(owners.size());
    for (String owner : owners) {
      ms.add(new Put(WeiboKeys.user(owner)).addColumn(M, q, Bytes.toBytes(now)));
    }
    batch(schema.inbox(), ms);
  }

  /** Adds posts to an account's outbox (family o of its own inbox row). */
  void addToOutbox(String account, List<Post> posts) {
    if (posts.isEmpty()) {
      return;
    }
    Put p = new Put(WeiboKeys.user(account));
    for (Post post : posts) {
      p.addColumn(
          O,
          WeiboKeys.outboxEntry(Long.parseLong(post.id())),
          post.content().getBytes(StandardCharsets.UTF_8));
    }
    batch(schema.inbox(), List.of(p));
  }

  /**
   * The state of one following row. {@code version} is -1 on rows without one (absent, or written
   * by earlier versions, which count as following when they exist).
   */
  record RelationState(boolean following, long version) {}

  /** A transition whose effects may be unfinished: the following row {@code uid|1|target}. */
  record PendingTransition(String uid, String target, long version) {}

  private static final byte[] ONE = {1};
  private static final byte[] ZERO = {0};

  /** The states of the given following rows, in order: one multi-get. */
  List<RelationState> relationStates(List<byte[]> followingRows) {
    List<Get> gets = new ArrayList<>(followingRows.size());
    for (byte[] row : followingRows) {
      gets.add(new Get(row).addFamily(R));
    }
    try (Table t = connection.getTable(schema.relations())) {
      Result[] results = t.get(gets);
      List<RelationState> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(stateOf(r));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read relations", e);
    }
  }

  private static RelationState stateOf(Result r) {
    if (r.isEmpty()) {
      return new RelationState(false, -1);
    }
    byte[] v = r.getValue(R, VERSION);
    return new RelationState(isFollowing(r.getValue(R, FOLLOWS)), v == null ? -1 : Bytes.toLong(v));
  }

  /** A relation row whose state column is absent was written by an earlier version: following. */
  private static boolean isFollowing(byte[] state) {
    return state == null || state.length == 0 || state[0] != 0;
  }

  /**
   * Moves {@code uid|1|target} to {@code follow}: a checkAndMutate on the version read (or on its
   * absence), retried while other transitions of the pair win. Sets the state, a version that grows
   * with every transition of the pair ({@code max(clock, previous + 1)}, so two transitions in one
   * millisecond differ) and a pending column for that version. Returns the new version, or -1 if
   * the pair already was in that state.
   */
  long transition(String uid, String target, boolean follow, Clock clock) {
    byte[] row = WeiboKeys.relation(uid, WeiboKeys.FOLLOWING, target);
    try (Table t = connection.getTable(schema.relations())) {
      while (true) {
        RelationState current = stateOf(t.get(new Get(row).addFamily(R)));
        if (current.following() == follow) {
          return -1;
        }
        long now = clock.millis();
        long version = Math.max(now, current.version() + 1);
        Put put =
            new Put(row)
                .addColumn(R, FOLLOWS, follow ? ONE : ZERO)
                .addColumn(R, VERSION, Bytes.toBytes(version))
                .addColumn(PENDING, WeiboKeys.pending(version), EMPTY);
        if (follow) {
          put.addColumn(R, SINCE, Bytes.toBytes(now));
        }
        CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
        CheckAndMutate cam =
            current.version() < 0
                ? check.ifNotExists(R, VERSION).build(put)
                : check.ifEquals(R, VERSION, Bytes.toBytes(current.version())).build(put);
        if (t.checkAndMutate(cam).isSuccess()) {
          return version;
        }
      }
    } catch (IOException e) {
      throw StorageException.of("change relation", e);
    }
  }

  /**
   * Writes the follower row {@code target|2|follower} with cell timestamp {@code version}: never a
   * Delete, so whatever order the writes of several transitions arrive in, the newest wins.
   */
  void putFollower(String target, String follower, boolean follows, long version, long since) {
    batch(schema.relations(), List.of(followerPut(target, follower, follows, version, since)));
  }

  static Put followerPut(
      String target, String follower, boolean follows, long version, long since) {
    Put put =
        new Put(WeiboKeys.relation(target, WeiboKeys.FOLLOWER, follower))
            .addColumn(R, FOLLOWS, version, follows ? ONE : ZERO);
    if (follows) {
      put.addColumn(R, SINCE, version, Bytes.toBytes(since));
    }
    return put;
  }

  /**
   * The following row of a bulk import: following, with a version and its pending column (cleared
   * once the follower row and the counters are written).
   */
  static Put followingPut(String uid, String target, long version, long since) {
    return new Put(WeiboKeys.relation(uid, WeiboKeys.FOLLOWING, target))
        .addColumn(R, FOLLOWS, ONE)
        .addColumn(R, VERSION, Bytes.toBytes(version))
        .addColumn(R, SINCE, Bytes.toBytes(since))
        .addColumn(PENDING, WeiboKeys.pending(version), EMPTY);
  }

  /**
   * Marks these transitions' effects done. Each version has its own pending column, so deleting it
   * never touches the pending column of a later transition.
   */
  void clearPending(List<PendingTransition> done) {
    List<Mutation> ms = new ArrayList<>(done.size());
    for (PendingTransition p : done) {
      ms.add(
          new Delete(WeiboKeys.relation(p.uid(), WeiboKeys.FOLLOWING, p.target()))
              .addColumns(PENDING, WeiboKeys.pending(p.version())));
    }
    batch(schema.relations(), ms);
  }

  /**
   * Up to {@code limit} pending transitions, in row order, from {@code startRow} (inclusive) or
   * from the start: a scan of the pending family only.
   */
  List<PendingTransition> pending(byte[] startRow, int limit) {
    Scan scan = new Scan().addFamily(PENDING).setLimit(limit).setCaching(Math.min(limit, 1000));
    if (startRow != null) {
      scan.withStartRow(startRow, true);
    }
    List<PendingTransition> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.relations());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        KeyLayout.Key key = WeiboKeys.relationOf(r.getRow());
        for (Cell c : r.rawCells()) {
          out.add(
              new PendingTransition(
                  key.string("uid"),
                  key.string("other"),
                  WeiboKeys.pendingVersionOf(CellUtil.cloneQualifier(c))));
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read pending relation changes", e);
    }
  }

  /**
   * A recount of one kind of {@code uid}'s relation rows: how many are in state following, and the
   * newest version among all of them (following or not; -1 if none carries one).
   */
  record RelationCount(long following, long newestVersion) {}

  /**
   * Counts {@code uid}'s relation rows of one kind in state following, and finds the newest change
   * among all of them: the version column of following rows, the cell timestamp (= version) of
   * follower rows. Rows in state not following are read too, so a recent unfollow shows.
   */
  RelationCount countRelations(String uid, int kind) {
    Scan scan =
        WeiboKeys.RELATION
            .range(uid, kind)
            .toScan()
            .addColumn(R, FOLLOWS)
            .addColumn(R, VERSION)
            .addColumn(R, SINCE)
            .setCaching(1000);
    long following = 0;
    long newest = -1;
    try (Table t = connection.getTable(schema.relations());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        if (isFollowing(r.getValue(R, FOLLOWS))) {
          following++;
        }
        long version;
        if (kind == WeiboKeys.FOLLOWING) {
          byte[] v = r.getValue(R, VERSION);
          version = v == null ? -1 : Bytes.toLong(v);
        } else {
          Cell state = r.getColumnLatestCell(R, FOLLOWS);
          version = state == null ? -1 : state.getTimestamp();
        }
        newest = Math.max(newest, version);
      }
      return new RelationCount(following, newest);
    } catch (IOException e) {
      throw StorageException.of("count relations", e);
    }
  }

  /**
   * The stored bytes of {@code uid}'s counter of one relation kind (followers for {@link
   * WeiboKeys#FOLLOWER}, following for {@link WeiboKeys#FOLLOWING}); null if absent.
   */
  byte[] relationCounter(String uid, int kind) {
    byte[] qualifier = counterOf(kind);
    try (Table t = connection.getTable(schema.users())) {
      return t.get(new Get(WeiboKeys.user(uid)).addColumn(U, qualifier)).getValue(U, qualifier);
    } catch (IOException e) {
      throw StorageException.of("read user", e);
    }
  }

  /**
   * Sets one relation counter of {@code uid} to {@code value} if it still holds {@code expected}
   * (absent if null): an Increment landing after {@code expected} was read makes this fail rather
   * than be overwritten.
   */
  boolean setRelationCounter(String uid, int kind, byte[] expected, long value) {
    byte[] row = WeiboKeys.user(uid);
    byte[] qualifier = counterOf(kind);
    Put put = new Put(row).addColumn(U, qualifier, Bytes.toBytes(value));
    CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
    CheckAndMutate cam =
        expected == null
            ? check.ifNotExists(U, qualifier).build(put)
            : check.ifEquals(U, qualifier, expected).build(put);
    try (Table t = connection.getTable(schema.users())) {
      return t.checkAndMutate(cam).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("update counters", e);
    }
  }

  private static byte[] counterOf(int kind) {
    return kind == WeiboKeys.FOLLOWER ? FOLLOWERS : FOLLOWING;
  }

  /**
   * Scans relation rows of one kind keeping only those in state following (server side; rows of
   * earlier versions without a state pass).
   */
  private static Scan followingOnly(Scan scan) {
    SingleColumnValueFilter state =
        new SingleColumnValueFilter(R, FOLLOWS, CompareOperator.NOT_EQUAL, ZERO);
    state.setFilterIfMissing(false);
    return scan.addColumn(R, FOLLOWS).addColumn(R, SINCE).setFilter(state);
  }

  /**
   * Up to {@code limit} related user ids of one kind in state following, in id order, strictly
   * after {@code afterUid} if given.
   */
  List<String> related(String uid, int kind, String afterUid, int limit) {
    Scan scan =
        followingOnly(
            WeiboKeys.RELATION
                .range(uid, kind)
                .toScan()
                .setLimit(limit)
                .setCaching(Math.min(limit, 1000)));
    if (afterUid != null) {
      scan.withStartRow(WeiboKeys.relation(uid, kind, afterUid), false);
    }
    List<String> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.relations());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(WeiboKeys.otherOf(r.getRow()));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read relations", e);
    }
  }

  /**
   * Every related user id of one kind in state following, streamed in chunks (followers of a large
   * account).
   */
  void forEachRelated(String uid, int kind, int chunk, Consumer<List<String>> action) {
    Scan scan = followingOnly(WeiboKeys.RELATION.range(uid, kind).toScan().setCaching(chunk));
    List<String> buffer = new ArrayList<>(chunk);
    try (Table t = connection.getTable(schema.relations());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        buffer.add(WeiboKeys.otherOf(r.getRow()));
        if (buffer.size() == chunk) {
          action.accept(List.copyOf(buffer));
          buffer.clear();
        }
      }
      if (!buffer.isEmpty()) {
        action.accept(List.copyOf(buffer));
      }
    } catch (IOException e) {
      throw StorageException.of("read relations", e);
    }
  }

  /** A buffered writer for bulk relation rows (graph import). */
  BufferedMutator relationWriter() {
    try {
      return connection.getBufferedMutator(schema.relations());
    } catch (IOException e) {
      throw StorageException.of("open relation writer", e);
    }
  }

  private void batch(TableName table, List<? extends Mutation> mutations) {
    if (mutations.isEmpty()) {
      return;
    }
    try (Table t = connection.getTable(table)) {
      Object[] results = new Object[mutations.size()];
      t.batch(mutations, results);
    } catch (IOException e) {
      throw StorageException.of("write " + table.getQualifierAsString(), e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("write " + table.getQualifierAsString(), e);
    }
  }

  private static long counter(Result r, byte[] qualifier) {
    byte[] v = r.getValue(U, qualifier);
    return v == null ? 0 : Bytes.toLong(v);
  }
}
