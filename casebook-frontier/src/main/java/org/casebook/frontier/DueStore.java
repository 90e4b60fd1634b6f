package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.D;
import static org.casebook.frontier.FrontierSchema.DUE_FROM;
import static org.casebook.frontier.FrontierSchema.MARK;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;

/**
 * {@code frontier:due}: the due index, a row {@code channel | due time | host id | token} per write
 * of a host's place in it, so a hand-out scans only hosts due now. The host's stamp (in its host
 * row) says which of its due rows is current: the one with the stamp's time and token. A row also
 * names the stamp its writer replaces ({@code d:p}; none when the host had none), so a reader can
 * tell a row whose writer may still make it current from one left over.
 */
final class DueStore {
  private static final int UNTOKENED_LENGTH =
      FrontierKeys.DUE_UNTOKENED.encode(0L, 0L, new byte[FrontierKeys.HOST_ID_BYTES]).length;

  private final TableStore table;

  DueStore(Connection connection, FrontierSchema schema) {
    this.table = new TableStore(connection, schema.due());
  }

  private static byte[] row(long channel, DueHost d) {
    return d.token() == 0
        ? FrontierKeys.DUE_UNTOKENED.encode(channel, d.due(), d.hostId())
        : FrontierKeys.DUE.encode(channel, d.due(), d.hostId(), d.token());
  }

  void put(long channel, List<DueHost> rows) {
    List<Row> ops = new ArrayList<>(rows.size());
    for (DueHost d : rows) {
      Put p = new Put(row(channel, d)).addColumn(D, MARK, new byte[0]);
      if (d.from() != null) {
        p.addColumn(D, DUE_FROM, DueCodec.stamp(d.from()));
      }
      ops.add(p);
    }
    table.batch(ops, "write due rows");
  }

  void delete(long channel, List<DueHost> rows) {
    List<Row> ops = new ArrayList<>(rows.size());
    for (DueHost d : rows) {
      ops.add(new Delete(row(channel, d)));
    }
    table.batch(ops, "delete due rows");
  }

  /**
   * Due rows of a channel with due ≤ {@code until}, after {@code after} (exclusive; null = first).
   */
  List<DueHost> due(long channel, long until, DueHost after, int limit) {
    byte[] start = after == null ? FrontierKeys.DUE.prefix(channel) : row(channel, after);
    byte[] stop = FrontierKeys.DUE.prefix(channel, until + 1);
    Scan scan =
        new Scan()
            .withStartRow(start, after == null)
            .withStopRow(stop)
            .addFamily(D)
            .setCaching(Math.min(limit, 1000))
            .setLimit(limit);
    return table.call(
        "scan due hosts",
        t -> {
          List<DueHost> out = new ArrayList<>();
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result r : s) {
              out.add(dueHost(r));
            }
          }
          return out;
        });
  }

  private static DueHost dueHost(Result r) {
    byte[] key = r.getRow();
    if (key.length == UNTOKENED_LENGTH) {
      var k = FrontierKeys.DUE_UNTOKENED.decode(key);
      return new DueHost(k.number("due"), (byte[]) k.get("hostId"), 0, null);
    }
    var k = FrontierKeys.DUE.decode(key);
    return new DueHost(
        k.number("due"),
        (byte[]) k.get("hostId"),
        k.number("token"),
        DueCodec.stamp(r.getValue(D, DUE_FROM)));
  }

  /** Whether each due row exists (the start-up check of next-due times). */
  List<Boolean> exist(long channel, List<DueHost> rows) {
    List<Get> gets = new ArrayList<>(rows.size());
    for (DueHost d : rows) {
      gets.add(new Get(row(channel, d)));
    }
    return table.call(
        "check due rows",
        t -> {
          boolean[] e = t.exists(gets);
          List<Boolean> out = new ArrayList<>(e.length);
          for (boolean b : e) {
            out.add(b);
          }
          return out;
        });
  }

  /** Deletes every due row of a channel; answers how many. */
  long purge(long channel) {
    return table.deleteRange(FrontierKeys.CHANNEL.range(channel), null);
  }
}
