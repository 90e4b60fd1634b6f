package org.casebook.trails;

import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.ZSTD;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The {@code trails} namespace: one family, one version per table (seed 000 §2.1), and the registry
 * of declared behaviours.
 */
record TrailsSchema(TableName events, TableName tall, TableName wide, TableName registry) {
  static final String DEFAULT_NAMESPACE = "trails";
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] H = Bytes.toBytes("h");

  /** history_tall:h:e — the record as JSON. */
  static final byte[] E = Bytes.toBytes("e");

  /** The registry's family. */
  static final byte[] B = Bytes.toBytes("b");

  /** behaviours:b:def — a declared behaviour's id and fields as JSON. */
  static final byte[] DEF = Bytes.toBytes("def");

  static TrailsSchema in(String namespace) {
    return new TrailsSchema(
        TableName.valueOf(namespace, "events"),
        TableName.valueOf(namespace, "history_tall"),
        TableName.valueOf(namespace, "history_wide"),
        TableName.valueOf(namespace, "behaviours"));
  }

  /**
   * Events are pre-split on the reversed uid's first character ({@link #eventSplits}); the history
   * tables lead with the plain uid, whose distribution is not known when they are made, and grow by
   * HBase's own splits. Every family indexes the rows of each block ({@link #family}). Compression
   * ({@code bench storage}, docs/SCALING.md): Snappy where one user's trail and the latest 20 are
   * read (its uncached Get p50 was 0.83× and 0.65× ZSTD's there), ZSTD on the tall history, which
   * nothing reads on a latency path.
   */
  List<TableSpec> tables() {
    return tables(0);
  }

  /**
   * As {@link #tables()}, every family keeping cells {@code retentionDays} (0: forever). Cells
   * carry their record's time ({@link TrailsRowCodec}), so the TTL drops a record a fixed time
   * after it happened, from all three tables alike: a trail, the history and the latest 20 agree.
   * The registry keeps its rows forever whatever the retention: stored events name their behaviour
   * by its id, which only the registry maps back. It is a few hundred small rows read whole on
   * every refresh: Snappy, no splits.
   */
  List<TableSpec> tables(int retentionDays) {
    int ttl = retentionDays == 0 ? FamilySpec.FOREVER : retentionDays * 86_400;
    return List.of(
        new TableSpec(
            events,
            List.of(family("d", SNAPPY, ttl)),
            eventSplits(),
            TrailsKeys.EVENT_ROW.shape() + "; columns " + TrailsKeys.EVENT_COLUMN.shape()),
        new TableSpec(
            tall, List.of(family("h", ZSTD, ttl)), SplitPoints.none(), TrailsKeys.TALL_ROW.shape()),
        new TableSpec(
            wide,
            List.of(family("h", SNAPPY, ttl)),
            SplitPoints.none(),
            TrailsKeys.WIDE_ROW.shape() + "; columns " + TrailsKeys.WIDE_COLUMN.shape()),
        new TableSpec(
            registry,
            List.of(family("b", SNAPPY, FamilySpec.FOREVER)),
            SplitPoints.none(),
            TrailsKeys.REGISTRY_ROW.shape()
                + " (b:def, the definition as JSON); row \"_ids\": columns "
                + TrailsKeys.REGISTRY_ID_COLUMN.shape()
                + " → the name holding the id"));
  }

  /**
   * A trails family: ROW_INDEX_V1 blocks, so that reaching a row inside a 64 KiB block is a binary
   * search over the block's rows. Without it every seek walked the block's cells from its start,
   * where a profile of the 100 users' query (whose MultiRowRangeFilter seeks once per user) found
   * two thirds of the region server's time; the README has the figures.
   */
  private static FamilySpec family(String name, Compression.Algorithm codec, int ttlSeconds) {
    return FamilySpec.of(name)
        .withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1)
        .withCompression(codec)
        .withTtlSeconds(ttlSeconds);
  }

  /**
   * 10 regions, one per decimal digit the reversed uid starts with. Reversing puts a uid's last,
   * fastest-changing character first, and set-top-box uids (the generator's too) are numbers, so
   * their keys start with a digit, each digit about as often. Each point is the row prefix of the
   * one-digit uid, encoded by {@link TrailsKeys#EVENT_ROW} itself: it sorts after every key of the
   * digit below and at or before every key of its own. A uid that does not end in a digit (the API
   * takes any id) lands by its last character's code point: below {@code '0'} (space, {@code '-'},
   * {@code '.'} …) in the first region, above {@code '9'} (letters, {@code '_'}, CJK …) in the
   * last, so ids ending in letters crowd the {@code 9} region.
   *
   * <p>Split points apply when the table is created: an events table made before keeps its own.
   */
  private static SplitPoints eventSplits() {
    List<byte[]> points = new ArrayList<>();
    for (char digit = '1'; digit <= '9'; digit++) {
      points.add(TrailsKeys.EVENT_ROW.prefix(String.valueOf(digit)));
    }
    return SplitPoints.of(points, "10 regions on the uid's last digit (the reversed uid's first)");
  }
}
