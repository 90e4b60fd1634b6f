package org.casebook.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.junit.jupiter.api.Test;

/** {@link SchemaManager#verify}: what an existing table is retuned to, without HBase. */
class SchemaVerifyTest {
  private static TableSpec spec(FamilySpec family) {
    return TableSpec.of("ns", "t", "k", SplitPoints.none(), family);
  }

  private static TableDescriptor existing(FamilySpec family) {
    return SchemaManager.toDescriptor(spec(family));
  }

  @Test
  void aDeclaredEncodingReplacesTheTablesAndKeepsTheRest() {
    TableDescriptor old = existing(FamilySpec.of("a").withBlockSize(8192));
    SchemaManager.Changes changes =
        SchemaManager.verify(
            old,
            spec(
                FamilySpec.of("a")
                    .withBlockSize(8192)
                    .withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1)));
    assertThat(changes.missing()).isEmpty();
    assertThat(changes.retuned()).hasSize(1);
    ColumnFamilyDescriptor a = changes.retuned().get(0);
    assertThat(a.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
    assertThat(a.getBlocksize()).isEqualTo(8192);
    assertThat(a.getInMemoryCompaction()).isNull();
  }

  @Test
  void anEqualOrUndeclaredEncodingChangesNothing() {
    FamilySpec indexed = FamilySpec.of("a").withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1);
    assertThat(SchemaManager.verify(existing(indexed), spec(indexed)).none()).isTrue();
    assertThat(SchemaManager.verify(existing(indexed), spec(FamilySpec.of("a"))).none()).isTrue();
    // HBase reports an unset encoding as NONE: declaring NONE on such a table is no change.
    assertThat(
            SchemaManager.verify(
                    existing(FamilySpec.of("a")),
                    spec(FamilySpec.of("a").withDataBlockEncoding(DataBlockEncoding.NONE)))
                .none())
        .isTrue();
  }

  @Test
  void compactionAndEncodingTogetherAreOneRetunedFamily() {
    SchemaManager.Changes changes =
        SchemaManager.verify(
            existing(FamilySpec.of("a")),
            spec(
                FamilySpec.of("a")
                    .withInMemoryCompaction(MemoryCompactionPolicy.EAGER)
                    .withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1)));
    assertThat(changes.retuned())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.getInMemoryCompaction()).isEqualTo(MemoryCompactionPolicy.EAGER);
              assertThat(f.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
            });
    assertThat(changes.missing()).isEmpty();
  }
}
