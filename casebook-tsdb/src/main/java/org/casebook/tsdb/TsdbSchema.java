package org.casebook.tsdb;

import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.ZSTD;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The five tables, in namespace {@code tsdb} unless the {@code namespace} setting names another.
 * Family and qualifier names are one byte, as the seed advises: HBase repeats them in every cell.
 *
 * <p>Compression: ZSTD on the data table (points are most of the bytes and are read by scans, which
 * ZSTD kept at Snappy's rate with 1.7× less disk; 7.7× less than none), Snappy on the small
 * in-memory uid table and on the annotation table (a few notes, read per query and by GUIs);
 * figures in docs/SCALING.md. The series index is Snappy too: small keys without values, read by
 * lookups that wait for the answer. The rollup table holds each series' hourly count, sum, min and
 * max in one cell per series and day, written by compaction, read by queries whose downsampling
 * spans whole hours.
 */
record TsdbSchema(
    String namespace,
    TableName uid,
    TableName data,
    TableName annotation,
    TableName series,
    TableName rollup) {
  private static final Logger LOG = LoggerFactory.getLogger(TsdbSchema.class);

  static final String DEFAULT_NAMESPACE = "tsdb";

  /** uid family; qualifiers {@link #ID} (forward rows), {@link #NAME} (reverse), {@link #NEXT}. */
  static final byte[] U = Bytes.toBytes("u");

  static final byte[] ID = Bytes.toBytes("i");
  static final byte[] NAME = Bytes.toBytes("n");
  static final byte[] NEXT = Bytes.toBytes("x");

  /** The salt bucket count the data table was created with (on the uid counter row of kind 0). */
  static final byte[] SALT = Bytes.toBytes("s");

  /** data family. */
  static final byte[] T = Bytes.toBytes("t");

  /** annotation family; one qualifier, {@link #NOTE}: the annotation's JSON. */
  static final byte[] A = Bytes.toBytes("a");

  static final byte[] NOTE = Bytes.toBytes("j");

  /**
   * series index family: {@link #SEEN} on a series row (empty), {@link #INDEXED} on a metric's
   * state row (every series indexed), {@link #BORN} on the index's own state row.
   */
  static final byte[] S = Bytes.toBytes("s");

  static final byte[] SEEN = Bytes.toBytes("e");
  static final byte[] INDEXED = Bytes.toBytes("c");
  static final byte[] BORN = Bytes.toBytes("b");

  /** On a metric's state row in the series table: every hour before this one is rolled up. */
  static final byte[] ROLLED = Bytes.toBytes("r");

  /** rollup family: one cell, the hourly rollups of the row's day ({@code RollupStore}). */
  static final byte[] H = Bytes.toBytes("h");

  static TsdbSchema in(String namespace) {
    return new TsdbSchema(
        namespace,
        TableName.valueOf(namespace, "uid"),
        TableName.valueOf(namespace, "data"),
        TableName.valueOf(namespace, "annotation"),
        TableName.valueOf(namespace, "series"),
        TableName.valueOf(namespace, "rollup"));
  }

  /**
   * The tables for {@code saltBuckets} (0: no salt). Salted, the data table has one region per salt
   * bucket: the bucket is an MD5 of the series (metric and tags), so series spread evenly once
   * there are a few per bucket. Unsalted, data rows lead with the metric id, handed out in order as
   * metrics appear, and the uid table is small: neither has a key distribution to split on up
   * front, and both grow by HBase's own splits.
   */
  List<TableSpec> tables(int saltBuckets) {
    return List.of(
        new TableSpec(
            uid,
            // Small and read on every cache miss: kept in memory.
            List.of(FamilySpec.of("u").withCompression(SNAPPY).withInMemory(true)),
            SplitPoints.none(),
            TsdbKeys.UID_FORWARD.shape() + "; " + TsdbKeys.UID_REVERSE.shape()),
        new TableSpec(
            data,
            List.of(FamilySpec.of("t").withCompression(ZSTD)),
            saltBuckets > 1 ? SplitPoints.leadingByteBuckets(saltBuckets) : SplitPoints.none(),
            (saltBuckets > 1 ? TsdbKeys.SALTED_DATA : TsdbKeys.DATA).shape()),
        new TableSpec(
            annotation,
            // Notes are few and small; unsalted, as OpenTSDB's global notes are.
            List.of(FamilySpec.of("a").withCompression(SNAPPY)),
            SplitPoints.none(),
            AnnotationKeys.GLOBAL.shape() + "; " + AnnotationKeys.SERIES.shape()),
        new TableSpec(
            series,
            // One row per series, written once: no salt (nothing hot to spread), no splits up
            // front (a metric's series are one key range, as the data rows' are).
            List.of(FamilySpec.of("s").withCompression(SNAPPY)),
            SplitPoints.none(),
            TsdbKeys.INDEX_STATE.shape() + "; " + TsdbKeys.INDEX_SERIES.shape()),
        new TableSpec(
            rollup,
            // Read by long-range queries as the data table is (scans of many rows), so ZSTD;
            // salted and split as the data table, since its rows are the data rows' per day.
            List.of(FamilySpec.of("h").withCompression(ZSTD)),
            saltBuckets > 1 ? SplitPoints.leadingByteBuckets(saltBuckets) : SplitPoints.none(),
            (saltBuckets > 1 ? TsdbKeys.SALTED_ROLLUP_DAY : TsdbKeys.ROLLUP_DAY).shape()));
  }

  /**
   * Creates what is missing of the tables, the data table pre-split on the salt bucket byte.
   *
   * <p>The platform creates the tables pre-split when the salt is set before they are first made. A
   * salt set after that (tables made unsalted, nothing written yet) finds a data table of one
   * region; while it is empty and no salt is recorded, it is created again pre-split, as it would
   * have been with the salt set from the start.
   */
  void ensure(Connection connection, int saltBuckets) {
    SchemaManager schemas = new SchemaManager(connection);
    List<TableSpec> specs = tables(saltBuckets);
    List<SchemaManager.Result> ensured = schemas.ensureAll(specs);
    if (saltBuckets <= 1 || saltRecorded(connection)) {
      return;
    }
    for (int i = 0; i < specs.size(); i++) {
      TableName table = specs.get(i).name();
      if ((table.equals(data) || table.equals(rollup))
          && ensured.get(i).regions() < saltBuckets
          && isEmpty(connection, table)) {
        LOG.info(
            "re-creating the empty table {} pre-split into {} salt buckets", table, saltBuckets);
        schemas.drop(table);
        schemas.ensure(specs.get(i));
      }
    }
  }

  private boolean saltRecorded(Connection connection) {
    try (Table t = connection.getTable(uid)) {
      return t.exists(new Get(TsdbKeys.saltRecordRow()).addColumn(U, SALT));
    } catch (IOException e) {
      throw StorageException.of("read the salt setting", e);
    }
  }

  private static boolean isEmpty(Connection connection, TableName table) {
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(new Scan().setLimit(1).setCaching(1))) {
      return s.next() == null;
    } catch (IOException e) {
      throw StorageException.of("look into " + table, e);
    }
  }
}
