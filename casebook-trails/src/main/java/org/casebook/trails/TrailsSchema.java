package org.casebook.trails;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/** The {@code trails} namespace: one family, one version per table (seed 000 §2.1). */
record TrailsSchema(TableName events, TableName tall, TableName wide) {
  static final String DEFAULT_NAMESPACE = "trails";
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] H = Bytes.toBytes("h");

  /** history_tall:h:e — the record as JSON. */
  static final byte[] E = Bytes.toBytes("e");

  static TrailsSchema in(String namespace) {
    return new TrailsSchema(
        TableName.valueOf(namespace, "events"),
        TableName.valueOf(namespace, "history_tall"),
        TableName.valueOf(namespace, "history_wide"));
  }

  /**
   * Events are pre-split on the reversed uid's first byte (16 regions over printable ASCII):
   * reversing puts the fastest-changing character of sequential ids first. Every family indexes the
   * rows of each block ({@link #family}).
   */
  List<TableSpec> tables() {
    return List.of(
        new TableSpec(
            events,
            List.of(family("d")),
            firstCharSplits(),
            TrailsKeys.EVENT_ROW.shape() + "; columns " + TrailsKeys.EVENT_COLUMN.shape()),
        new TableSpec(tall, List.of(family("h")), SplitPoints.none(), TrailsKeys.TALL_ROW.shape()),
        new TableSpec(
            wide,
            List.of(family("h")),
            SplitPoints.none(),
            TrailsKeys.WIDE_ROW.shape() + "; columns " + TrailsKeys.WIDE_COLUMN.shape()));
  }

  /**
   * A trails family: ROW_INDEX_V1 blocks, so that reaching a row inside a 64 KiB block is a binary
   * search over the block's rows. Without it every seek walked the block's cells from its start,
   * where a profile of the 100 users' query (whose MultiRowRangeFilter seeks once per user) found
   * two thirds of the region server's time; the README has the figures.
   */
  private static FamilySpec family(String name) {
    return FamilySpec.of(name).withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1);
  }

  private static SplitPoints firstCharSplits() {
    String points = "02468acegikmoqsu";
    List<byte[]> p = new java.util.ArrayList<>();
    for (int i = 1; i < points.length(); i++) {
      p.add(new byte[] {(byte) points.charAt(i)});
    }
    return SplitPoints.of(p, "16 regions on the reversed uid's last character");
  }
}
