package org.casebook.weibo;

import static org.casebook.weibo.WeiboSchema.FOLLOWERS;
import static org.casebook.weibo.WeiboSchema.FOLLOWING;
import static org.casebook.weibo.WeiboSchema.POST_COUNT;
import static org.casebook.weibo.WeiboSchema.STATE;
import static org.casebook.weibo.WeiboSchema.U;

import java.io.IOException;
import java.util.Objects;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * The rows of {@code weibo:users}: one per account, with its counters ({@code u:followers}, {@code
 * u:following}, {@code u:posts}, 8-byte longs changed by Increment) and its fan-out state ({@code
 * u:state}, one byte; absent while it fans out on write).
 */
final class UserStore {
  private static final byte WRITE = 0;
  private static final byte PROMOTING = 1;
  private static final byte READ = 2;

  /** u:x + post id: a deleted post already taken off the post count. */
  private static final byte[] DELETED_POST = Bytes.toBytes("x");

  private final Connection connection;
  private final TableName table;

  UserStore(Connection connection, WeiboSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.table = schema.users();
  }

  /** The counters and fan-out state of {@code uid} (zeros and WRITE for an unknown user). */
  Account account(String uid) {
    try (Table t = connection.getTable(table)) {
      Result r = t.get(new Get(WeiboKeys.user(uid)).addFamily(U));
      return new Account(
          counter(r, FOLLOWERS),
          counter(r, FOLLOWING),
          counter(r, POST_COUNT),
          fanOutOf(r.getValue(U, STATE)));
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
    try (Table t = connection.getTable(table)) {
      Result r = t.increment(inc);
      return counter(r, FOLLOWERS);
    } catch (IOException e) {
      throw StorageException.of("update counters", e);
    }
  }

  /**
   * Takes one off {@code uid}'s post count for the deleted post {@code postId}, once: the decrement
   * and a marker naming the post are one increment under the check that the marker is absent, so a
   * rerun of the delete, or a second delete racing it, never counts the post twice. The marker
   * stays (an 8-byte cell per deleted post): removing it would let a straggling second delete count
   * the post again. Returns whether this call counted it.
   */
  boolean uncountDeletedPost(String uid, long postId) {
    byte[] row = WeiboKeys.user(uid);
    byte[] marker = deletedMarker(postId);
    try (Table t = connection.getTable(table)) {
      // One Increment of both cells, the marker (to 1) and the count (by -1). The marker must not
      // be
      // empty: HBase's "value absent" check also passes on a cell with an empty value.
      Increment m = new Increment(row).addColumn(U, marker, 1).addColumn(U, POST_COUNT, -1);
      return t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(U, marker).build(m))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("count a deleted post", e);
    }
  }

  private static byte[] deletedMarker(long postId) {
    return Bytes.add(DELETED_POST, Bytes.toBytes(postId));
  }

  /**
   * Moves {@code uid} from WRITE to PROMOTING, only if it still fans out on write (its state is
   * absent). Returns whether this call moved it.
   */
  boolean startPromotion(String uid) {
    byte[] row = WeiboKeys.user(uid);
    Put put = new Put(row).addColumn(U, STATE, new byte[] {PROMOTING});
    try (Table t = connection.getTable(table)) {
      return t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(U, STATE).build(put))
          .isSuccess();
    } catch (IOException e) {
      throw StorageException.of("update fan-out state", e);
    }
  }

  /** Moves {@code uid} to READ, whatever it was: the state never moves back. */
  void finishPromotion(String uid) {
    try (Table t = connection.getTable(table)) {
      t.put(new Put(WeiboKeys.user(uid)).addColumn(U, STATE, new byte[] {READ}));
    } catch (IOException e) {
      throw StorageException.of("update fan-out state", e);
    }
  }

  /**
   * {@code uid}'s counter of one relation kind (followers for {@link RelationKind#FOLLOWER},
   * following for {@link RelationKind#FOLLOWING}); empty if absent.
   */
  OptionalLong relationCounter(String uid, RelationKind kind) {
    byte[] qualifier = counterOf(kind);
    try (Table t = connection.getTable(table)) {
      byte[] v = t.get(new Get(WeiboKeys.user(uid)).addColumn(U, qualifier)).getValue(U, qualifier);
      return v == null ? OptionalLong.empty() : OptionalLong.of(Bytes.toLong(v));
    } catch (IOException e) {
      throw StorageException.of("read user", e);
    }
  }

  /**
   * Sets one relation counter of {@code uid} to {@code value} if it still holds {@code expected}
   * (absent if empty): an Increment landing after {@code expected} was read makes this fail rather
   * than be overwritten.
   */
  boolean setRelationCounter(String uid, RelationKind kind, OptionalLong expected, long value) {
    byte[] row = WeiboKeys.user(uid);
    byte[] qualifier = counterOf(kind);
    Put put = new Put(row).addColumn(U, qualifier, Bytes.toBytes(value));
    CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
    CheckAndMutate cam =
        expected.isEmpty()
            ? check.ifNotExists(U, qualifier).build(put)
            : check.ifEquals(U, qualifier, Bytes.toBytes(expected.getAsLong())).build(put);
    try (Table t = connection.getTable(table)) {
      return t.checkAndMutate(cam).isSuccess();
    } catch (IOException e) {
      throw StorageException.of("update counters", e);
    }
  }

  private static byte[] counterOf(RelationKind kind) {
    return kind == RelationKind.FOLLOWER ? FOLLOWERS : FOLLOWING;
  }

  private static long counter(Result r, byte[] qualifier) {
    byte[] v = r.getValue(U, qualifier);
    return v == null ? 0 : Bytes.toLong(v);
  }

  private static FanOut fanOutOf(byte[] state) {
    if (state == null || state.length == 0) {
      return FanOut.WRITE;
    }
    return switch (state[0]) {
      case WRITE -> FanOut.WRITE;
      case PROMOTING -> FanOut.PROMOTING;
      case READ -> FanOut.READ;
      default -> throw new IllegalStateException("unknown fan-out state " + state[0]);
    };
  }
}
