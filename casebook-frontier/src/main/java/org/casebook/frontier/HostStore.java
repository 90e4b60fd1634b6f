package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.BLOCKED;
import static org.casebook.frontier.FrontierSchema.COMPLETED;
import static org.casebook.frontier.FrontierSchema.COUNTED;
import static org.casebook.frontier.FrontierSchema.DELAY;
import static org.casebook.frontier.FrontierSchema.H;
import static org.casebook.frontier.FrontierSchema.KEY;
import static org.casebook.frontier.FrontierSchema.LAST;
import static org.casebook.frontier.FrontierSchema.LIMIT;
import static org.casebook.frontier.FrontierSchema.NEXT;
import static org.casebook.frontier.FrontierSchema.PURGE_BATCH;
import static org.casebook.frontier.FrontierSchema.QUEUED;
import static org.casebook.frontier.FrontierSchema.S;
import static org.casebook.frontier.TableStore.longOr;
import static org.casebook.frontier.TableStore.longOrNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyRange;

/**
 * {@code frontier:hosts}: a row per channel (its running and daily counters) heading a row per host
 * (queue key, settings, schedule — last hand-out and next due time — and running and daily
 * counters). Schedule changes are check-and-mutate on what was read; counters are Increments, so
 * they stay exact under concurrent writers, and a put's go with a mark of the put in one
 * check-and-mutate, so they stay exact when the write is sent again.
 */
final class HostStore {
  private final TableStore table;

  HostStore(Connection connection, FrontierSchema schema) {
    this.table = new TableStore(connection, schema.hosts());
  }

  private static byte[] hostRow(long channel, byte[] hostId) {
    return FrontierKeys.HOST.encode(channel, hostId);
  }

  // ---- reads

  Map<HostKey, HostRow> hosts(long channel, List<byte[]> hostIds) {
    List<Get> gets = new ArrayList<>(hostIds.size());
    for (byte[] h : hostIds) {
      gets.add(new Get(hostRow(channel, h)).addFamily(H));
    }
    return table.call(
        "read hosts",
        t -> {
          Result[] results = t.get(gets);
          Map<HostKey, HostRow> out = new HashMap<>();
          for (int i = 0; i < results.length; i++) {
            HostRow h = hostOf(hostIds.get(i), results[i]);
            if (h != null) {
              out.put(new HostKey(hostIds.get(i)), h);
            }
          }
          return out;
        });
  }

  Optional<HostRow> host(long channel, byte[] hostId) {
    return Optional.ofNullable(hosts(channel, List.of(hostId)).get(new HostKey(hostId)));
  }

