package org.casebook.frontier;

import static org.casebook.frontier.FrontierSchema.ADDRESS;
import static org.casebook.frontier.FrontierSchema.HEARTBEAT;
import static org.casebook.frontier.FrontierSchema.N;
import static org.casebook.frontier.FrontierSchema.PERIOD;
import static org.casebook.frontier.FrontierSchema.STARTED;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code frontier:nodes}: a row per running frontier node, keyed by the node's random id, holding
 * its gRPC address, start time, last heartbeat and heartbeat period. Each node writes only its own
 * row; a reader deletes a row only if it still holds the heartbeat the reader judged dead.
 */
final class NodeStore {
  private final TableStore table;

  NodeStore(Connection connection, FrontierSchema schema) {
    this.table = new TableStore(connection, schema.nodes());
  }

  private static byte[] row(long id) {
    return FrontierKeys.NODE.encode(id);
  }

  /**
   * Writes the node's whole row: a row deleted by a reader that took the node for dead (its
   * heartbeats were held up for long) comes back whole at its next heartbeat.
   */
  void put(NodeRow node) {
    table.call(
        "write node row",
        t -> {
          t.put(
              new Put(row(node.id()))
                  .addColumn(N, ADDRESS, Bytes.toBytes(node.address()))
                  .addColumn(N, STARTED, Bytes.toBytes(node.startedAt()))
                  .addColumn(N, HEARTBEAT, Bytes.toBytes(node.heartbeatAt()))
                  .addColumn(N, PERIOD, Bytes.toBytes(node.periodMillis())));
          return null;
        });
  }

  /** Deletes the node's row (its clean stop). */
  void delete(long id) {
    table.call(
        "delete node row",
        t -> {
          t.delete(new Delete(row(id)));
          return null;
        });
  }

  /** The node rows, at most {@code limit}, in id order; rows missing a column are left out. */
  List<NodeRow> nodes(int limit) {
    Scan scan = new Scan().addFamily(N).setCaching(Math.min(limit, 1000)).setLimit(limit);
    return table.call(
        "list nodes",
        t -> {
          List<NodeRow> out = new ArrayList<>();
          try (ResultScanner s = t.getScanner(scan)) {
            for (Result r : s) {
              NodeRow node = nodeOf(r);
              if (node != null) {
                out.add(node);
              }
            }
          }
          return out;
        });
  }

  /** A node of its row; null for a row without every column, which no node writes. */
  private static NodeRow nodeOf(Result r) {
    byte[] address = TableStore.held(r.getValue(N, ADDRESS));
    byte[] started = TableStore.held(r.getValue(N, STARTED));
    byte[] heartbeat = TableStore.held(r.getValue(N, HEARTBEAT));
    byte[] period = TableStore.held(r.getValue(N, PERIOD));
    if (address == null || started == null || heartbeat == null || period == null) {
      return null;
    }
    long periodMillis = Bytes.toLong(period);
    if (periodMillis <= 0) {
      return null;
    }
    return new NodeRow(
        FrontierKeys.NODE.decode(r.getRow()).number("nodeId"),
        Bytes.toString(address),
        Bytes.toLong(started),
        Bytes.toLong(heartbeat),
        periodMillis);
  }

  /**
   * Deletes each row only if it still holds the heartbeat read in {@code nodes}: a node renewing
   * its row meanwhile keeps it. Answers how many went.
   */
  int deleteIfUnchanged(List<NodeRow> nodes) {
    List<CheckAndMutate> cams = new ArrayList<>(nodes.size());
    for (NodeRow n : nodes) {
      cams.add(
          CheckAndMutate.newBuilder(row(n.id()))
              .ifEquals(N, HEARTBEAT, Bytes.toBytes(n.heartbeatAt()))
              .build(new Delete(row(n.id()))));
    }
    int deleted = 0;
    for (boolean ok : table.checkAll(cams, "delete dead node rows")) {
      if (ok) {
        deleted++;
      }
    }
    return deleted;
  }
}
