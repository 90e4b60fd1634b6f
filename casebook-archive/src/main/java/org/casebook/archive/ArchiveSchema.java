package org.casebook.archive;

import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.ZSTD;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * Seed 001 §2.1's tables. The data tables are pre-split into R regions when the first import
 * creates them (R from the data size, see {@link SplitPlan}); R is recorded in {@code meta} because
 * every row key depends on it.
 *
 * <p>Compression: ZSTD on the data tables (an archive is written once and kept: ZSTD took 7.6× less
 * disk than none on the generated statuses, GZ as little but writes slower), Snappy on the one-row
 * meta table; figures in docs/SCALING.md.
 */
record ArchiveSchema(
    String namespace, TableName user, TableName status, TableName statusIndex, TableName meta) {
  static final String DEFAULT_NAMESPACE = "archive";
  static final byte[] BASIC = Bytes.toBytes("basic_info");
  static final byte[] STATUSES = Bytes.toBytes("statuses_id");
  static final byte[] RELATIONSHIP = Bytes.toBytes("relationship");
  static final byte[] OTHER = Bytes.toBytes("other_info");
  static final byte[] TEXT = Bytes.toBytes("text_info");
  static final byte[] U = Bytes.toBytes("u");
  static final byte[] M = Bytes.toBytes("m");
  static final byte[] LAYOUT_ROW = Bytes.toBytes("layout");
  static final byte[] REGIONS = Bytes.toBytes("regions");
  static final byte[] KEY_RULE = Bytes.toBytes("key_rule");

  static ArchiveSchema in(String namespace) {
    return new ArchiveSchema(
        namespace,
        TableName.valueOf(namespace, "user"),
        TableName.valueOf(namespace, "status"),
        TableName.valueOf(namespace, "status_index"),
        TableName.valueOf(namespace, "meta"));
  }

  TableSpec metaSpec() {
    return new TableSpec(
        meta,
        List.of(FamilySpec.of("m").withCompression(SNAPPY)),
        SplitPoints.none(),
        "'layout' → regions, key rule");
  }

  /** The data tables as {@code tables} says: split points per table, table-level settings. */
  List<TableSpec> dataSpecs(ArchiveTables tables) {
    return List.of(
        new TableSpec(
                user,
                List.of(
                    FamilySpec.of("basic_info").withCompression(ZSTD),
                    FamilySpec.of("statuses_id").withCompression(ZSTD),
                    FamilySpec.of("relationship").withCompression(ZSTD)),
                tables.userSplits(),
                "region id | uid")
            .withSettings(tables.tableSettings()),
        new TableSpec(
                status,
                List.of(
                    FamilySpec.of("basic_info").withCompression(ZSTD),
                    FamilySpec.of("other_info").withCompression(ZSTD),
                    FamilySpec.of("text_info").withCompression(ZSTD)),
                tables.statusSplits(),
                "region id | uid | MAX - status id")
            .withSettings(tables.tableSettings()),
        new TableSpec(
                statusIndex,
                List.of(FamilySpec.of("u").withCompression(ZSTD)),
                tables.indexSplits(),
                "region id(status id) | status id → uid")
            .withSettings(tables.tableSettings()));
  }

  /** The data tables in the order the bulk load's job numbers them: user, status, status_index. */
  List<TableName> dataTables() {
    return List.of(user, status, statusIndex);
  }
}
