package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.chaos.ChaosEvent;
import org.casebook.core.chaos.RegionChaos;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.trails.gen.LogGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A bulk load that meets splits and merges: the job cuts its HFiles at the regions it saw when it
 * started, and HBase splits and merges the tables while it runs, so HFiles reach regions that are
 * no longer the ones they were cut for. Every record must still be loaded: the tables then answer
 * as the same logs loaded by Puts do.
 */
@ExtendWith(EmbeddedHBase.class)
class TrailsBulkLoadChaosIT {
  private static final LocalDate DAY1 = LocalDate.parse("2026-09-01");
  private static final int USERS = 300;
  private static final long SEED = 33;

  @Test
  void aBulkLoadMeetingSplitsAndMergesLoadsEveryRecord(HBaseRuntime runtime) throws Exception {
    String run = TestIds.unique("c").replace('-', '_');
    String putsNs = "trails_cputs_" + run;
    String bulkNs = "trails_cbulk_" + run;
    SchemaManager schemas = new SchemaManager(runtime.connection());
    List<TableSpec> bulkTables = TrailsService.schemas(bulkNs);
    // On a cluster another test's runner may be killing the master meanwhile.
    ChaosLoad.afterRecovery(() -> schemas.ensureAll(TrailsService.schemas(putsNs)));
    ChaosLoad.afterRecovery(() -> schemas.ensureAll(bulkTables));
    Path dir = EmbeddedHBase.scratchDir("trails-bulk-chaos-" + run);
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      SystemContext context = platform.contextFor(new TrailsSystem().descriptor());
      TrailsService puts = new TrailsService(context, putsNs);
      TrailsService bulk = new TrailsService(context, bulkNs);
      // The first log gives the tables rows to split at; the second is loaded under chaos, on
      // other days, so a lost HFile of it shows as missing events.
      Path first = log(dir.resolve("first.jsonl"), DAY1, 6_000, 11);
      Path second = log(dir.resolve("second.jsonl"), DAY1.plusDays(3), 40_000, 12);
      // An ingest sent again (a master killed meanwhile by another test's runner) writes the
      // same rows.
      for (Path log : List.of(first, second)) {
        ChaosLoad.afterRecovery(
            () -> puts.ingest(log, options(dir.resolve("puts.rejects")), Progress.silent()));
      }
      ChaosLoad.afterRecovery(
          () ->
              bulk.ingestBulk(
                  first, options(dir.resolve("b1.rejects")), dir.resolve("w1"), Progress.silent()));

      List<ChaosEvent> events;
      IngestReport underChaos;
      try (RegionChaos chaos =
          RegionChaos.start(
              runtime.connection(),
              bulkTables.stream().map(TableSpec::name).toList(),
              // On a cluster given the kill commands, RegionServers are killed during the job too.
              ChaosLoad.withProperties(
                  new RegionChaos.Options(
                      SEED,
                      Duration.ofMillis(50),
                      List.of(ChaosAction.SPLIT, ChaosAction.SPLIT, ChaosAction.MERGE),
                      Duration.ofSeconds(20))))) {
        underChaos =
            bulk.ingestBulk(
                second, options(dir.resolve("b2.rejects")), dir.resolve("w2"), Progress.silent());
        events = chaos.stop();
      }
      assertThat(RegionChaos.awaitSettled(runtime.connection(), Duration.ofMinutes(3))).isTrue();
      assertThat(events)
          .as("splits while the bulk load ran: " + events)
          .anyMatch(e -> e.action() == ChaosAction.SPLIT && e.done());
      assertThat(underChaos.accepted()).isPositive();

      ChaosLoad.afterRecovery(
          () -> {
            TrailsBulkLoadIT.assertSameData(puts, bulk, USERS, DAY1, DAY1.plusDays(5), 5, false);
            return null;
          });
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), putsNs, bulkNs);
    }
  }

  private static Path log(Path file, LocalDate firstDay, long records, long seed) {
    LogGenerator.write(
        new LogGenerator.Spec(USERS, 3, records, 0.01, firstDay, seed), file, Progress.silent());
    return file;
  }

  private static IngestOptions options(Path rejects) {
    return new IngestOptions(rejects, HistoryTables.BOTH, 2);
  }
}