  private static HostRow hostOf(byte[] hostId, Result r) {
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
        DueCodec.stamp(r.getValue(H, NEXT)),
        longOr(r.getValue(H, QUEUED), 0),
        longOr(r.getValue(H, COMPLETED), 0));
  }

  /** Host rows of a channel after {@code afterHostId} (exclusive; null = first), settings only. */
  List<HostRow> page(long channel, byte[] afterHostId, int limit, Predicate<HostRow> keep) {
    KeyRange range = FrontierKeys.CHANNEL.range(channel);
    Scan scan =
        new Scan().withStopRow(range.stop()).addFamily(H).setCaching(Math.min(limit + 1, 1000));
    if (afterHostId == null) {
      scan.withStartRow(range.start());
    } else {
      scan.withStartRow(hostRow(channel, afterHostId), false);
    }
    return table.call(
        "list hosts",
        t -> {
          List<HostRow> out = new ArrayList<>();
          try (ResultScanner s = t.getScanner(scan)) {
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
          }
          return out;
        });
  }

  /** The channel's own running counters. */
  UrlCounts channelCounters(long channel) {
    return table.call(
        "read channel counters",
        t -> {
          Result r = t.get(new Get(FrontierKeys.CHANNEL.encode(channel)).addFamily(H));
          return new UrlCounts(
              longOr(r.getValue(H, QUEUED), 0), longOr(r.getValue(H, COMPLETED), 0));
        });
  }

  /** Daily counters of a channel (hostId null) or a host: day → counter → value. */
  Map<Integer, Map<String, Long>> dailyCounters(long channel, byte[] hostId) {
    byte[] row = hostId == null ? FrontierKeys.CHANNEL.encode(channel) : hostRow(channel, hostId);
    return table.call(
        "read daily counters",
        t -> {
          Map<Integer, Map<String, Long>> out = new HashMap<>();
          Result r = t.get(new Get(row).addFamily(S));
          for (Cell c : r.rawCells()) {
            var q = FrontierKeys.DAY_COUNTER.decode(CellUtil.cloneQualifier(c));
            out.computeIfAbsent(q.integer("day"), d -> new HashMap<>())
                .put(q.string("counter"), Bytes.toLong(CellUtil.cloneValue(c)));
          }
          return out;
        });
  }

  // ---- counters

  /**
   * Adds counter deltas in one batch, one Increment per row: every host of {@code hosts} with
   * anything to count, then the channel's row with {@code channelTotal} (none when null). Running
   * counters ({@code q}, {@code c}) go to family h, daily ones to family s. Answers the new queued
   * count of each host whose count fell (a host emptied leaves the due index).
   */
  Map<HostKey, Long> count(long channel, int day, Map<HostKey, Counts> hosts, Counts channelTotal) {
    List<Increment> incs = new ArrayList<>();
    List<HostKey> order = new ArrayList<>();
    hosts.forEach(
        (h, c) -> {
          if (!c.isEmpty()) {
            order.add(h);
            Increment inc = increment(hostRow(channel, h.bytes()), day, c);
            // Only a falling queued count is read back: every other answer would be built, sent
            // and dropped.
            inc.setReturnResults(c.queued < 0);
            incs.add(inc);
          }
        });
    if (channelTotal != null) {
      incs.add(increment(FrontierKeys.CHANNEL.encode(channel), day, channelTotal));
    }
    Object[] results = table.batch(incs, "count");
    Map<HostKey, Long> queuedNow = new HashMap<>();
    for (int i = 0; i < order.size(); i++) {
      if (hosts.get(order.get(i)).queued < 0
          && results[i] instanceof Result r
          && r.getValue(H, QUEUED) != null) {
        queuedNow.put(order.get(i), Bytes.toLong(r.getValue(H, QUEUED)));
      }
    }
    return queuedNow;
  }

  /**
   * Adds counter deltas as {@link #count} does, but at most once however often it is sent: each
   * row's Increment goes with a mark of {@code token} in one check-and-mutate that holds only while
   * the row has no such mark (a plain Increment the client re-sends after a lost answer adds
   * twice). A row that answers false was counted by an earlier send. Answers the new queued count
   * of each host whose count fell and was counted by this send. {@link #forgetCount} removes the
   * marks once nothing sends the write again.
   */
  Map<HostKey, Long> countOnce(
      long channel, int day, Map<HostKey, Counts> hosts, Counts channelTotal, long token) {
    byte[] mark = countedMark(token);
    List<CheckAndMutate> cams = new ArrayList<>();
    List<HostKey> order = new ArrayList<>();
    hosts.forEach(
        (h, c) -> {
          if (!c.isEmpty()) {
            order.add(h);
            cams.add(countedOnce(hostRow(channel, h.bytes()), day, c, mark));
          }
        });
    if (channelTotal != null && !channelTotal.isEmpty()) {
      cams.add(countedOnce(FrontierKeys.CHANNEL.encode(channel), day, channelTotal, mark));
    }
    if (cams.isEmpty()) {
      return Map.of();
    }
    List<CheckAndMutateResult> results = table.call("count once", t -> t.checkAndMutate(cams));
    Map<HostKey, Long> queuedNow = new HashMap<>();
    for (int i = 0; i < order.size(); i++) {
      Result r = results.get(i).getResult();
      if (hosts.get(order.get(i)).queued < 0
          && results.get(i).isSuccess()
          && r != null
          && r.getValue(H, QUEUED) != null) {
        queuedNow.put(order.get(i), Bytes.toLong(r.getValue(H, QUEUED)));
      }
    }
    return queuedNow;
  }

  /**
   * Removes the marks {@link #countOnce} left with {@code token} on these hosts and the channel.
   */
  void forgetCount(long channel, Set<HostKey> hosts, long token) {
    byte[] mark = countedMark(token);
    List<Row> deletes = new ArrayList<>();
    hosts.forEach(h -> deletes.add(new Delete(hostRow(channel, h.bytes())).addColumns(H, mark)));
    deletes.add(new Delete(FrontierKeys.CHANNEL.encode(channel)).addColumns(H, mark));
    table.batch(deletes, "forget counted marks");
  }

  private static byte[] countedMark(long token) {
    return Bytes.add(COUNTED, Bytes.toBytes(token));
  }

  private static CheckAndMutate countedOnce(byte[] row, int day, Counts c, byte[] mark) {
    Increment inc = increment(row, day, c);
    inc.setReturnResults(c.queued < 0);
    RowMutations rm = rowMutations(row, inc, new Put(row).addColumn(H, mark, new byte[] {1}));
    // A column condition, not a filter: a filter's check never holds on a row not yet written,
    // and a host's first put writes its row here.
    return CheckAndMutate.newBuilder(row).ifNotExists(H, mark).build(rm);
  }

  private static Increment increment(byte[] row, int day, Counts c) {
    Increment inc = new Increment(row);
    inc.setReturnResults(false);
    if (c.queued != 0) {
      inc.addColumn(H, QUEUED, c.queued);
    }
    if (c.completed != 0) {
      inc.addColumn(H, COMPLETED, c.completed);
    }
    for (Map.Entry<String, Long> e : c.daily.entrySet()) {
      if (e.getValue() != 0) {
        inc.addColumn(S, FrontierKeys.DAY_COUNTER.encode(day, e.getKey()), e.getValue());
      }
    }
    return inc;
  }

  // ---- schedule

  /** Makes {@code changes} in one batch; answers which of them held (the stamp was as read). */
  List<Boolean> decide(long channel, List<HostChange> changes, String what) {
    List<CheckAndMutate> cams = new ArrayList<>(changes.size());
    for (HostChange c : changes) {
      cams.add(checkAndMutate(channel, c));
    }
    return table.checkAll(cams, what);
  }

  private static CheckAndMutate checkAndMutate(long channel, HostChange change) {
    byte[] row = hostRow(channel, change.hostId());
    Put p = new Put(row).addColumn(H, NEXT, DueCodec.stamp(change.next()));
    if (change instanceof HostChange.Claim c) {
      p.addColumn(H, LAST, Bytes.toBytes(c.now()));
    } else if (change instanceof HostChange.Move m && m.key() != null) {
      p.addColumn(H, KEY, Bytes.toBytes(m.key()));
    }
    // A column condition, not a filter: it holds on a host row not yet written.
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
    return change.expected() == null
        ? b.ifNotExists(H, NEXT).build(p)
        : b.ifEquals(H, NEXT, DueCodec.stamp(change.expected())).build(p);
  }

  private static Filter missing(byte[] qualifier) {
    SingleColumnValueFilter missing =
        new SingleColumnValueFilter(H, qualifier, CompareOperator.EQUAL, new byte[0]);
    // Passes rows without the column, or with an empty value (read as none, as a host without a
    // purge batch has).
    missing.setFilterIfMissing(false);
    return missing;
  }

  // ---- PurgeURLs batches (see PurgeBatch)

  /** The purge batch on a host and not yet settled; null when none. */
  byte[] purgeBatch(long channel, byte[] hostId) {
    Get g = new Get(hostRow(channel, hostId)).addColumn(H, PURGE_BATCH);
    // Settled is CLEARED: a purge begins the host's next batch right after, often in that
    // millisecond.
    return TableStore.held(table.call("read purge batch", t -> t.get(g).getValue(H, PURGE_BATCH)));
  }

  /** Writes {@code batch} on the host if it exists and holds no batch; answers whether it did. */
  boolean beginPurge(long channel, byte[] hostId, byte[] batch) {
    byte[] row = hostRow(channel, hostId);
    SingleColumnValueFilter exists =
        new SingleColumnValueFilter(
            H, KEY, CompareOperator.NOT_EQUAL, new BinaryComparator(new byte[0]));
    exists.setFilterIfMissing(true);
    FilterList both =
        new FilterList(FilterList.Operator.MUST_PASS_ALL, exists, missing(PURGE_BATCH));
    Put p = new Put(row).addColumn(H, PURGE_BATCH, batch);
    return table.check(CheckAndMutate.newBuilder(row).ifMatches(both).build(p), "begin purge");
  }

  /** Replaces the host's batch {@code expected} by {@code batch} (null: removes it). */
  boolean replacePurge(long channel, byte[] hostId, byte[] expected, byte[] batch) {
    byte[] row = hostRow(channel, hostId);
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row).ifEquals(H, PURGE_BATCH, expected);
    Put p = new Put(row).addColumn(H, PURGE_BATCH, batch == null ? TableStore.CLEARED : batch);
    return table.check(b.build(p), "arm purge");
  }

  /**
   * Takes a batch's deletions off the channel's counters, once: only if the channel row does not
   * already record batch {@code batchId} as settled for this host (nor holds an earlier version's
   * mark of it), and recording it in the same row mutation.
   */
  boolean settlePurgeOnChannel(long channel, byte[] hostId, long batchId, int day, Counts c) {
    byte[] row = FrontierKeys.CHANNEL.encode(channel);
    byte[] settled = FrontierKeys.PURGE_SETTLED.encode(hostId, batchId);
    SingleColumnValueFilter notEarlier =
        new SingleColumnValueFilter(
            H,
            FrontierKeys.PURGE_SETTLED.prefix(hostId),
            CompareOperator.NOT_EQUAL,
            new BinaryComparator(Bytes.toBytes(batchId)));
    notEarlier.setFilterIfMissing(false);
    notEarlier.setLatestVersionOnly(true);
    FilterList notYet =
        new FilterList(FilterList.Operator.MUST_PASS_ALL, notEarlier, missing(settled));
    RowMutations rm =
        rowMutations(
            row, increment(row, day, c), new Put(row).addColumn(H, settled, new byte[] {1}));
    return table.check(
        CheckAndMutate.newBuilder(row).ifMatches(notYet).build(rm), "settle purge on channel");
  }

  /**
   * Forgets the channel's mark of the host's settled batch {@code batchId} once the host's batch is
   * gone too (no rerun can need it), so the channel row does not keep a cell per batch ever purged;
   * an earlier version's mark of the host goes too, as the host holds no batch it could be of.
   */
  void clearPurgeSettled(long channel, byte[] hostId, long batchId) {
    Delete d =
        new Delete(FrontierKeys.CHANNEL.encode(channel))
            .addColumns(H, FrontierKeys.PURGE_SETTLED.encode(hostId, batchId))
            .addColumns(H, FrontierKeys.PURGE_SETTLED.prefix(hostId));
    table.batch(List.of(d), "forget a settled purge");
  }

  /** Takes a batch's deletions off the host's counters and removes the batch, if still there. */
  boolean settlePurgeOnHost(long channel, byte[] hostId, byte[] batch, int day, Counts c) {
    byte[] row = hostRow(channel, hostId);
    RowMutations rm =
        rowMutations(
            row,
            increment(row, day, c),
            new Put(row).addColumn(H, PURGE_BATCH, TableStore.CLEARED));
    return table.check(
        CheckAndMutate.newBuilder(row).ifEquals(H, PURGE_BATCH, batch).build(rm),
        "settle purge on host");
  }

  private static RowMutations rowMutations(byte[] row, Increment inc, Mutation m) {
    RowMutations rm = new RowMutations(row);
    try {
      if (!inc.getFamilyCellMap().isEmpty()) {
        rm.add(inc);
      }
      rm.add(m);
    } catch (IOException e) {
      throw new IllegalStateException("row mutations of one row", e);
    }
    return rm;
  }

  // ---- settings and keys

  /**
   * Writes the queue key and {@code values}, and clears {@code cleared} (see TableStore.CLEARED).
   */
  void setSettings(
      long channel,
      byte[] hostId,
      String key,
      Map<HostSetting, Long> values,
      Set<HostSetting> cleared) {
    Put p = new Put(hostRow(channel, hostId)).addColumn(H, KEY, Bytes.toBytes(key));
    values.forEach((s, v) -> p.addColumn(H, qualifier(s), Bytes.toBytes(v)));
    cleared.forEach(s -> p.addColumn(H, qualifier(s), TableStore.CLEARED));
    table.batch(List.of(p), "set host settings");
  }

  private static byte[] qualifier(HostSetting s) {
    return switch (s) {
      case DELAY -> DELAY;
      case BLOCKED_UNTIL -> BLOCKED;
      case CRAWL_LIMIT -> LIMIT;
    };
  }

  void putKeys(long channel, Map<HostKey, String> keys) {
    List<Row> puts = new ArrayList<>();
    keys.forEach(
        (h, k) ->
            puts.add(new Put(hostRow(channel, h.bytes())).addColumn(H, KEY, Bytes.toBytes(k))));
    table.batch(puts, "write host keys");
  }

  void delete(long channel, byte[] hostId) {
    table.call(
        "delete host",
        t -> {
          t.delete(new Delete(hostRow(channel, hostId)));
          return null;
        });
  }

  /** Deletes the channel's row and every host row of it; answers how many. */
  long purge(long channel) {
    return table.deleteRange(FrontierKeys.CHANNEL.range(channel), null);
  }
}
