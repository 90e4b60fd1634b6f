package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.BLOCKED;
import static org.casebook.frontier.FrontierSchema.C;
import static org.casebook.frontier.FrontierSchema.COMPLETED;
import static org.casebook.frontier.FrontierSchema.CREATED;
import static org.casebook.frontier.FrontierSchema.D;
import static org.casebook.frontier.FrontierSchema.DELAY;
import static org.casebook.frontier.FrontierSchema.DUE_AT;
import static org.casebook.frontier.FrontierSchema.F;
import static org.casebook.frontier.FrontierSchema.H;
import static org.casebook.frontier.FrontierSchema.ID;
import static org.casebook.frontier.FrontierSchema.INACTIVE;
import static org.casebook.frontier.FrontierSchema.INFO;
import static org.casebook.frontier.FrontierSchema.K;
import static org.casebook.frontier.FrontierSchema.KEY;
import static org.casebook.frontier.FrontierSchema.KIND;
import static org.casebook.frontier.FrontierSchema.LAST;
import static org.casebook.frontier.FrontierSchema.LIMIT;
import static org.casebook.frontier.FrontierSchema.MARK;
import static org.casebook.frontier.FrontierSchema.NEXT;
import static org.casebook.frontier.FrontierSchema.P;
import static org.casebook.frontier.FrontierSchema.PRIORITY;
import static org.casebook.frontier.FrontierSchema.QUEUED;
import static org.casebook.frontier.FrontierSchema.S;
import static org.casebook.frontier.FrontierSchema.SEQUENCE;
import static org.casebook.frontier.FrontierSchema.U;
import static org.casebook.frontier.FrontierSchema.UNTIL;
import static org.casebook.frontier.FrontierSchema.VERSION;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyRange;

/**
 * Every HBase read and write of the frontier. Multi-row changes are ordered so that a crash in
 * between leaves at most a hint (an extra due row, an orphan queued row) that later reads clean up,
 * never a URL that is known but can no longer be handed out; single-row decisions (is this URL new,
 * who hands out this host now, did the due time move) are check-and-mutate.
 */
final class FrontierStore {
  /** Rows per delete batch when a queue or a channel is purged. */
  private static final int DELETE_BATCH = 1000;

  private final Connection connection;
  private final FrontierSchema schema;

