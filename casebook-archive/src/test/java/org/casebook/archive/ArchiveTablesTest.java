package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.archive.wire.ArchiveReader;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.testing.SplitPointChecks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArchiveTablesTest {
  private static final ArchiveSchema SCHEMA = ArchiveSchema.in(ArchiveSchema.DEFAULT_NAMESPACE);

  private static final List<UserRecord> USERS = new ArrayList<>();
  private static final List<StatusRecord> STATUSES = new ArrayList<>();

  /** 2,000 generated users (10 files of 200) with about 5 statuses each, read as an import does. */
  @BeforeAll
  static void generate(@TempDir Path dir) throws IOException {
    ArchiveGenerator.Written w =
        ArchiveGenerator.write(new ArchiveGenerator.Spec(10, 200, 5, false, 0, 1), dir);
    for (Path file : w.files()) {
      ArchiveReader.readAllOrNothing(
          () -> Files.newInputStream(file),
          Files.size(file),
          1,
          Long.MAX_VALUE,
          new ArchiveReader.Sink() {
            @Override
            public void user(UserRecord user) {
              USERS.add(user);
            }

            @Override
            public void status(StatusRecord status) {
              STATUSES.add(status);
            }
          });
    }
    assertThat(USERS).hasSize(2000);
  }

  /**
   * An import's tables for R regions (seed 001's 20 servers, its R = 80 among them), written as the
   * loaders write them: every region of the user, status and status_index tables receives rows.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 8, 20, 80})
  void importedRowsReachEveryRegionId(int regions) {
    Layout layout = new Layout(regions, true);
    List<HotspotReport.Result> results =
        SplitPointChecks.verify(
            SCHEMA.dataSpecs(ArchiveTables.regionIds(layout)), rowsByTable(layout));
    assertThat(results).hasSize(3).allMatch(r -> r.regions() == regions);
  }

  /**
   * Without the key rule the keys start with the uid (and the index's region id is always 0): no
   * region id to split at, so the tables start as one region each.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void keysWithoutTheRuleAreNotSplitAtRegionIds(int regions) {
    Layout plain = new Layout(regions, false);
    List<HotspotReport.Result> results =
        SplitPointChecks.verify(
            SCHEMA.dataSpecs(ArchiveTables.regionIds(plain)), rowsByTable(plain));
    assertThat(results).isEmpty();
  }

  /**
   * The rows of the generated records in each data table, as {@link ArchiveCellCodec} puts them.
   */
  private static Map<TableName, List<byte[]>> rowsByTable(Layout layout) {
    Map<TableName, List<byte[]>> keys = new HashMap<>();
    List<byte[]> user = keys.computeIfAbsent(SCHEMA.user(), t -> new ArrayList<>());
    List<byte[]> status = keys.computeIfAbsent(SCHEMA.status(), t -> new ArrayList<>());
    List<byte[]> index = keys.computeIfAbsent(SCHEMA.statusIndex(), t -> new ArrayList<>());
    for (UserRecord u : USERS) {
      user.add(ArchiveCellCodec.userPut(layout, u).getRow());
    }
    for (StatusRecord s : STATUSES) {
      List<Put> puts = ArchiveCellCodec.statusPuts(layout, s);
      status.add(puts.get(0).getRow());
      user.add(puts.get(1).getRow());
      index.add(puts.get(2).getRow());
    }
    return keys;
  }
}
