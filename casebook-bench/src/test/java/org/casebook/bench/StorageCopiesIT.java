package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class StorageCopiesIT {
  private static final int ROWS = 20_000;

  @Test
  void copiesEveryCellUnderEachCodecAndZstdStoresFewerBytes(HBaseRuntime runtime) throws Exception {
    String namespace = TestIds.unique("storage").replace('-', '_');
    TableName source = TableName.valueOf(namespace, "source");
    SchemaManager schemas = new SchemaManager(runtime.connection());
    // Two families, two regions, three versions of one column: what a copy must keep.
    schemas.ensure(
        new TableSpec(
            source,
            List.of(FamilySpec.of("a").withMaxVersions(3), FamilySpec.of("b")),
            SplitPoints.of(List.of(Bytes.toBytes("row-1")), "two regions"),
            "row-<n>"));
    StorageCopies copies =
        new StorageCopies(runtime.connection(), runtime.configuration(), namespace + "_copies");
    try {
      long cells = load(runtime, source);
      StorageCopies.Source s = copies.survey(source, 500, 1);
      assertThat(s.rows()).isEqualTo(ROWS);
      assertThat(s.cells()).isEqualTo(cells);
      assertThat(s.families()).containsExactly("a", "b");
      assertThat(s.regions()).isEqualTo(2);
      assertThat(s.sample()).hasSize(500).doesNotHaveDuplicates();

      copies.createNamespace();
      List<StorageCopies.Copy> measured =
          copies.measure(s, List.of(Compression.Algorithm.ZSTD, Compression.Algorithm.NONE), 500);

      StorageCopies.Copy zstd = measured.get(0);
      StorageCopies.Copy none = measured.get(1);
      assertThat(zstd.codec()).isEqualTo("ZSTD");
      assertThat(none.codec()).isEqualTo("NONE");
      for (StorageCopies.Copy c : measured) {
        assertThat(c.cells()).isEqualTo(cells);
        assertThat(c.cellBytes()).isEqualTo(s.cellBytes());
        assertThat(c.scannedRows()).isEqualTo(ROWS);
        assertThat(c.scannedBytes()).isEqualTo(s.cellBytes());
        assertThat(c.gets().count()).isEqualTo(500);
        assertThat(c.familyBytes()).containsOnlyKeys("a", "b");
        // One flush: a file per region and family, compactions off.
        assertThat(c.files()).isEqualTo(4);
      }
      // Repetitive text: ZSTD stores it in a fraction of the bytes.
      assertThat(zstd.bytes()).isLessThan(none.bytes() / 2);
      // Uncompressed, the files hold at least the cells.
      assertThat(none.bytes()).isGreaterThan(s.cellBytes());
      try (Admin admin = runtime.connection().getAdmin()) {
        assertThat(admin.listTableNamesByNamespace(namespace + "_copies")).isEmpty();
      }
    } finally {
      copies.dropNamespace();
      schemas.dropNamespace(namespace);
    }
  }

  /** Rows of repetitive text, three versions of a:v and one b:w each; returns the cells. */
  private static long load(HBaseRuntime runtime, TableName table) throws Exception {
    long cells = 0;
    try (BufferedMutator m = runtime.connection().getBufferedMutator(table)) {
      for (int i = 0; i < ROWS; i++) {
        Put p = new Put(Bytes.toBytes(String.format(Locale.ROOT, "row-%05d", i)));
        for (long version = 1; version <= 3; version++) {
          p.addColumn(
              Bytes.toBytes("a"),
              Bytes.toBytes("v"),
              version,
              Bytes.toBytes(
                  "status " + (i % 50) + " of user " + (i % 700) + ", version " + version));
          cells++;
        }
        p.addColumn(Bytes.toBytes("b"), Bytes.toBytes("w"), Bytes.toBytes("flag " + (i % 3)));
        cells++;
        m.mutate(p);
      }
    }
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.flush(table);
    }
    return cells;
  }
}
