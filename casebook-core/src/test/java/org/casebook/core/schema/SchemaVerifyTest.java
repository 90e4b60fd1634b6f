package org.casebook.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
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

  @Test
  void compressionAndBloomChangeInPlaceAndSayTheOldFilesKeepTheirsUntilAMajorCompaction() {
    PureJavaCodecs.install(new org.apache.hadoop.conf.Configuration(false));
    SchemaManager.Changes changes =
        SchemaManager.verify(
            existing(FamilySpec.of("a").withBlockSize(8192)),
            spec(
                FamilySpec.of("a")
                    .withBlockSize(8192)
                    .withCompression(Compression.Algorithm.ZSTD)
                    .withBloom(BloomType.NONE)));
    assertThat(changes.retuned())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.getCompressionType()).isEqualTo(Compression.Algorithm.ZSTD);
              assertThat(f.getBloomFilterType()).isEqualTo(BloomType.NONE);
              assertThat(f.getBlocksize()).isEqualTo(8192);
            });
    assertThat(changes.notes())
        .containsExactly(
            "family a now compresses the files it writes ZSTD (was NONE; files already written"
                + " keep NONE until a major compaction)",
            "family a now writes bloom filters NONE (was ROW; files already written keep ROW until"
                + " a major compaction)");
  }

  @Test
  void aChangedTtlIsRetunedInPlaceAndSaysWhatItDoesToStoredCells() {
    SchemaManager.Changes shorter =
        SchemaManager.verify(
            existing(FamilySpec.of("a")), spec(FamilySpec.of("a").withTtlSeconds(30 * 86_400)));
    assertThat(shorter.retuned())
        .singleElement()
        .extracting(c -> c.getTimeToLive())
        .isEqualTo(30 * 86_400);
    assertThat(shorter.notes())
        .containsExactly(
            "family a now keeps cells for 30 days (was forever): older cells are no longer read"
                + " from now on, and the next major compaction removes them");
    SchemaManager.Changes longer =
        SchemaManager.verify(
            existing(FamilySpec.of("a").withTtlSeconds(86_400)), spec(FamilySpec.of("a")));
    assertThat(longer.notes())
        .containsExactly(
            "family a now keeps cells forever (was for 1 day): cells that had expired and that no"
                + " compaction has removed yet are read again");
    assertThat(longer.rewrites()).isFalse();
  }

  @Test
  void aDeploymentSubstitutesACodecItsRegionServersLackAndABadSubstitutionIsRefused() {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    conf.set(SchemaManager.SUBSTITUTE_KEY, "zstd:SNAPPY, LZ4:GZ");
    FamilySpec zstd = FamilySpec.of("a").withCompression(Compression.Algorithm.ZSTD);
    assertThat(SchemaManager.compressionOn(zstd, conf)).isEqualTo(Compression.Algorithm.SNAPPY);
    assertThat(
            SchemaManager.compressionOn(
                FamilySpec.of("a").withCompression(Compression.Algorithm.GZ), conf))
        .isEqualTo(Compression.Algorithm.GZ);
    conf.set(SchemaManager.SUBSTITUTE_KEY, "ZSTD:BROTLY");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> SchemaManager.compressionOn(zstd, conf))
        .isInstanceOf(org.casebook.core.InvalidInputException.class)
        .hasMessageContaining("unknown codec 'BROTLY'");
    conf.set(SchemaManager.SUBSTITUTE_KEY, "ZSTD");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> SchemaManager.compressionOn(zstd, conf))
        .isInstanceOf(org.casebook.core.InvalidInputException.class)
        .hasMessageContaining("FROM:TO pairs");
  }
}
