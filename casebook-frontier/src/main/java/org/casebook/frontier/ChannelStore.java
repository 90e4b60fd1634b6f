package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.C;
import static org.casebook.frontier.FrontierSchema.CREATED;
import static org.casebook.frontier.FrontierSchema.DELAY;
import static org.casebook.frontier.FrontierSchema.ID;
import static org.casebook.frontier.FrontierSchema.INACTIVE;
import static org.casebook.frontier.FrontierSchema.KIND;
import static org.casebook.frontier.FrontierSchema.P;
import static org.casebook.frontier.FrontierSchema.SEQUENCE;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code frontier:channels}: a name row per crawl ID (its channel number, kind, default delay,
 * creation time), and the global row of the empty crawl ID — the channel number sequence, the
 * active switch and the marks of channels being purged.
 */
final class ChannelStore {
  private final TableStore table;

  ChannelStore(Connection connection, FrontierSchema schema) {
    this.table = new TableStore(connection, schema.channels());
  }

  Optional<Channel> channel(String crawlId) {
    return table.call(
        "read channel " + crawlId,
        t ->
            Optional.ofNullable(channelOf(crawlId, t.get(new Get(nameRow(crawlId)).addFamily(C)))));
  }

  private static byte[] nameRow(String crawlId) {
    return FrontierKeys.CHANNEL_NAME.encode(crawlId);
  }

  /**
   * The channel of a name row; null when it has none: no row, the global row, or a deleted crawl's
   * (an empty id).
   */
  private static Channel channelOf(String crawlId, Result r) {
    if (!named(r)) {
      return null;
    }
    return new Channel(
        crawlId,
        Bytes.toLong(r.getValue(C, ID)),
        ChannelKind.valueOf(Bytes.toString(r.getValue(C, KIND))),
        Bytes.toLong(r.getValue(C, DELAY)),
        Bytes.toLong(r.getValue(C, CREATED)));
  }

  private static boolean named(Result r) {
    return TableStore.held(r.getValue(C, ID)) != null;
  }

  /**
   * Creates the channel unless it exists; answers the one stored (the caller's or an earlier), null
   * if the name went again before it was read back.
   */
  Channel create(String crawlId, ChannelKind kind, long delayMs, long now) {
    return table.call(
        "create channel " + crawlId,
        t -> {
          long id = t.incrementColumnValue(globalRow(), C, SEQUENCE, 1);
          Put p =
              new Put(nameRow(crawlId))
                  .addColumn(C, ID, Bytes.toBytes(id))
                  .addColumn(C, KIND, Bytes.toBytes(kind.name()))
                  .addColumn(C, DELAY, Bytes.toBytes(delayMs))
                  .addColumn(C, CREATED, Bytes.toBytes(now));
          // HBase reads "not exists" as no cell or an empty value: a deleted crawl's name is free.
          t.checkAndMutate(CheckAndMutate.newBuilder(p.getRow()).ifNotExists(C, ID).build(p));
          return channelOf(crawlId, t.get(new Get(p.getRow()).addFamily(C)));
        });
  }

  /** Changes a channel's default delay if it is still the same channel. */
  boolean setDelay(Channel c, long delayMs) {
    byte[] row = nameRow(c.crawlId());
    Put p = new Put(row).addColumn(C, DELAY, Bytes.toBytes(delayMs));
    return table.check(
        CheckAndMutate.newBuilder(row).ifEquals(C, ID, Bytes.toBytes(c.id())).build(p),
        "set channel delay");
  }

  /** Channels in crawl ID order after {@code afterCrawlId} (exclusive; null = from the start). */
  List<Channel> channels(String afterCrawlId, int limit) {
    Scan scan = new Scan().addFamily(C);
    if (afterCrawlId != null) {
      scan.withStartRow(nameRow(afterCrawlId), false);
    }
    return table.call(
        "list channels",
        t -> {
          List<Channel> out = new ArrayList<>();
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result r : s) {
              if (!named(r)) {
                continue;
              }
              out.add(channelOf(FrontierKeys.CHANNEL_NAME.decode(r.getRow()).string("crawlId"), r));
              if (out.size() >= limit) {
                break;
              }
            }
          }
          return out;
        });
  }

  /**
   * Removes the name of {@code c} (if it still names that channel) and marks its number for the
   * background purge, in one row of the global record first, so a crash between leaves a purge that
   * finds nothing rather than rows nobody purges. The name's id is cleared, not deleted (see
   * TableStore.CLEARED): the crawl may be put again at once.
   */
  boolean delete(Channel c, long now) {
    return table.call(
        "delete channel " + c.crawlId(),
        t -> {
          t.put(
              new Put(globalRow())
                  .addColumn(P, FrontierKeys.PURGE.encode(c.id()), Bytes.toBytes(now)));
          byte[] row = nameRow(c.crawlId());
          return t.checkAndMutate(
                  CheckAndMutate.newBuilder(row)
                      .ifEquals(C, ID, Bytes.toBytes(c.id()))
                      .build(new Put(row).addColumn(C, ID, TableStore.CLEARED)))
              .isSuccess();
        });
  }

  /** Channel numbers waiting to be purged, with the time they were deleted. */
  Map<Long, Long> purges() {
    return table.call(
        "read purges",
        t -> {
          Result r = t.get(new Get(globalRow()).addFamily(P));
          Map<Long, Long> out = new HashMap<>();
          for (Cell c : r.rawCells()) {
            out.put(
                FrontierKeys.PURGE.decode(CellUtil.cloneQualifier(c)).number("channel"),
                Bytes.toLong(CellUtil.cloneValue(c)));
          }
          return out;
        });
  }

  /** Clears the purge mark of channel {@code id} once its rows are gone. */
  void purged(long id) {
    table.call(
        "clear purge mark",
        t -> {
          t.delete(new Delete(globalRow()).addColumns(P, FrontierKeys.PURGE.encode(id)));
          return null;
        });
  }

  /** The row holding the channel number sequence, the active switch and purge marks. */
  private static byte[] globalRow() {
    // The empty crawl ID: never a channel's (URLFrontier reads it as DEFAULT).
    return FrontierKeys.CHANNEL_NAME.encode("");
  }

  boolean active() {
    return TableStore.held(
            table.call(
                "read active",
                t -> t.get(new Get(globalRow()).addColumn(C, INACTIVE)).getValue(C, INACTIVE)))
        == null;
  }

  void setActive(boolean active) {
    table.call(
        "set active",
        t -> {
          t.put(
              new Put(globalRow())
                  .addColumn(C, INACTIVE, active ? TableStore.CLEARED : new byte[] {1}));
          return null;
        });
  }
}
