package org.casebook.frontier;

import static org.apache.hadoop.hbase.MemoryCompactionPolicy.BASIC;
import static org.apache.hadoop.hbase.MemoryCompactionPolicy.EAGER;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The frontier's tables in one namespace ({@code frontier} unless a test or benchmark picks its
 * own). Every channel shares them; its number leads every key (seed 002 made two tables per
 * channel: see the README's departures). None is pre-split: channel numbers are handed out as
 * channels are made, so where their keys fall is not known when the tables are; they grow by
 * HBase's own splits.
 *
 * <p>Compression: Snappy on every family: each put, get and ack writes these rows, and on hosts,
 * rewritten at every hand-out, Snappy kept 0.76× of the uncompressed write rate where ZSTD kept
 * 0.57×; it still took 3.5–3.9× less disk than none on generated URLs (ZSTD 5–6.6×); figures in
 * docs/SCALING.md.
 */
record FrontierSchema(
    String namespace,
    TableName channels,
    TableName hosts,
    TableName urls,
    TableName known,
    TableName due,
    TableName nodes) {
  static final String DEFAULT_NAMESPACE = "frontier";

  /** channels: c = settings of a name row, p = channels still being purged (global row). */
  static final byte[] C = Bytes.toBytes("c");

  static final byte[] P = Bytes.toBytes("p");

  /** hosts: h = the queue's settings and running counters, s = daily counters. */
  static final byte[] H = Bytes.toBytes("h");

  static final byte[] S = Bytes.toBytes("s");

  /** urls: u = the URL as handed out; f = in flight until (a family of its own: scanned alone). */
  static final byte[] U = Bytes.toBytes("u");

  static final byte[] F = Bytes.toBytes("f");

  /** known and due: one family each. */
  static final byte[] K = Bytes.toBytes("k");

  static final byte[] D = Bytes.toBytes("d");

  /** nodes: n = a running node's address, start and heartbeat. */
  static final byte[] N = Bytes.toBytes("n");

  // channels, name row (c)
  static final byte[] ID = Bytes.toBytes("id");
  static final byte[] KIND = Bytes.toBytes("kind");
  static final byte[] DELAY = Bytes.toBytes("delay");
  static final byte[] CREATED = Bytes.toBytes("created");
  // channels, global row (c)
  static final byte[] SEQUENCE = Bytes.toBytes("seq");
  static final byte[] INACTIVE = Bytes.toBytes("inactive");

  // hosts (h): queue key, own delay, blocked until, limit, last hand-out, next due, counters
  static final byte[] KEY = Bytes.toBytes("k");
  static final byte[] BLOCKED = Bytes.toBytes("b");
  static final byte[] LIMIT = Bytes.toBytes("lim");
  static final byte[] LAST = Bytes.toBytes("l");
  static final byte[] NEXT = Bytes.toBytes("n");
  static final byte[] QUEUED = Bytes.toBytes("q");
  static final byte[] COMPLETED = Bytes.toBytes("c");

  /**
   * hosts (h): a PurgeURLs batch begun on the host and not yet settled ({@link PurgeBatchCodec});
   * on the channel row, qualifiers {@link FrontierKeys#PURGE_SETTLED} mark a batch whose channel
   * counters are settled.
   */
  static final byte[] PURGE_BATCH = Bytes.toBytes("pj");

  /**
   * hosts (h): prefix of a mark that a put's counter deltas were added to the row (followed by the
   * put's token), there only while the put runs, so a counter write sent again adds nothing.
   */
  static final byte[] COUNTED = Bytes.toBytes("x.");

  // urls (u, f) and known (k)
  static final byte[] INFO = Bytes.toBytes("i");
  static final byte[] VERSION = Bytes.toBytes("v");
  static final byte[] DUE_AT = Bytes.toBytes("r");
  static final byte[] PRIORITY = Bytes.toBytes("p");
  static final byte[] UNTIL = Bytes.toBytes("f");

  /** known (k): when the URL was first stored (ms since the epoch), kept by every later write. */
  static final byte[] CREATED_AT = Bytes.toBytes("t");

  /**
   * known (k): the versions a row held before its current one, newest first, a few at most: a put
   * whose answer was lost learns from them whether its write was made before another replaced it.
   */
  static final byte[] EARLIER = Bytes.toBytes("e");

  // due (d): an empty mark, and the stamp the row's writer replaces
  static final byte[] MARK = Bytes.toBytes("m");
  static final byte[] DUE_FROM = Bytes.toBytes("p");

  // nodes (n): gRPC address, started, last heartbeat, heartbeat period (all ms but the address)
  static final byte[] ADDRESS = Bytes.toBytes("a");
  static final byte[] STARTED = Bytes.toBytes("s");
  static final byte[] HEARTBEAT = Bytes.toBytes("h");
  static final byte[] PERIOD = Bytes.toBytes("p");

  /** Daily counters are kept 400 days. */
  static final int STATS_TTL_SECONDS = 400 * 86_400;

  static FrontierSchema in(String namespace) {
    return new FrontierSchema(
        namespace,
        TableName.valueOf(namespace, "channels"),
        TableName.valueOf(namespace, "hosts"),
        TableName.valueOf(namespace, "urls"),
        TableName.valueOf(namespace, "known"),
        TableName.valueOf(namespace, "due"),
        TableName.valueOf(namespace, "nodes"));
  }

  /**
   * Memstore policies: families whose cells are rewritten or deleted over and over — running and
   * daily counters, next-due and last hand-out times, queued rows, in-flight marks, due rows — keep
   * only their newest versions in memory (EAGER in-memory compaction), where reads otherwise walk
   * every version still in the memstore; known rows, mostly written once, are only flattened
   * (BASIC), which keeps the skip list that takes new rows small. Measured with bench frontier at
   * 300,000 URLs over 10,000 hosts against the cluster default: PutURLs 4,772 → 5,118 URLs/s,
   * completing every URL 4,819 → 5,388 URLs/s.
   */
  List<TableSpec> tables() {
    return List.of(
        new TableSpec(
            channels,
            List.of(
                FamilySpec.of("c").withCompression(SNAPPY),
                FamilySpec.of("p").withCompression(SNAPPY)),
            SplitPoints.none(),
            FrontierKeys.CHANNEL_NAME.shape() + "; c: settings; p: " + FrontierKeys.PURGE.shape()),
        new TableSpec(
            hosts,
            List.of(
                FamilySpec.of("h")
                    .withCompression(SNAPPY)
                    .withInMemory(true)
                    .withInMemoryCompaction(EAGER),
                FamilySpec.of("s")
                    .withCompression(SNAPPY)
                    .withTtlSeconds(STATS_TTL_SECONDS)
                    .withInMemoryCompaction(EAGER)),
            SplitPoints.none(),
            FrontierKeys.HOST.shape()
                + " (channel row: "
                + FrontierKeys.CHANNEL.shape()
                + "); s: "
                + FrontierKeys.DAY_COUNTER.shape()),
        new TableSpec(
            urls,
            List.of(
                FamilySpec.of("u").withCompression(SNAPPY).withInMemoryCompaction(EAGER),
                FamilySpec.of("f").withCompression(SNAPPY).withInMemoryCompaction(EAGER)),
            SplitPoints.none(),
            FrontierKeys.URL.shape()),
        new TableSpec(
            known,
            List.of(FamilySpec.of("k").withCompression(SNAPPY).withInMemoryCompaction(BASIC)),
            SplitPoints.none(),
            FrontierKeys.KNOWN.shape()),
        new TableSpec(
            due,
            List.of(
                FamilySpec.of("d")
                    .withCompression(SNAPPY)
                    .withInMemory(true)
                    .withInMemoryCompaction(EAGER)),
            SplitPoints.none(),
            FrontierKeys.DUE.shape()),
        new TableSpec(
            nodes,
            List.of(FamilySpec.of("n").withCompression(SNAPPY).withInMemory(true)),
            SplitPoints.none(),
            FrontierKeys.NODE.shape()));
  }
}
