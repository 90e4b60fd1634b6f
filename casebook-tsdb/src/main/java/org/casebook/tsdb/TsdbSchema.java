package org.casebook.tsdb;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The two tables, in namespace {@code tsdb} unless a test or benchmark picks its own. Family and
 * qualifier names are one byte, as the seed advises: HBase repeats them in every cell.
 */
record TsdbSchema(String namespace, TableName uid, TableName data) {
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

  static TsdbSchema in(String namespace) {
    return new TsdbSchema(
        namespace, TableName.valueOf(namespace, "uid"), TableName.valueOf(namespace, "data"));
  }

  List<TableSpec> tables(int saltBuckets) {
    return List.of(
        new TableSpec(
            uid,
            // Small and read on every cache miss: kept in memory.
            List.of(FamilySpec.of("u").withInMemory(true)),
            SplitPoints.none(),
            TsdbKeys.UID_FORWARD.shape() + "; " + TsdbKeys.UID_REVERSE.shape()),
        new TableSpec(
            data,
            List.of(FamilySpec.of("t")),
            saltBuckets > 1 ? SplitPoints.leadingByteBuckets(saltBuckets) : SplitPoints.none(),
            (saltBuckets > 1 ? TsdbKeys.SALTED_DATA : TsdbKeys.DATA).shape()));
  }
}
