package org.casebook.core.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.hbase.TableName;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class SnapshotNamesTest {
  @Test
  void aSnapshotNameGivesBackItsBackupSystemAndTableEvenWithDotsInTheQualifier() {
    TableName table = TableName.valueOf("tsdb_2", "data.v1-x");
    String name = SnapshotNames.snapshot("nightly-2026_11", "tsdb", table);
    assertThat(name).isEqualTo("cb.nightly-2026_11.tsdb.tsdb_2.data.v1-x");
    assertThat(SnapshotNames.parse(name))
        .contains(new SnapshotNames.Parsed("nightly-2026_11", "tsdb", table));
    // Legal as an HBase snapshot name.
    TableName.isLegalTableQualifierName(
        name.getBytes(java.nio.charset.StandardCharsets.UTF_8), true);
  }

  @Test
  void snapshotsNotMadeByABackupAreNotParsed() {
    assertThat(SnapshotNames.parse("hbase-failsafe-cb.x.tsdb.tsdb.data-1")).isEmpty();
    assertThat(SnapshotNames.parse("cb.x.tsdb.tsdb")).isEmpty();
    assertThat(SnapshotNames.parse("cb..tsdb.tsdb.data")).isEmpty();
    assertThat(SnapshotNames.parse("my-own-snapshot")).isEmpty();
  }

  @Test
  void oneBackupsPatternMatchesNoOtherBackupWhoseNameItPrefixes() {
    String a = SnapshotNames.snapshot("daily", "weibo", TableName.valueOf("weibo", "posts"));
    String b = SnapshotNames.snapshot("daily-2", "weibo", TableName.valueOf("weibo", "posts"));
    assertThat(SnapshotNames.ofBackup("daily").matcher(a).matches()).isTrue();
    assertThat(SnapshotNames.ofBackup("daily").matcher(b).matches()).isFalse();
    assertThat(SnapshotNames.ofAll().matcher(b).matches()).isTrue();
  }

  @Test
  void backupNamesAreRefusedNamingTheField() {
    for (String bad : new String[] {"", "a b", "a.b", "-a", "中文", "x".repeat(65)}) {
      assertThatThrownBy(() -> SnapshotNames.checkBackup(bad))
          .isInstanceOf(InvalidInputException.class)
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo("name");
    }
  }

  @Test
  void aPlainPathIsALocalDirectoryAndAUriKeepsItsScheme() {
    assertThat(SnapshotCopies.location("/tmp/x", "to").toString()).startsWith("file:/tmp/x");
    assertThat(SnapshotCopies.location("hdfs://nn:8020/backups", "to").toString())
        .isEqualTo("hdfs://nn:8020/backups");
    assertThatThrownBy(() -> SnapshotCopies.location(" ", "to"))
        .isInstanceOf(InvalidInputException.class);
  }
}
