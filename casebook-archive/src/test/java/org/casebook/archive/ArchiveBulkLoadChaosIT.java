package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.casebook.archive.batch.ArchiveBulkLoad;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.chaos.ChaosEvent;
import org.casebook.core.chaos.RegionChaos;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An archive bulk load that meets splits and merges: the job cuts its HFiles at the regions it saw
 * when it started, and HBase splits and merges the data tables while it runs, so HFiles reach
 * regions that are no longer the ones they were cut for. Every record must still be loaded once:
 * the tables then hold exactly what the same files loaded by puts hold. Whatever the seed picks (on
 * a cluster, RegionServer kills among the actions), the regions holding rows are split once more
 * between the job and the load, so its HFiles meet regions they were not cut for.
 */
@ExtendWith(EmbeddedHBase.class)
class ArchiveBulkLoadChaosIT {
  private static final int FILES = 16;
  private static final int FIRST_FILES = 2;
  private static final int USERS_PER_FILE = 200;
  private static final int REGIONS = 4;
  private static final long SEED = 41;

  @Test
  void aBulkLoadMeetingSplitsAndMergesLoadsEveryRecordOnce(HBaseRuntime runtime) throws Exception {
    String run = TestIds.unique("c").replace('-', '_');
    String putsNs = "archive_cputs_" + run;
    String bulkNs = "archive_cbulk_" + run;
    SchemaManager schemas = new SchemaManager(runtime.connection());
    Path dir = EmbeddedHBase.scratchDir("archive-bulk-chaos-" + run);
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      SystemContext context = platform.contextFor("archive-test");
      ArchiveService puts = ArchiveService.inNamespace(context, putsNs);
      ArchiveService bulk = ArchiveService.inNamespace(context, bulkNs);
      // One generated archive in two parts with no user in common: the first gives the tables rows
      // to split at, the second is loaded under chaos, so a lost HFile of it shows as missing rows.
      ArchiveGenerator.Written w =
          ArchiveGenerator.write(
              new ArchiveGenerator.Spec(FILES, USERS_PER_FILE, 10, false, 0, SEED),
              dir.resolve("second"));
      Files.createDirectories(dir.resolve("first"));
      for (Path file : w.files().subList(0, FIRST_FILES)) {
        Files.move(file, dir.resolve("first").resolve(file.getFileName()));
      }
      for (String part : List.of("first", "second")) {
        // On a cluster another test's runner may be killing the master meanwhile: an import sent
        // again writes the same cells.
        ChaosLoad.afterRecovery(
            () -> puts.importFiles(request(dir, part, ImportMode.PUT), Progress.silent()));
      }
      ImportReport before =
          ChaosLoad.afterRecovery(
              () ->
                  bulk.importFiles(request(dir, "first", ImportMode.BULKLOAD), Progress.silent()));

      List<ChaosEvent> events;
      ImportReport underChaos;
      AtomicInteger splitBeforeLoad = new AtomicInteger();
      try (RegionChaos chaos =
          RegionChaos.start(
              runtime.connection(),
              bulk.dataTables(),
              // On a cluster given the kill commands, RegionServers are killed during the job too.
              ChaosLoad.withProperties(
                  new RegionChaos.Options(
                      SEED,
                      Duration.ofMillis(50),
                      List.of(ChaosAction.SPLIT, ChaosAction.SPLIT, ChaosAction.MERGE),
                      Duration.ofSeconds(20))))) {
        Progress watched =
            Progress.silent(
                detail -> {
                  if (detail.equals(ArchiveBulkLoad.LOADING_HFILES) && splitBeforeLoad.get() == 0) {
                    splitBeforeLoad.set(splitRegionsWithRows(runtime.connection(), bulk));
                  }
                });
        underChaos = bulk.importFiles(request(dir, "second", ImportMode.BULKLOAD), watched);
        events = chaos.stop();
      }
      assertThat(RegionChaos.awaitSettled(runtime.connection(), Duration.ofMinutes(3))).isTrue();
      assertThat(splitBeforeLoad.get())
          .as("regions split between the job and its load")
          .isPositive();
      assertThat(underChaos.hfileSplits())
          .as("HFiles the loader split at regions they were not cut for")
          .isPositive();
      assertThat(underChaos.skipped()).isEmpty();
      assertThat(underChaos.filesLoaded()).isEqualTo(FILES - FIRST_FILES);
      // The job read each record once: a task run twice would count its file's records twice.
      assertThat(before.users() + underChaos.users()).isEqualTo(w.users());
      assertThat(before.statuses() + underChaos.statuses()).isEqualTo(w.statuses());

      List<String> uids = new ArrayList<>();
      for (int f = 0; f < FILES; f++) {
        for (int u = 0; u < USERS_PER_FILE; u++) {
          uids.add(ArchiveGenerator.userId(f, u, USERS_PER_FILE));
        }
      }
      List<ArchiveData.Counted> held =
          ChaosLoad.afterRecovery(
              () -> ArchiveData.assertSameData(runtime.connection(), puts, bulk, uids, 7));
      // The reference itself holds every generated user and status, each once.
      assertThat(held.get(0).rows()).as("user rows").isEqualTo(w.users());
      assertThat(held.get(1).rows()).as("status rows").isEqualTo(w.statuses());
      assertThat(held.get(2).rows()).as("status index rows").isEqualTo(w.statuses());
      System.out.printf(
          "archive bulk load under chaos: %d users, %d statuses, phases %s s, %d regions split"
              + " before the load, %d HFiles, %d split by the loader; %s%n",
          underChaos.users(),
          underChaos.statuses(),
          underChaos.phaseSeconds(),
          splitBeforeLoad.get(),
          underChaos.hfiles(),
          underChaos.hfileSplits(),
          summary(events));
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), putsNs, bulkNs);
    }
  }

  /**
   * Splits every region of the archive's data tables that holds rows at HBase's own midpoint and
   * waits for each split; answers how many split. On a cluster a RegionServer may be down: it tries
   * again for up to two minutes until one splits.
   */
  private static int splitRegionsWithRows(Connection connection, ArchiveService archive) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    int split = 0;
    try (Admin admin = connection.getAdmin()) {
      while (split == 0 && System.nanoTime() < deadline) {
        for (TableName table : archive.dataTables()) {
          for (RegionInfo region : admin.getRegions(table)) {
            try {
              admin.splitRegionAsync(region.getRegionName()).get(60, TimeUnit.SECONDS);
              split++;
            } catch (ExecutionException | TimeoutException | IOException e) {
              // No row to split at (a region the first part left empty), or one in transition.
              System.out.println("split of " + region.getRegionNameAsString() + " refused: " + e);
            }
          }
        }
        if (split == 0) {
          Thread.sleep(1000);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    return split;
  }

  private static ImportRequest request(Path dir, String part, ImportMode mode) {
    return ImportRequest.local(dir.resolve(part), mode)
        .withRegions(REGIONS)
        .withQuarantine(dir.resolve("quarantine-" + part + "-" + mode.label()));
  }

  /** The actions as {@code +ms action table: outcome}, ms from when the import started. */
  private static String summary(List<ChaosEvent> events) {
    StringBuilder b = new StringBuilder();
    for (ChaosEvent e : events) {
      String table = e.table().substring(e.table().indexOf(':') + 1);
      b.append(
          String.format(
              "%n  +%d ms %s %s: %s", e.atMillis(), e.action().label(), table, e.outcome()));
    }
    return b.toString();
  }
}
