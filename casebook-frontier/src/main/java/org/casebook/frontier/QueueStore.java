package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.DUE_AT;
import static org.casebook.frontier.FrontierSchema.F;
import static org.casebook.frontier.FrontierSchema.INFO;
import static org.casebook.frontier.FrontierSchema.U;
import static org.casebook.frontier.FrontierSchema.UNTIL;
import static org.casebook.frontier.FrontierSchema.VERSION;
import static org.casebook.frontier.TableStore.longOr;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyRange;

/**
 * {@code frontier:urls}: each host's queue, a row per queued URL keyed {@code channel | host id |
 * priority | URL id} so one bounded scan reads a queue in hand-out order; family u holds the URL,
 * family f (scanned alone to count) the time it is in flight until.
 */
final class QueueStore {
  private final TableStore table;

  QueueStore(Connection connection, FrontierSchema schema) {
    this.table = new TableStore(connection, schema.urls());
  }

  private static byte[] row(long channel, byte[] hostId, long priority, byte[] urlId) {
    return FrontierKeys.URL.encode(channel, hostId, priority, urlId);
  }

  /** Writes the rows of {@code changes} in one batch, then drops theirs in another. */
  void apply(long channel, List<QueueChange> changes) {
    List<Row> puts = new ArrayList<>();
    List<CheckAndMutate> drops = new ArrayList<>();
    for (QueueChange c : changes) {
      if (c instanceof QueueChange.Enqueue e) {
        puts.add(
            new Put(row(channel, e.hostId(), e.priority(), e.urlId()))
                .addColumn(U, INFO, e.info())
                .addColumn(U, VERSION, Bytes.toBytes(e.version()))
                .addColumn(U, DUE_AT, Bytes.toBytes(e.dueMs())));
      } else {
        QueueChange.Drop d = (QueueChange.Drop) c;
        byte[] row = row(channel, d.hostId(), d.priority(), d.urlId());
        drops.add(
            CheckAndMutate.newBuilder(row)
                .ifEquals(U, VERSION, Bytes.toBytes(d.version()))
                .build(new Delete(row)));
      }
    }
    table.batch(puts, "write queued URLs");
    table.checkAll(drops, "drop queued URLs");
  }

  /**
   * Marks each of {@code urls} in flight until {@code until}, each only if its row is still as
   * read: the same version (not acknowledged, dropped or put again since) and the same in-flight
   * time (no other hand-out claimed it since). Answers which were marked: only those may be handed
   * out. A mark the client sends again after it was made answers false (the time moved on), so a
   * repeat never hands a URL out twice; that URL comes back once the mark expires.
   */
  List<Boolean> claim(long channel, List<QueuedUrl> urls, long until) {
    List<CheckAndMutate> cams = new ArrayList<>(urls.size());
    for (QueuedUrl q : urls) {
      byte[] row = row(channel, q.hostId(), q.priority(), q.urlId());
      SingleColumnValueFilter sameUntil;
      if (q.inFlightUntil() == 0) {
        // Passes only rows without the column: an empty value is never written.
        sameUntil = new SingleColumnValueFilter(F, UNTIL, CompareOperator.EQUAL, new byte[0]);
        sameUntil.setFilterIfMissing(false);
      } else {
        sameUntil =
            new SingleColumnValueFilter(
                F,
                UNTIL,
                CompareOperator.EQUAL,
                new BinaryComparator(Bytes.toBytes(q.inFlightUntil())));
        sameUntil.setFilterIfMissing(true);
      }
      sameUntil.setLatestVersionOnly(true);
      cams.add(
          CheckAndMutate.newBuilder(row)
              .ifMatches(
                  new FilterList(FilterList.Operator.MUST_PASS_ALL, sameVersion(q), sameUntil))
              .build(new Put(row).addColumn(F, UNTIL, Bytes.toBytes(until))));
    }
    return table.checkAll(cams, "claim queued URLs");
  }

  /** Passes the row of {@code q} while it holds the version read (a row without one: never). */
  private static SingleColumnValueFilter sameVersion(QueuedUrl q) {
    SingleColumnValueFilter f =
        new SingleColumnValueFilter(
            U, VERSION, CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes(q.version())));
    f.setFilterIfMissing(true);
    f.setLatestVersionOnly(true);
    return f;
  }

  /**
   * Reads a host's queue in priority order, handing each row to {@code visitor} until it answers
   * false or {@code limit} rows were read. The scanner fetches {@code perTrip} rows per round trip,
   * so a hand-out that needs the first few rows reads only those.
   */
  void visit(long channel, byte[] hostId, int limit, int perTrip, Predicate<QueuedUrl> visitor) {
    Scan scan =
        FrontierKeys.URL
            .range(channel, hostId)
            .toScan()
            .addFamily(U)
            .addFamily(F)
            .setLimit(limit)
            .setCaching(Math.max(1, Math.min(perTrip, 1000)));
    table.call(
        "scan queue",
        t -> {
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result r : s) {
              var k = FrontierKeys.URL.decode(r.getRow());
              QueuedUrl q =
                  new QueuedUrl(
                      hostId,
                      k.number("priority"),
                      (byte[]) k.get("urlId"),
                      r.getValue(U, INFO),
                      longOr(r.getValue(U, VERSION), 0),
                      longOr(r.getValue(U, DUE_AT), 0),
                      longOr(r.getValue(F, UNTIL), 0));
              if (!visitor.test(q)) {
                break;
              }
            }
          }
          return null;
        });
  }

  /** Whether the host's queue holds any row. */
  boolean holdsAny(long channel, byte[] hostId) {
    boolean[] any = {false};
    visit(
        channel,
        hostId,
        1,
        1,
        q -> {
          any[0] = true;
          return true;
        });
    return any[0];
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
    return table.call(
        "count URLs in flight",
        t -> {
          long n = 0;
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result ignored : s) {
              n++;
            }
          }
          return n;
        });
  }

  /**
   * Deletes the queued row of each queued victim if it still belongs to the version purged (a put
   * since may have written the same row for a newer version).
   */
  void dropIfAt(long channel, byte[] hostId, List<PurgeBatch.Victim> victims) {
    List<CheckAndMutate> cams = new ArrayList<>(victims.size());
    for (PurgeBatch.Victim v : victims) {
      if (v.priority() == null) {
        continue;
      }
      byte[] row = row(channel, hostId, v.priority(), v.urlId());
      cams.add(
          CheckAndMutate.newBuilder(row)
              .ifEquals(U, VERSION, Bytes.toBytes(v.version()))
              .build(new Delete(row)));
    }
    table.checkAll(cams, "purge queued URLs");
  }

  /** Deletes a host's whole queue; answers how many rows. */
  long deleteHost(long channel, byte[] hostId) {
    return table.deleteRange(FrontierKeys.URL.range(channel, hostId), null);
  }

  /** Deletes every queued row of a channel; answers how many. */
  long purge(long channel) {
    return table.deleteRange(FrontierKeys.CHANNEL.range(channel), null);
  }
}