  FrontierStore(Connection connection, FrontierSchema schema) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.schema = Objects.requireNonNull(schema, "schema is null");
  }

  FrontierSchema schema() {
    return schema;
  }

  // ---- values read back

  /** A host row: its queue key, settings and running counters (null: absent). */
  record HostRow(
      byte[] hostId,
      String key,
      Long delayMs,
      long blockedUntil,
      int limit,
      long last,
      Long next,
      long queued,
      long completed) {}

  /** A known URL: its version, info, queued row priority (null: done) and due time. */
  record Status(long version, byte[] info, Long priority, long dueMs) {
    boolean queued() {
      return priority != null;
    }
  }

  /** A queued URL row as scanned. */
  record Queued(
      byte[] row, long priority, byte[] urlId, byte[] info, long version, long dueMs, long until) {}

  // ---- channels table

  Optional<Channel> channel(String crawlId) {
    try (Table t = connection.getTable(schema.channels())) {
      return Optional.ofNullable(channelOf(crawlId, t.get(new Get(nameRow(crawlId)).addFamily(C))));
    } catch (IOException e) {
      throw storage("read channel " + crawlId, e);
    }
  }

  private static byte[] nameRow(String crawlId) {
    return FrontierKeys.CHANNEL_NAME.encode(crawlId);
  }

  private static Channel channelOf(String crawlId, Result r) {
    if (r.isEmpty() || r.getValue(C, ID) == null) {
      return null;
    }
    return new Channel(
        crawlId,
        Bytes.toLong(r.getValue(C, ID)),
        ChannelKind.valueOf(Bytes.toString(r.getValue(C, KIND))),
        Bytes.toLong(r.getValue(C, DELAY)),
        Bytes.toLong(r.getValue(C, CREATED)));
  }

  /** Creates the channel unless it exists; answers the one stored (the caller's or an earlier). */
  Channel createChannel(String crawlId, ChannelKind kind, long delayMs, long now) {
    try (Table t = connection.getTable(schema.channels())) {
      long id = t.incrementColumnValue(globalRow(), C, SEQUENCE, 1);
      Put p =
          new Put(nameRow(crawlId))
              .addColumn(C, ID, Bytes.toBytes(id))
              .addColumn(C, KIND, Bytes.toBytes(kind.name()))
              .addColumn(C, DELAY, Bytes.toBytes(delayMs))
              .addColumn(C, CREATED, Bytes.toBytes(now));
      t.checkAndMutate(CheckAndMutate.newBuilder(p.getRow()).ifNotExists(C, ID).build(p));
      return channelOf(crawlId, t.get(new Get(p.getRow()).addFamily(C)));
    } catch (IOException e) {
      throw storage("create channel " + crawlId, e);
    }
  }

  /** Changes a channel's default delay if it is still the same channel. */
  boolean setChannelDelay(Channel c, long delayMs) {
    byte[] row = nameRow(c.crawlId());
    Put p = new Put(row).addColumn(C, DELAY, Bytes.toBytes(delayMs));
    return check(
        schema.channels(),
        CheckAndMutate.newBuilder(row).ifEquals(C, ID, Bytes.toBytes(c.id())).build(p),
        "set channel delay");
  }

  /** Channels in crawl ID order after {@code afterRow} (exclusive; null = from the start). */
  List<Channel> channels(byte[] afterRow, int limit) {
    Scan scan = new Scan().addFamily(C);
    if (afterRow != null) {
      scan.withStartRow(afterRow, false);
    }
    List<Channel> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.channels());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        if (r.getValue(C, ID) == null) {
          continue;
        }
        out.add(channelOf(FrontierKeys.CHANNEL_NAME.decode(r.getRow()).string("crawlId"), r));
        if (out.size() >= limit) {
          break;
        }
      }
      return out;
    } catch (IOException e) {
      throw storage("list channels", e);
    }
  }

  /**
   * Removes the name of {@code c} (if it still names that channel) and marks its number for the
   * background purge, in one row of the global record first, so a crash between leaves a purge that
   * finds nothing rather than rows nobody purges.
   */
  boolean deleteChannel(Channel c, long now) {
    try (Table t = connection.getTable(schema.channels())) {
      t.put(
          new Put(globalRow()).addColumn(P, FrontierKeys.PURGE.encode(c.id()), Bytes.toBytes(now)));
      byte[] row = nameRow(c.crawlId());
      return t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifEquals(C, ID, Bytes.toBytes(c.id()))
                  .build(new Delete(row)))
          .isSuccess();
    } catch (IOException e) {
      throw storage("delete channel " + c.crawlId(), e);
    }
  }

  /** Channel numbers waiting to be purged, with the time they were deleted. */
  Map<Long, Long> purges() {
    try (Table t = connection.getTable(schema.channels())) {
      Result r = t.get(new Get(globalRow()).addFamily(P));
      Map<Long, Long> out = new HashMap<>();
      for (Cell c : r.rawCells()) {
        out.put(
            FrontierKeys.PURGE.decode(CellUtil.cloneQualifier(c)).number("channel"),
            Bytes.toLong(CellUtil.cloneValue(c)));
      }
      return out;
    } catch (IOException e) {
      throw storage("read purges", e);
    }
  }

  /** Deletes every row of channel {@code id} in every table, then its purge mark. */
  long purgeChannel(long id) {
    KeyRange range = FrontierKeys.CHANNEL.range(id);
    long rows = 0;
    rows += deleteRange(schema.urls(), range, null);
    rows += deleteRange(schema.known(), range, null);
    rows += deleteRange(schema.due(), range, null);
    rows += deleteRange(schema.hosts(), range, null);
    try (Table t = connection.getTable(schema.channels())) {
      t.delete(new Delete(globalRow()).addColumns(P, FrontierKeys.PURGE.encode(id)));
    } catch (IOException e) {
      throw storage("clear purge mark", e);
    }
    return rows;
  }

  /** The row holding the channel number sequence, the active switch and purge marks. */
  private static byte[] globalRow() {
    // The empty crawl ID: never a channel's (URLFrontier reads it as DEFAULT).
    return FrontierKeys.CHANNEL_NAME.encode("");
  }

  boolean active() {
    try (Table t = connection.getTable(schema.channels())) {
      return !t.exists(new Get(globalRow()).addColumn(C, INACTIVE));
    } catch (IOException e) {
      throw storage("read active", e);
    }
  }

  void setActive(boolean active) {
    try (Table t = connection.getTable(schema.channels())) {
      if (active) {
        t.delete(new Delete(globalRow()).addColumns(C, INACTIVE));
      } else {
        t.put(new Put(globalRow()).addColumn(C, INACTIVE, new byte[] {1}));
      }
    } catch (IOException e) {
      throw storage("set active", e);
    }
  }

  // ---- hosts table

  static byte[] hostRow(long channel, byte[] hostId) {
    return FrontierKeys.HOST.encode(channel, hostId);
  }

  Map<HostKey, HostRow> hosts(long channel, List<byte[]> hostIds) {
    List<Get> gets = new ArrayList<>(hostIds.size());
    for (byte[] h : hostIds) {
      gets.add(new Get(hostRow(channel, h)).addFamily(H));
    }
    Map<HostKey, HostRow> out = new HashMap<>();
    try (Table t = connection.getTable(schema.hosts())) {
      Result[] results = t.get(gets);
      for (int i = 0; i < results.length; i++) {
        HostRow h = hostOf(hostIds.get(i), results[i]);
        if (h != null) {
          out.put(new HostKey(hostIds.get(i)), h);
        }
      }
      return out;
    } catch (IOException e) {
      throw storage("read hosts", e);
    }
  }

  Optional<HostRow> host(long channel, byte[] hostId) {
    return Optional.ofNullable(hosts(channel, List.of(hostId)).get(new HostKey(hostId)));
  }

  static HostRow hostOf(byte[] hostId, Result r) {
    if (r.isEmpty()) {
      return null;
    }
    byte[] key = r.getValue(H, KEY);
    return new HostRow(
        hostId,
        key == null ? Bytes.toHex(hostId) : Bytes.toString(key),
        longOrNull(r.getValue(H, DELAY)),
        longOr(r.getValue(H, BLOCKED), 0),
        (int) longOr(r.getValue(H, LIMIT), 0),
        longOr(r.getValue(H, LAST), 0),
        longOrNull(r.getValue(H, NEXT)),
        longOr(r.getValue(H, QUEUED), 0),
        longOr(r.getValue(H, COMPLETED), 0));
  }

  /** Host rows of a channel after {@code afterHostId} (exclusive; null = first), settings only. */
  List<HostRow> hostPage(long channel, byte[] afterHostId, int limit, Predicate<HostRow> keep) {
    KeyRange range = FrontierKeys.CHANNEL.range(channel);
    Scan scan =
        new Scan().withStopRow(range.stop()).addFamily(H).setCaching(Math.min(limit + 1, 1000));
    if (afterHostId == null) {
      scan.withStartRow(range.start());
    } else {
      scan.withStartRow(hostRow(channel, afterHostId), false);
    }
    List<HostRow> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.hosts());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        if (FrontierKeys.isChannelRow(r.getRow())) {
          continue;
        }
        HostRow h = hostOf(FrontierKeys.hostIdOf(r.getRow()), r);
        if (keep.test(h)) {
          out.add(h);
          if (out.size() >= limit) {
            break;
          }
        }
      }
      return out;
    } catch (IOException e) {
      throw storage("list hosts", e);
    }
  }

  /** The channel's own counters: queued and completed. */
  long[] channelCounters(long channel) {
    try (Table t = connection.getTable(schema.hosts())) {
      Result r = t.get(new Get(FrontierKeys.CHANNEL.encode(channel)).addFamily(H));
      return new long[] {longOr(r.getValue(H, QUEUED), 0), longOr(r.getValue(H, COMPLETED), 0)};
    } catch (IOException e) {
      throw storage("read channel counters", e);
    }
  }

  /** Daily counters of a channel (hostId null) or a host: day → counter → value. */
  Map<Integer, Map<String, Long>> dailyCounters(long channel, byte[] hostId) {
    byte[] row = hostId == null ? FrontierKeys.CHANNEL.encode(channel) : hostRow(channel, hostId);
    Map<Integer, Map<String, Long>> out = new HashMap<>();
    try (Table t = connection.getTable(schema.hosts())) {
      Result r = t.get(new Get(row).addFamily(S));
      for (Cell c : r.rawCells()) {
        var q = FrontierKeys.DAY_COUNTER.decode(CellUtil.cloneQualifier(c));
        out.computeIfAbsent(q.integer("day"), d -> new HashMap<>())
            .put(q.string("counter"), Bytes.toLong(CellUtil.cloneValue(c)));
      }
      return out;
    } catch (IOException e) {
      throw storage("read daily counters", e);
    }
  }

  /**
   * Adds counter deltas: running counters ({@code q}, {@code c}) in family h, daily ones in family
   * s, one Increment per row.
   */
  Object[] addCounters(List<Increment> increments) {
    if (increments.isEmpty()) {
      return new Object[0];
    }
    return batch(schema.hosts(), increments, "count");
  }

  /** The running queued count an Increment answered (null if it did not touch it). */
  static Long queuedAfter(Object incrementResult) {
    if (incrementResult instanceof Result r && r.getValue(H, QUEUED) != null) {
      return Bytes.toLong(r.getValue(H, QUEUED));
    }
    return null;
  }

  static Increment counters(
      byte[] row, int day, long queued, long completed, Map<String, Long> daily) {
    Increment inc = new Increment(row);
    // No answer unless a caller asks for one (Intake reads a host's falling queued count): every
    // other answer would be built, sent and dropped.
    inc.setReturnResults(false);
    if (queued != 0) {
      inc.addColumn(H, QUEUED, queued);
    }
    if (completed != 0) {
      inc.addColumn(H, COMPLETED, completed);
    }
    for (Map.Entry<String, Long> e : daily.entrySet()) {
      if (e.getValue() != 0) {
        inc.addColumn(S, FrontierKeys.DAY_COUNTER.encode(day, e.getKey()), e.getValue());
      }
    }
    return inc;
  }

  /**
   * For each host: moves its next-due time to {@code due} if it has none or a later one (writing
   * the queue key too); answers which moved. The caller then writes their due rows.
   */
  List<Boolean> moveNextEarlier(
      long channel, List<byte[]> hostIds, List<String> keys, List<Long> dues) {
    List<CheckAndMutate> cams = new ArrayList<>(hostIds.size());
    for (int i = 0; i < hostIds.size(); i++) {
      byte[] row = hostRow(channel, hostIds.get(i));
      SingleColumnValueFilter laterOrMissing =
          new SingleColumnValueFilter(
              H, NEXT, CompareOperator.GREATER, new BinaryComparator(Bytes.toBytes(dues.get(i))));
      laterOrMissing.setFilterIfMissing(false);
      laterOrMissing.setLatestVersionOnly(true);
      Put p =
          new Put(row)
              .addColumn(H, NEXT, Bytes.toBytes(dues.get(i)))
              .addColumn(H, KEY, Bytes.toBytes(keys.get(i)));
      cams.add(CheckAndMutate.newBuilder(row).ifMatches(laterOrMissing).build(p));
    }
    return checkAll(schema.hosts(), cams, "schedule hosts");
  }

  /**
   * Claims a host for a hand-out: if its next-due time is still {@code expectedNext} (null: none)
   * and its last hand-out still {@code expectedLast} (0: none), sets last = now and next = {@code
   * newNext}. Only one caller wins, so a host is never handed out twice within its delay.
   */
  static CheckAndMutate claim(long channel, HostRow h, long now, long newNext) {
    byte[] row = hostRow(channel, h.hostId());
    FilterList both =
        new FilterList(
            FilterList.Operator.MUST_PASS_ALL,
            equalsOrMissing(NEXT, h.next() == null ? null : Bytes.toBytes(h.next())),
            equalsOrMissing(LAST, h.last() == 0 ? null : Bytes.toBytes(h.last())));
    Put p =
        new Put(row)
            .addColumn(H, LAST, Bytes.toBytes(now))
            .addColumn(H, NEXT, Bytes.toBytes(newNext));
    return CheckAndMutate.newBuilder(row).ifMatches(both).build(p);
  }

  /**
   * Moves (or with {@code newNext} null removes) a host's next-due time if it is still {@code
   * expected}.
   */
  static CheckAndMutate moveNext(long channel, byte[] hostId, long expected, Long newNext) {
    byte[] row = hostRow(channel, hostId);
    CheckAndMutate.Builder b =
        CheckAndMutate.newBuilder(row).ifEquals(H, NEXT, Bytes.toBytes(expected));
    if (newNext == null) {
      return b.build(new Delete(row).addColumns(H, NEXT));
    }
    return b.build(new Put(row).addColumn(H, NEXT, Bytes.toBytes(newNext)));
  }

  /** Sets a host's next-due time if it has none (a due row found for a host that lost its time). */
  static CheckAndMutate adoptNext(long channel, byte[] hostId, long due) {
    byte[] row = hostRow(channel, hostId);
    return CheckAndMutate.newBuilder(row)
        .ifNotExists(H, NEXT)
        .build(new Put(row).addColumn(H, NEXT, Bytes.toBytes(due)));
  }

  private static Filter equalsOrMissing(byte[] qualifier, byte[] value) {
    if (value == null) {
      SingleColumnValueFilter missing =
          new SingleColumnValueFilter(H, qualifier, CompareOperator.EQUAL, new byte[0]);
      // Passes only rows without the column: an empty value is never written.
      missing.setFilterIfMissing(false);
      return missing;
    }
    SingleColumnValueFilter eq =
        new SingleColumnValueFilter(
            H, qualifier, CompareOperator.EQUAL, new BinaryComparator(value));
    eq.setFilterIfMissing(true);
    eq.setLatestVersionOnly(true);
    return eq;
  }

  List<Boolean> checkHosts(List<CheckAndMutate> cams, String what) {
    return checkAll(schema.hosts(), cams, what);
  }

  void setHostSettings(
      long channel, byte[] hostId, String key, Map<byte[], Long> values, List<byte[]> cleared) {
    byte[] row = hostRow(channel, hostId);
    List<Row> ops = new ArrayList<>();
    Put p = new Put(row).addColumn(H, KEY, Bytes.toBytes(key));
    values.forEach((q, v) -> p.addColumn(H, q, Bytes.toBytes(v)));
    ops.add(p);
    if (!cleared.isEmpty()) {
      Delete d = new Delete(row);
      cleared.forEach(q -> d.addColumns(H, q));
      ops.add(d);
    }
    batch(schema.hosts(), ops, "set host settings");
  }

  void putHostKeys(long channel, Map<HostKey, String> keys) {
    if (keys.isEmpty()) {
      return;
    }
    List<Row> puts = new ArrayList<>();
    keys.forEach(
        (h, k) ->
            puts.add(new Put(hostRow(channel, h.bytes())).addColumn(H, KEY, Bytes.toBytes(k))));
    batch(schema.hosts(), puts, "write host keys");
  }

  void deleteHost(long channel, byte[] hostId) {
    try (Table t = connection.getTable(schema.hosts())) {
      t.delete(new Delete(hostRow(channel, hostId)));
    } catch (IOException e) {
      throw storage("delete host", e);
    }
  }

  // ---- due table

  static byte[] dueRow(long channel, long due, byte[] hostId) {
    return FrontierKeys.DUE.encode(channel, due, hostId);
  }

  static Put duePut(long channel, long due, byte[] hostId) {
    return new Put(dueRow(channel, due, hostId)).addColumn(D, MARK, new byte[0]);
  }

  static Delete dueDelete(long channel, long due, byte[] hostId) {
    return new Delete(dueRow(channel, due, hostId));
  }

  void writeDue(List<? extends Row> ops) {
    if (!ops.isEmpty()) {
      batch(schema.due(), ops, "write due rows");
    }
  }

  /** A due row: a host and the time it was due. */
  record Due(byte[] row, long due, byte[] hostId) {}

  /**
   * Due rows of a channel with due ≤ {@code until}, after {@code afterRow} (exclusive; null =
   * first).
   */
  List<Due> due(long channel, long until, byte[] afterRow, int limit) {
    byte[] start = afterRow == null ? FrontierKeys.DUE.prefix(channel) : afterRow;
    byte[] stop = FrontierKeys.DUE.prefix(channel, until + 1);
    Scan scan =
        new Scan()
            .withStartRow(start, afterRow == null)
            .withStopRow(stop)
            .addFamily(D)
            .setCaching(Math.min(limit, 1000))
            .setLimit(limit);
    List<Due> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.due());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        var k = FrontierKeys.DUE.decode(r.getRow());
        out.add(new Due(r.getRow(), k.number("due"), (byte[]) k.get("hostId")));
      }
      return out;
    } catch (IOException e) {
      throw storage("scan due hosts", e);
    }
  }

  /** Whether the due row of {@code (due, host)} exists (the start-up check of next-due times). */
  List<Boolean> dueExists(long channel, List<HostRow> hosts) {
    List<Get> gets = new ArrayList<>();
    for (HostRow h : hosts) {
      gets.add(new Get(dueRow(channel, h.next(), h.hostId())));
    }
    try (Table t = connection.getTable(schema.due())) {
      boolean[] e = t.exists(gets);
      List<Boolean> out = new ArrayList<>(e.length);
      for (boolean b : e) {
        out.add(b);
      }
      return out;
    } catch (IOException e) {
      throw storage("check due rows", e);
    }
  }

  // ---- known table

  static byte[] knownRow(long channel, byte[] hostId, byte[] urlId) {
    return FrontierKeys.KNOWN.encode(channel, hostId, urlId);
  }

  List<Status> statuses(List<byte[]> rows) {
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(new Get(r).addFamily(K));
    }
    try (Table t = connection.getTable(schema.known())) {
      Result[] results = t.get(gets);
      List<Status> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(statusOf(r));
      }
      return out;
    } catch (IOException e) {
      throw storage("read URLs", e);
    }
  }

  static Status statusOf(Result r) {
    if (r.isEmpty() || r.getValue(K, VERSION) == null) {
      return null;
    }
    return new Status(
        Bytes.toLong(r.getValue(K, VERSION)),
        r.getValue(K, INFO),
        longOrNull(r.getValue(K, PRIORITY)),
        longOr(r.getValue(K, DUE_AT), 0));
  }

  /**
   * The write of a URL's status: if it is still at {@code expectedVersion} (null: unknown), the new
   * version, info and (when queued) priority and due time.
   */
  static CheckAndMutate statusChange(
      byte[] row, Long expectedVersion, long version, byte[] info, Long priority, long dueMs) {
    Put p =
        new Put(row)
            .addColumn(K, VERSION, Bytes.toBytes(version))
            .addColumn(K, INFO, info)
            .addColumn(K, DUE_AT, Bytes.toBytes(dueMs));
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
    b =
        expectedVersion == null
            ? b.ifNotExists(K, VERSION)
            : b.ifEquals(K, VERSION, Bytes.toBytes(expectedVersion));
    if (priority == null) {
      org.apache.hadoop.hbase.client.RowMutations rm =
          new org.apache.hadoop.hbase.client.RowMutations(row);
      try {
        rm.add(p);
        rm.add(new Delete(row).addColumns(K, PRIORITY));
      } catch (IOException e) {
        throw new IllegalStateException("row mutations of one row", e);
      }
      return b.build(rm);
    }
    p.addColumn(K, PRIORITY, Bytes.toBytes(priority));
    return b.build(p);
  }

  List<Boolean> checkStatuses(List<CheckAndMutate> cams) {
    return checkAll(schema.known(), cams, "write URLs");
  }

  /**
   * Known URLs of a channel or one host, in key order, passed to {@code sink} until it says stop.
   */
  void scanKnown(long channel, byte[] hostId, Predicate<Result> sink) {
    KeyRange range =
        hostId == null
            ? FrontierKeys.KNOWN.range(channel)
            : FrontierKeys.KNOWN.range(channel, hostId);
    Scan scan = range.toScan().addFamily(K).setCaching(1000);
    try (Table t = connection.getTable(schema.known());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        if (!sink.test(r)) {
          return;
        }
      }
    } catch (IOException e) {
      throw storage("scan URLs", e);
    }
  }

  // ---- urls table

  static Put queuedPut(byte[] row, byte[] info, long version, long dueMs) {
    return new Put(row)
        .addColumn(U, INFO, info)
        .addColumn(U, VERSION, Bytes.toBytes(version))
        .addColumn(U, DUE_AT, Bytes.toBytes(dueMs));
  }

  void writeUrls(List<? extends Row> ops) {
    if (!ops.isEmpty()) {
      batch(schema.urls(), ops, "write queued URLs");
    }
  }

  /** Up to {@code limit} queued rows of a host in priority order. */
  List<Queued> queued(long channel, byte[] hostId, int limit) {
    List<Queued> out = new ArrayList<>();
    visitQueue(channel, hostId, limit, limit, out::add);
    return out;
  }

  /**
   * Reads a host's queue in priority order, handing each row to {@code visitor} until it answers
   * false or {@code limit} rows were read. The scanner fetches {@code perTrip} rows per round trip,
   * so a hand-out that needs the first few rows reads only those.
   */
  void visitQueue(long channel, byte[] hostId, int limit, int perTrip, Predicate<Queued> visitor) {
    Scan scan =
        FrontierKeys.URL
            .range(channel, hostId)
            .toScan()
            .addFamily(U)
            .addFamily(F)
            .setLimit(limit)
            .setCaching(Math.max(1, Math.min(perTrip, 1000)));
    try (Table t = connection.getTable(schema.urls());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        var k = FrontierKeys.URL.decode(r.getRow());
        Queued q =
            new Queued(
                r.getRow(),
                k.number("priority"),
                (byte[]) k.get("urlId"),
                r.getValue(U, INFO),
                longOr(r.getValue(U, VERSION), 0),
                longOr(r.getValue(U, DUE_AT), 0),
                longOr(r.getValue(F, UNTIL), 0));
        if (!visitor.test(q)) {
          return;
        }
      }
    } catch (IOException e) {
      throw storage("scan queue", e);
    }
  }

  static Put inFlight(byte[] row, long until) {
    return new Put(row).addColumn(F, UNTIL, Bytes.toBytes(until));
  }

  /** URLs of a channel (or one host) in flight at {@code now}: only family f is read. */
  long countInFlight(long channel, byte[] hostId, long now) {
    KeyRange range =
        hostId == null
            ? FrontierKeys.CHANNEL.range(channel)
            : FrontierKeys.URL.range(channel, hostId);
    SingleColumnValueFilter after =
        new SingleColumnValueFilter(
            F, UNTIL, CompareOperator.GREATER, new BinaryComparator(Bytes.toBytes(now)));
    after.setFilterIfMissing(true);
    Scan scan = range.toScan().addFamily(F).setFilter(after).setCaching(1000);
    long n = 0;
    try (Table t = connection.getTable(schema.urls());
        ResultScanner s = t.getScanner(scan)) {
      for (Result ignored : s) {
        n++;
      }
      return n;
    } catch (IOException e) {
      throw storage("count URLs in flight", e);
    }
  }

  /** Deletes every row of {@code range}; {@code perRow} sees each first (may be null). */
  long deleteRange(
      org.apache.hadoop.hbase.TableName table,
      KeyRange range,
      java.util.function.Consumer<Result> perRow) {
    Scan scan = range.toScan().setCaching(DELETE_BATCH);
    if (perRow == null) {
      scan.setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    }
    long n = 0;
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      List<Delete> batch = new ArrayList<>();
      for (Result r : s) {
        if (perRow != null) {
          perRow.accept(r);
        }
        batch.add(new Delete(r.getRow()));
        n++;
        if (batch.size() >= DELETE_BATCH) {
          t.delete(batch);
          batch = new ArrayList<>();
        }
      }
      if (!batch.isEmpty()) {
        t.delete(batch);
      }
      return n;
    } catch (IOException e) {
      throw storage("delete rows of " + table, e);
    }
  }

  // ---- helpers

  private Object[] batch(
      org.apache.hadoop.hbase.TableName table, List<? extends Row> ops, String what) {
    Object[] results = new Object[ops.size()];
    try (Table t = connection.getTable(table)) {
      t.batch(ops, results);
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StorageException.interrupted(what, e);
    } catch (IOException e) {
      throw storage(what, e);
    }
  }

  private boolean check(org.apache.hadoop.hbase.TableName table, CheckAndMutate cam, String what) {
    try (Table t = connection.getTable(table)) {
      return t.checkAndMutate(cam).isSuccess();
    } catch (IOException e) {
      throw storage(what, e);
    }
  }

  private List<Boolean> checkAll(
      org.apache.hadoop.hbase.TableName table, List<CheckAndMutate> cams, String what) {
    if (cams.isEmpty()) {
      return List.of();
    }
    try (Table t = connection.getTable(table)) {
      List<CheckAndMutateResult> results = t.checkAndMutate(cams);
      List<Boolean> out = new ArrayList<>(results.size());
      for (CheckAndMutateResult r : results) {
        out.add(r.isSuccess());
      }
      return out;
    } catch (IOException e) {
      throw storage(what, e);
    }
  }

  private static StorageException storage(String what, IOException e) {
    if (e instanceof InterruptedIOException) {
      Thread.currentThread().interrupt();
    }
    return StorageException.of(what, e);
  }

  static long longOr(byte[] v, long otherwise) {
    return v == null ? otherwise : Bytes.toLong(v);
  }

  static Long longOrNull(byte[] v) {
    return v == null ? null : Bytes.toLong(v);
  }
}
