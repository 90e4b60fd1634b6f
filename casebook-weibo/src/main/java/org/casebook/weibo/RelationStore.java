package org.casebook.weibo;

import static org.casebook.weibo.WeiboSchema.FOLLOWS;
import static org.casebook.weibo.WeiboSchema.PENDING;
import static org.casebook.weibo.WeiboSchema.R;
import static org.casebook.weibo.WeiboSchema.SINCE;
import static org.casebook.weibo.WeiboSchema.VERSION;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;

/**
 * The rows of {@code weibo:relations}: per follow, the following row {@code uid|1|target} (the
 * truth: state, version, follow time, changed only by a conditional transition, and a pending
 * column per version until that change's effects are written) and the derived follower row {@code
 * target|2|uid} (state and follow time, written with cell timestamp = version).
 */
final class RelationStore {
  private static final byte[] ONE = {1};
  private static final byte[] ZERO = {0};
  private static final byte[] EMPTY = new byte[0];

  private final Connection connection;
  private final TableName table;

  RelationStore(Connection connection, WeiboSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.table = schema.relations();
  }

  /** Whether {@code uid} follows each of {@code targets}, in order: one multi-get. */
  List<RelationState> states(String uid, List<String> targets) {
    return states(targets.stream().map(target -> new Follow(uid, target)).toList());
  }

  /** The state of each pair's following row, in order: one multi-get. */
  List<RelationState> states(List<Follow> pairs) {
    List<Get> gets = new ArrayList<>(pairs.size());
    for (Follow f : pairs) {
      gets.add(
          new Get(WeiboKeys.relation(f.follower(), RelationKind.FOLLOWING, f.followee()))
              .addFamily(R));
    }
    try (Table t = connection.getTable(table)) {
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

  /** Whether {@code uid} follows {@code target}. */
  RelationState state(String uid, String target) {
    return states(uid, List.of(target)).get(0);
  }

  private static RelationState stateOf(Result r) {
    if (r.isEmpty()) {
      return RelationState.ABSENT;
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
    byte[] row = WeiboKeys.relation(uid, RelationKind.FOLLOWING, target);
    try (Table t = connection.getTable(table)) {
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
    batch(List.of(followerPut(target, follower, follows, version, since)));
  }

  private static Put followerPut(
      String target, String follower, boolean follows, long version, long since) {
    Put put =
        new Put(WeiboKeys.relation(target, RelationKind.FOLLOWER, follower))
            .addColumn(R, FOLLOWS, version, follows ? ONE : ZERO);
    if (follows) {
      put.addColumn(R, SINCE, version, Bytes.toBytes(since));
    }
    return put;
  }

  /**
   * Writes the rows of imported follows, not conditionally (a bulk load, not for racing live
   * follows of the same pairs): each following row in state following with its version and pending
   * column (cleared once the counters are written too), and its follower row; all written when this
   * returns.
   */
  void writeImported(List<PendingChange> follows, long since) {
    List<Put> puts = new ArrayList<>(2 * follows.size());
    for (PendingChange f : follows) {
      puts.add(
          new Put(WeiboKeys.relation(f.uid(), RelationKind.FOLLOWING, f.target()))
              .addColumn(R, FOLLOWS, ONE)
              .addColumn(R, VERSION, Bytes.toBytes(f.version()))
              .addColumn(R, SINCE, Bytes.toBytes(since))
              .addColumn(PENDING, WeiboKeys.pending(f.version()), EMPTY));
      puts.add(followerPut(f.target(), f.uid(), true, f.version(), since));
    }
    batch(puts);
  }

  /**
   * Marks these transitions' effects done. Each version has its own pending column, so deleting it
   * never touches the pending column of a later transition.
   */
  void clearPending(List<PendingChange> done) {
    List<Mutation> ms = new ArrayList<>(done.size());
    for (PendingChange p : done) {
      ms.add(
          new Delete(WeiboKeys.relation(p.uid(), RelationKind.FOLLOWING, p.target()))
              .addColumns(PENDING, WeiboKeys.pending(p.version())));
    }
    batch(ms);
  }

  /**
   * Up to {@code limit} pending transitions, in row order, of the pairs after the pair of {@code
   * after} (or from the start): a scan of the pending family only.
   */
  List<PendingChange> pending(PendingChange after, int limit) {
    Scan scan = new Scan().addFamily(PENDING).setLimit(limit).setCaching(Math.min(limit, 1000));
    if (after != null) {
      scan.withStartRow(
          KeyRange.successorOf(
              WeiboKeys.relation(after.uid(), RelationKind.FOLLOWING, after.target())),
          true);
    }
    List<PendingChange> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        KeyLayout.Key key = WeiboKeys.relationOf(r.getRow());
        for (Cell c : r.rawCells()) {
          out.add(
              new PendingChange(
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
   * Counts {@code uid}'s relation rows of one kind in state following, and finds the newest change
   * among all of them: the version column of following rows, the cell timestamp (= version) of
   * follower rows. Rows in state not following are read too, so a recent unfollow shows.
   */
  RelationCount count(String uid, RelationKind kind) {
    Scan scan =
        WeiboKeys.RELATION
            .range(uid, WeiboKeys.code(kind))
            .toScan()
            .addColumn(R, FOLLOWS)
            .addColumn(R, VERSION)
            .addColumn(R, SINCE)
            .setCaching(1000);
    long following = 0;
    long newest = -1;
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        if (isFollowing(r.getValue(R, FOLLOWS))) {
          following++;
        }
        long version;
        if (kind == RelationKind.FOLLOWING) {
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
   * Up to {@code limit} related user ids of one kind in state following, in id order, strictly
   * after {@code afterUid} if given.
   */
  List<String> related(String uid, RelationKind kind, String afterUid, int limit) {
    Scan scan =
        followingOnly(
            WeiboKeys.RELATION
                .range(uid, WeiboKeys.code(kind))
                .toScan()
                .setLimit(limit)
                .setCaching(Math.min(limit, 1000)));
    if (afterUid != null) {
      scan.withStartRow(WeiboKeys.relation(uid, kind, afterUid), false);
    }
    List<String> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
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
   * Every related user id of one kind in state following, streamed in chunks of {@code chunk}
   * (followers of a large account).
   */
  void forEachRelated(String uid, RelationKind kind, int chunk, Consumer<List<String>> action) {
    Scan scan =
        followingOnly(
            WeiboKeys.RELATION.range(uid, WeiboKeys.code(kind)).toScan().setCaching(chunk));
    List<String> buffer = new ArrayList<>(chunk);
    try (Table t = connection.getTable(table);
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

  /**
   * Keeps relation rows in state following only (server side; rows of earlier versions without a
   * state pass).
   */
  private static Scan followingOnly(Scan scan) {
    SingleColumnValueFilter state =
        new SingleColumnValueFilter(R, FOLLOWS, CompareOperator.NOT_EQUAL, ZERO);
    state.setFilterIfMissing(false);
    return scan.addColumn(R, FOLLOWS).addColumn(R, SINCE).setFilter(state);
  }

  private void batch(List<? extends Mutation> mutations) {
    WeiboStore.batch(connection, table, mutations);
  }
}
