package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.CREATED_AT;
import static org.casebook.frontier.FrontierSchema.DUE_AT;
import static org.casebook.frontier.FrontierSchema.EARLIER;
import static org.casebook.frontier.FrontierSchema.INFO;
import static org.casebook.frontier.FrontierSchema.K;
import static org.casebook.frontier.FrontierSchema.PRIORITY;
import static org.casebook.frontier.FrontierSchema.VERSION;
import static org.casebook.frontier.TableStore.longOr;
import static org.casebook.frontier.TableStore.longOrNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyRange;

/**
 * {@code frontier:known}: a row per URL ever put, keyed {@code channel | host id | URL id} — its
 * version, stored URL, due time and the priority of its queued row while it has one. Duplicate
 * detection and every change of a URL's state is a check-and-mutate on its version.
 */
final class KnownStore {
  private final TableStore table;

  KnownStore(Connection connection, FrontierSchema schema) {
    this.table = new TableStore(connection, schema.known());
  }

  private static byte[] row(long channel, UrlRef url) {
    return FrontierKeys.KNOWN.encode(channel, url.hostId(), url.urlId());
  }

  /** The status of each URL, in order (null: unknown). */
  List<UrlStatus> read(long channel, List<UrlRef> urls) {
    List<Get> gets = new ArrayList<>(urls.size());
    for (UrlRef u : urls) {
      gets.add(new Get(row(channel, u)).addFamily(K));
    }
    return table.call(
        "read URLs",
        t -> {
          Result[] results = t.get(gets);
          List<UrlStatus> out = new ArrayList<>(results.length);
          for (Result r : results) {
            out.add(statusOf(r));
          }
          return out;
        });
  }

  private static UrlStatus statusOf(Result r) {
    if (r.isEmpty() || r.getValue(K, VERSION) == null) {
      return null;
    }
    return new UrlStatus(
        Bytes.toLong(r.getValue(K, VERSION)),
        r.getValue(K, INFO),
        longOrNull(r.getValue(K, PRIORITY)),
        longOr(r.getValue(K, DUE_AT), 0),
        longOr(r.getValue(K, CREATED_AT), 0),
        longs(r.getValue(K, EARLIER)));
  }

  private static long[] longs(byte[] value) {
    if (value == null) {
      return new long[0];
    }
    long[] out = new long[value.length / Bytes.SIZEOF_LONG];
    for (int i = 0; i < out.length; i++) {
      out[i] = Bytes.toLong(value, i * Bytes.SIZEOF_LONG);
    }
    return out;
  }

  private static byte[] bytes(long[] values) {
    byte[] out = new byte[values.length * Bytes.SIZEOF_LONG];
    for (int i = 0; i < values.length; i++) {
      Bytes.putLong(out, i * Bytes.SIZEOF_LONG, values[i]);
    }
    return out;
  }

  /**
   * Makes each change if its row is still at the version read; answers which were made, null for a
   * change whose call failed (made or not: its row tells, by the change's version).
   */
  List<Boolean> change(long channel, List<StatusChange> changes) {
    List<CheckAndMutate> cams = new ArrayList<>(changes.size());
    for (StatusChange c : changes) {
      cams.add(checkAndMutate(row(channel, c.url()), c));
    }
    return table.checkEach(cams, "write URLs");
  }

  private static CheckAndMutate checkAndMutate(byte[] row, StatusChange c) {
    Put p =
        new Put(row)
            .addColumn(K, VERSION, Bytes.toBytes(c.version()))
            .addColumn(K, INFO, c.info())
            .addColumn(K, DUE_AT, Bytes.toBytes(c.dueMs()));
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
    if (c.expectedVersion() == null) {
      b = b.ifNotExists(K, VERSION);
      p.addColumn(K, CREATED_AT, Bytes.toBytes(c.createdMs()));
    } else {
      b = b.ifEquals(K, VERSION, Bytes.toBytes(c.expectedVersion()));
      p.addColumn(K, EARLIER, bytes(c.earlier()));
    }
    // Done clears the priority (the next item of a batch may queue the URL again at once).
    p.addColumn(
        K, PRIORITY, c.priority() == null ? TableStore.CLEARED : Bytes.toBytes(c.priority()));
    return b.build(p);
  }

  /**
   * Known URLs of a channel or (hostId given) one host, in key order, passed to {@code sink} until
   * it says stop.
   */
  void scan(long channel, byte[] hostId, Predicate<UrlStatus> sink) {
    KeyRange range =
        hostId == null
            ? FrontierKeys.KNOWN.range(channel)
            : FrontierKeys.KNOWN.range(channel, hostId);
    Scan scan = range.toScan().addFamily(K).setCaching(1000);
    table.call(
        "scan URLs",
        t -> {
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result r : s) {
              UrlStatus status = statusOf(r);
              if (status != null && !sink.test(status)) {
                break;
              }
            }
          }
          return null;
        });
  }

  /** A known row read by a page scan: its URL id and status. */
  record Entry(byte[] urlId, UrlStatus status) {}

  /**
   * Up to {@code limit} known URLs of a host in key order, after {@code afterUrlId} (exclusive;
   * null: from the first).
   */
  List<Entry> page(long channel, byte[] hostId, byte[] afterUrlId, int limit) {
    KeyRange range = FrontierKeys.KNOWN.range(channel, hostId);
    Scan scan =
        new Scan()
            .withStopRow(range.stop())
            .addFamily(K)
            .setLimit(limit)
            .setCaching(Math.min(limit, 1000));
    if (afterUrlId == null) {
      scan.withStartRow(range.start());
    } else {
      scan.withStartRow(row(channel, new UrlRef(hostId, afterUrlId)), false);
    }
    return table.call(
        "page URLs",
        t -> {
          List<Entry> out = new ArrayList<>();
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result r : s) {
              UrlStatus status = statusOf(r);
              if (status != null) {
                out.add(
                    new Entry((byte[]) FrontierKeys.KNOWN.decode(r.getRow()).get("urlId"), status));
              }
            }
          }
          return out;
        });
  }

  /** Deletes each URL's row if it is still at the version given; answers which were deleted. */
  List<Boolean> deleteIfAt(long channel, byte[] hostId, List<PurgeBatch.Victim> victims) {
    List<CheckAndMutate> cams = new ArrayList<>(victims.size());
    for (PurgeBatch.Victim v : victims) {
      byte[] row = row(channel, new UrlRef(hostId, v.urlId()));
      cams.add(
          CheckAndMutate.newBuilder(row)
              .ifEquals(K, VERSION, Bytes.toBytes(v.version()))
              .build(new Delete(row)));
    }
    return table.checkAll(cams, "purge URLs");
  }

  /** Deletes every known URL of a host; answers how many were queued and how many done. */
  UrlCounts deleteHost(long channel, byte[] hostId) {
    long[] deleted = new long[2];
    table.deleteRange(
        FrontierKeys.KNOWN.range(channel, hostId),
        r -> {
          UrlStatus s = statusOf(r);
          if (s != null) {
            deleted[s.queued() ? 0 : 1]++;
          }
        });
    return new UrlCounts(deleted[0], deleted[1]);
  }

  /** Deletes every known URL of a channel; answers how many. */
  long purge(long channel) {
    return table.deleteRange(FrontierKeys.CHANNEL.range(channel), null);
  }
}
