package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class HBaseRuntimeIT {
  private static final byte[] F = Bytes.toBytes("f");

  @Test
  void embeddedRuntimeServesReadsAndWrites(HBaseRuntime runtime) throws Exception {
    assertThat(runtime.mode()).isEqualTo(HBaseRuntime.Mode.EMBEDDED);
    assertThat(runtime.attached()).isFalse();
    assertThat(runtime.liveRegionServers()).isEqualTo(1);
    assertThat(runtime.connection().getClass().getSimpleName())
        .as("the owner calls its own region server in process")
        .isEqualTo("ShortCircuitingClusterConnection");
    assertThat(runtime.description()).contains("in-process calls");
    assertThat(java.nio.file.Files.getPosixFilePermissions(EmbeddedHBase.dataDir()))
        .as("the data directory is private to its user")
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    TableSpec spec =
        TableSpec.of(
            "casebook_test", "runtime", "k:string", SplitPoints.none(), FamilySpec.of("f"));
    new SchemaManager(runtime.connection()).ensure(spec);
    try (Table t = runtime.connection().getTable(spec.name())) {
      t.put(new Put(Bytes.toBytes("r1")).addColumn(F, F, Bytes.toBytes("v1")));
      assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r1"))).getValue(F, F)))
          .isEqualTo("v1");
    }
  }

  /** A second process on the same data directory becomes a client of the first one's HBase. */
  @Test
  void secondRuntimeOnTheSameDataDirectoryAttaches(HBaseRuntime owner) throws Exception {
    TableSpec spec =
        TableSpec.of("casebook_test", "attach", "k:string", SplitPoints.none(), FamilySpec.of("f"));
    new SchemaManager(owner.connection()).ensure(spec);
    try (Table t = owner.connection().getTable(spec.name())) {
      t.put(new Put(Bytes.toBytes("seen")).addColumn(F, F, Bytes.toBytes("yes")));
    }
    try (HBaseRuntime attached =
        HBaseRuntime.start(RuntimeSettings.embedded(EmbeddedHBase.dataDir()))) {
      assertThat(attached.attached()).isTrue();
      assertThat(attached.mode()).isEqualTo(HBaseRuntime.Mode.EMBEDDED);
      try (Table t = attached.connection().getTable(spec.name())) {
        assertThat(t.exists(new Get(Bytes.toBytes("seen")))).isTrue();
      }
    }
    // Closing the attached client must leave the owner's HBase running.
    assertThat(owner.liveRegionServers()).isEqualTo(1);
  }

  @Test
  void dataSurvivesARestart() throws Exception {
    EmbeddedHBase.allowSeveralClustersPerJvm();
    Path dir = EmbeddedHBase.scratchDir("restart");
    TableName name = TableName.valueOf("casebook_test", "restart");
    try (HBaseRuntime first = HBaseRuntime.start(RuntimeSettings.embedded(dir))) {
      new SchemaManager(first.connection())
          .ensure(
              new TableSpec(name, java.util.List.of(FamilySpec.of("f")), SplitPoints.none(), "k"));
      try (Table t = first.connection().getTable(name)) {
        for (int i = 0; i < 100; i++) {
          t.put(new Put(Bytes.toBytes("row" + i)).addColumn(F, F, Bytes.toBytes(i)));
        }
      }
    }
    // The second start calls its region server over RPC, and reads what the first wrote in process.
    try (HBaseRuntime second =
        HBaseRuntime.start(
            RuntimeSettings.embedded(dir)
                .withOverrides(java.util.Map.of(HBaseRuntime.IN_PROCESS_CALLS_KEY, "false")))) {
      assertThat(second.attached()).isFalse();
      assertThat(second.connection().getClass().getSimpleName())
          .isNotEqualTo("ShortCircuitingClusterConnection");
      assertThat(second.description()).doesNotContain("in-process calls");
      try (Table t = second.connection().getTable(name)) {
        for (int i = 0; i < 100; i++) {
          assertThat(Bytes.toInt(t.get(new Get(Bytes.toBytes("row" + i))).getValue(F, F)))
              .isEqualTo(i);
        }
      }
    }
  }
}
