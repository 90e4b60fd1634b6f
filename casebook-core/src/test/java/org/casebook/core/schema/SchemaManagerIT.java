package org.casebook.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.ConflictException;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class SchemaManagerIT {
  @Test
  void createsOnceThenLeavesAMatchingTableAlone(HBaseRuntime runtime) throws Exception {
    TableSpec spec =
        TableSpec.of(
            "casebook_schema",
            TestIds.unique("t"),
            "salt | id",
            SplitPoints.leadingByteBuckets(4),
            FamilySpec.of("a")
                .withMaxVersions(3)
                .withTtlSeconds(3600)
                .withBloom(BloomType.ROWCOL)
                .withBlockSize(16 * 1024),
            FamilySpec.of("b").withInMemory(true));
    SchemaManager schemas = new SchemaManager(runtime.connection());
    assertThat(schemas.ensure(spec).outcome()).isEqualTo(SchemaManager.Outcome.CREATED);
    assertThat(schemas.ensure(spec).outcome()).isEqualTo(SchemaManager.Outcome.UNCHANGED);
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getRegions(spec.name())).hasSize(4);
      ColumnFamilyDescriptor a =
          admin.getDescriptor(spec.name()).getColumnFamily(Bytes.toBytes("a"));
      assertThat(a.getMaxVersions()).isEqualTo(3);
      assertThat(a.getTimeToLive()).isEqualTo(3600);
      assertThat(a.getBloomFilterType()).isEqualTo(BloomType.ROWCOL);
      assertThat(a.getBlocksize()).isEqualTo(16 * 1024);
    }
  }

  @Test
  void conflictingTableIsReportedWithEveryDifferenceAndNothingIsCreated(HBaseRuntime runtime) {
    String table = TestIds.unique("t");
    SchemaManager schemas = new SchemaManager(runtime.connection());
    schemas.ensure(
        TableSpec.of("casebook_schema", table, "k", SplitPoints.none(), FamilySpec.of("a")));
    TableSpec other =
        TableSpec.of(
            "casebook_schema",
            table,
            "k",
            SplitPoints.none(),
            FamilySpec.of("a").withMaxVersions(5),
            FamilySpec.of("z"));
    TableSpec fresh =
        TableSpec.of(
            "casebook_schema",
            TestIds.unique("fresh"),
            "k",
            SplitPoints.none(),
            FamilySpec.of("a"));
    assertThatThrownBy(() -> schemas.ensureAll(List.of(fresh, other)))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("max versions is 1, declared 5")
        .hasMessageContaining("family 'z' is missing");
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.tableExists(fresh.name())).as("nothing created after a conflict").isFalse();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aFamilyANewerVersionDeclaresIsAddedAndTheDataStays(HBaseRuntime runtime) throws Exception {
    String table = TestIds.unique("grow");
    SchemaManager schemas = new SchemaManager(runtime.connection());
    TableSpec old =
        TableSpec.of("casebook_schema", table, "k", SplitPoints.none(), FamilySpec.of("a"));
    schemas.ensure(old);
    byte[] a = org.apache.hadoop.hbase.util.Bytes.toBytes("a");
    try (org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(old.name())) {
      t.put(new org.apache.hadoop.hbase.client.Put(a).addColumn(a, a, a));
    }
    TableSpec newer =
        TableSpec.of(
            "casebook_schema",
            table,
            "k",
            SplitPoints.none(),
            FamilySpec.of("a"),
            FamilySpec.of("p"));
    assertThat(schemas.ensureAll(List.of(newer)))
        .extracting(SchemaManager.Result::outcome)
        .containsExactly(SchemaManager.Outcome.FAMILIES_ADDED);
    assertThat(schemas.ensure(newer).outcome()).isEqualTo(SchemaManager.Outcome.UNCHANGED);
    try (org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(old.name())) {
      assertThat(t.exists(new org.apache.hadoop.hbase.client.Get(a))).isTrue();
      assertThat(t.getDescriptor().hasColumnFamily(org.apache.hadoop.hbase.util.Bytes.toBytes("p")))
          .isTrue();
    }
  }

  @Test
  void memstoreCompactionAndBlockEncodingChangeInPlaceKeepingDataAndOtherSettings(
      HBaseRuntime runtime) throws Exception {
    SchemaManager schemas = new SchemaManager(runtime.connection());
    String table = TestIds.unique("tune");
    TableSpec old = oneFamily(table, FamilySpec.of("a").withBlockSize(8192));
    schemas.ensure(old);
    byte[] a = Bytes.toBytes("a");
    try (org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(old.name())) {
      t.put(new org.apache.hadoop.hbase.client.Put(a).addColumn(a, a, a));
    }
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.flush(old.name()); // a store file in the old encoding
      // A setting Casebook does not declare, made by an operator: it must survive the change.
      admin.modifyColumnFamily(
          old.name(),
          org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(
                  admin.getDescriptor(old.name()).getColumnFamily(a))
              .setValue("operator.note", "kept")
              .build());
    }
    TableSpec tuned =
        oneFamily(
            table,
            FamilySpec.of("a")
                .withBlockSize(8192)
                .withInMemoryCompaction(MemoryCompactionPolicy.EAGER)
                .withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1));
    assertThat(schemas.ensureAll(List.of(tuned)))
        .extracting(SchemaManager.Result::outcome)
        .containsExactly(SchemaManager.Outcome.RETUNED);
    assertThat(schemas.ensure(tuned).outcome()).isEqualTo(SchemaManager.Outcome.UNCHANGED);
    try (Admin admin = runtime.connection().getAdmin();
        org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(old.name())) {
      ColumnFamilyDescriptor family = admin.getDescriptor(old.name()).getColumnFamily(a);
      assertThat(family.getInMemoryCompaction()).isEqualTo(MemoryCompactionPolicy.EAGER);
      assertThat(family.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
      assertThat(family.getBlocksize()).isEqualTo(8192);
      assertThat(family.getValue("operator.note")).isEqualTo("kept");
      // A file in each encoding: both read.
      byte[] b = Bytes.toBytes("b");
      t.put(new org.apache.hadoop.hbase.client.Put(b).addColumn(a, a, b));
      admin.flush(old.name());
      assertThat(t.exists(new org.apache.hadoop.hbase.client.Get(a))).isTrue();
      assertThat(t.get(new org.apache.hadoop.hbase.client.Get(b)).getValue(a, a)).isEqualTo(b);
    }
    // Any other difference is still a conflict, and nothing is changed by it.
    TableSpec other =
        oneFamily(
            table,
            FamilySpec.of("a")
                .withBlockSize(16384)
                .withInMemoryCompaction(MemoryCompactionPolicy.BASIC));
    assertThatThrownBy(() -> schemas.ensureAll(List.of(other)))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("block size is 8192, declared 16384");
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getDescriptor(old.name()).getColumnFamily(a).getInMemoryCompaction())
          .isEqualTo(MemoryCompactionPolicy.EAGER);
    }
  }

  @Test
  void anUncompressedTableIsCompressedInPlaceAndItsDataReadsBeforeAndAfterTheRewrite(
      HBaseRuntime runtime) throws Exception {
    SchemaManager schemas = new SchemaManager(runtime.connection());
    String table = TestIds.unique("codec");
    TableSpec plain = oneFamily(table, FamilySpec.of("a"));
    schemas.ensure(plain);
    byte[] a = Bytes.toBytes("a");
    int rows = 2000;
    try (org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(plain.name())) {
      List<org.apache.hadoop.hbase.client.Put> puts = new java.util.ArrayList<>();
      for (int i = 0; i < rows; i++) {
        puts.add(
            new org.apache.hadoop.hbase.client.Put(Bytes.toBytes(String.format("row%05d", i)))
                .addColumn(a, a, Bytes.toBytes("{\"behaviour\":\"play\",\"n\":" + i + "}")));
      }
      t.put(puts);
    }
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.flush(plain.name());
    }
    long before = storeFileBytes(runtime, plain.name(), Compression.Algorithm.NONE);
    assertThat(before).isPositive();
    TableSpec compressed =
        oneFamily(table, FamilySpec.of("a").withCompression(Compression.Algorithm.ZSTD));
    SchemaManager.Result result = schemas.ensureAll(List.of(compressed)).get(0);
    assertThat(result.outcome()).isEqualTo(SchemaManager.Outcome.RETUNED);
    assertThat(result.rewrites()).isTrue();
    assertThat(result.changes())
        .singleElement()
        .asString()
        .contains("compresses the files it writes ZSTD (was NONE");
    assertThat(schemas.ensure(compressed).outcome()).isEqualTo(SchemaManager.Outcome.UNCHANGED);
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getDescriptor(plain.name()).getColumnFamily(a).getCompressionType())
          .isEqualTo(Compression.Algorithm.ZSTD);
    }
    assertThat(countRows(runtime, plain.name()))
        .as("old files read after the change")
        .isEqualTo(rows);
    assertThat(storeFileBytes(runtime, plain.name(), Compression.Algorithm.ZSTD)).isZero();
    schemas.majorCompact(plain.name());
    long deadline = System.currentTimeMillis() + 60_000;
    long after = storeFileBytes(runtime, plain.name(), Compression.Algorithm.ZSTD);
    while (after == 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(250);
      after = storeFileBytes(runtime, plain.name(), Compression.Algorithm.ZSTD);
    }
    // The old file stays beside the new one until HBase discharges compacted files.
    assertThat(after).as("the rewritten file, compressed").isPositive().isLessThan(before / 2);
    assertThat(countRows(runtime, plain.name())).as("rewritten files read").isEqualTo(rows);
    try (org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(plain.name())) {
      assertThat(
              Bytes.toString(
                  t.get(new org.apache.hadoop.hbase.client.Get(Bytes.toBytes("row01234")))
                      .getValue(a, a)))
          .isEqualTo("{\"behaviour\":\"play\",\"n\":1234}");
    }
  }

  /** The bytes of the table's store files whose blocks {@code codec} compresses. */
  private static long storeFileBytes(
      HBaseRuntime runtime, TableName name, Compression.Algorithm codec)
      throws java.io.IOException {
    org.apache.hadoop.conf.Configuration conf = runtime.configuration();
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.get(conf);
    org.apache.hadoop.fs.Path dir =
        org.apache.hadoop.hbase.util.CommonFSUtils.getTableDir(
            org.apache.hadoop.hbase.util.CommonFSUtils.getRootDir(conf), name);
    long bytes = 0;
    var files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      var f = files.next();
      // Only the family's store files: not a compaction's output still being written under
      // the region's .tmp directory.
      if (!f.getPath().getParent().getName().equals("a")
          || f.getPath().toString().contains("/.tmp/")
          || f.getLen() == 0) {
        continue;
      }
      try (org.apache.hadoop.hbase.io.hfile.HFile.Reader reader =
          org.apache.hadoop.hbase.io.hfile.HFile.createReader(
              fs, f.getPath(), org.apache.hadoop.hbase.io.hfile.CacheConfig.DISABLED, true, conf)) {
        if (reader.getFileContext().getCompression() == codec) {
          bytes += f.getLen();
        }
      } catch (java.io.FileNotFoundException discharged) {
        // a compacted file removed between the listing and the read
      }
    }
    return bytes;
  }

  private static int countRows(HBaseRuntime runtime, org.apache.hadoop.hbase.TableName name)
      throws java.io.IOException {
    int n = 0;
    try (org.apache.hadoop.hbase.client.Table t = runtime.connection().getTable(name);
        org.apache.hadoop.hbase.client.ResultScanner scanner =
            t.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
      for (org.apache.hadoop.hbase.client.Result r : scanner) {
        n++;
      }
    }
    return n;
  }

  @Test
  void aNewTableGetsItsPoliciesAndAnOldOneGainsAFamilyAndAPolicyInOneChange(HBaseRuntime runtime)
      throws Exception {
    SchemaManager schemas = new SchemaManager(runtime.connection());
    String table = TestIds.unique("tune2");
    FamilySpec eager =
        FamilySpec.of("a")
            .withInMemoryCompaction(MemoryCompactionPolicy.EAGER)
            .withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1);
    assertThat(schemas.ensure(oneFamily(table, eager)).outcome())
        .isEqualTo(SchemaManager.Outcome.CREATED);
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(
              admin
                  .getDescriptor(oneFamily(table, eager).name())
                  .getColumnFamily(Bytes.toBytes("a"))
                  .getDataBlockEncoding())
          .isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
    }
    TableSpec newer =
        TableSpec.of(
            "casebook_schema",
            table,
            "k",
            SplitPoints.none(),
            FamilySpec.of("a").withInMemoryCompaction(MemoryCompactionPolicy.BASIC),
            FamilySpec.of("b").withInMemoryCompaction(MemoryCompactionPolicy.EAGER));
    assertThat(schemas.ensure(newer).outcome()).isEqualTo(SchemaManager.Outcome.FAMILIES_ADDED);
    try (Admin admin = runtime.connection().getAdmin()) {
      var descriptor = admin.getDescriptor(newer.name());
      assertThat(descriptor.getColumnFamily(Bytes.toBytes("a")).getInMemoryCompaction())
          .isEqualTo(MemoryCompactionPolicy.BASIC);
      assertThat(descriptor.getColumnFamily(Bytes.toBytes("b")).getInMemoryCompaction())
          .isEqualTo(MemoryCompactionPolicy.EAGER);
    }
    assertThat(schemas.ensure(newer).outcome()).isEqualTo(SchemaManager.Outcome.UNCHANGED);
  }

  private static TableSpec oneFamily(String table, FamilySpec family) {
    return TableSpec.of("casebook_schema", table, "k", SplitPoints.none(), family);
  }

  @Test
  void dropRemovesTheTable(HBaseRuntime runtime) throws Exception {
    TableName name = TableName.valueOf("casebook_schema", TestIds.unique("drop"));
    SchemaManager schemas = new SchemaManager(runtime.connection());
    schemas.ensure(new TableSpec(name, List.of(FamilySpec.of("a")), SplitPoints.none(), "k"));
    schemas.drop(name);
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.tableExists(name)).isFalse();
    }
  }

  @Test
  void tableSettingsAreSetAtCreationAndCheckedAfterwards(HBaseRuntime runtime) throws Exception {
    TableSpec spec =
        TableSpec.of(
                "casebook_schema", TestIds.unique("s"), "k", SplitPoints.none(), FamilySpec.of("a"))
            .withSettings(java.util.Map.of("MAX_FILESIZE", "8388608", "casebook.note", "x"));
    SchemaManager schemas = new SchemaManager(runtime.connection());
    assertThat(schemas.ensure(spec).outcome()).isEqualTo(SchemaManager.Outcome.CREATED);
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getDescriptor(spec.name()).getMaxFileSize()).isEqualTo(8L << 20);
      assertThat(admin.getDescriptor(spec.name()).getValue("casebook.note")).isEqualTo("x");
    }
    assertThat(schemas.ensure(spec).outcome()).isEqualTo(SchemaManager.Outcome.UNCHANGED);
    assertThatThrownBy(
            () -> schemas.ensure(spec.withSettings(java.util.Map.of("MAX_FILESIZE", "16777216"))))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("MAX_FILESIZE is 8388608, declared 16777216");
  }
}
