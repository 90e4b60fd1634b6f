package org.casebook.core.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The verifying load under the region actions (as HBase's own BigLinkedList checks): every
 * acknowledged row is found afterwards, and nothing that was not sent.
 */
@ExtendWith(EmbeddedHBase.class)
class RegionChaosIT {
  private static final byte[] F = Bytes.toBytes("f");

  @Test
  void everyActionRunsAndEveryAcknowledgedRowIsThereAfterwards(HBaseRuntime runtime)
      throws Exception {
    // A table of its own: on a cluster, one left by an earlier run would hold rows not sent here.
    TableSpec spec =
        TableSpec.of(
            "casebook_test",
            TestIds.unique("chaos").replace('-', '_'),
            "k:string",
            SplitPoints.none(),
            FamilySpec.of("f"));
    new SchemaManager(runtime.connection()).ensure(spec);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    Set<String> unanswered = ConcurrentHashMap.newKeySet();
    ChaosLoad.Report report =
        ChaosLoad.run(
            runtime.connection(),
            List.of(spec.name()),
            7,
            Duration.ofSeconds(5),
            Duration.ofMillis(250),
            4,
            (worker, i) -> {
              // Spread over the key space, so every region of every split keeps getting rows.
              String row =
                  String.format(
                      "%08x-%d-%d", (worker * 7919 + i * 104729) & 0xffffffffL, worker, i);
              try (Table t = runtime.connection().getTable(spec.name())) {
                t.put(new Put(Bytes.toBytes(row)).addColumn(F, F, Bytes.toBytes(i)));
                acknowledged.add(row);
              } catch (java.io.IOException e) {
                unanswered.add(row);
                throw e;
              }
            });

    Set<ChaosAction> tried = EnumSet.noneOf(ChaosAction.class);
    report.events().forEach(e -> tried.add(e.action()));
    if (!EmbeddedHBase.onCluster()) {
      // On a cluster a kill's restart and recovery take most of a run: a round may not finish.
      assertThat(tried).as(report.toString()).containsAll(ChaosAction.regionActions());
    }
    assertThat(report.done(ChaosAction.SPLIT)).as(report.toString()).isPositive();
    assertThat(report.events().get(0).action())
        .as("a run opens with a split, however slow the machine")
        .isEqualTo(ChaosAction.SPLIT);
    if (runtime.liveRegionServers() == 1) {
      assertThat(report.events())
          .as("one RegionServer: nowhere to move to")
          .filteredOn(e -> e.action() == ChaosAction.MOVE)
          .allMatch(e -> e.outcome().equals("skipped: one RegionServer"));
    }
    assertThat(report.events()).as(report.toString()).noneMatch(ChaosEvent::timedOut);

    Set<String> stored = ConcurrentHashMap.newKeySet();
    long rows = 0;
    try (Table t = runtime.connection().getTable(spec.name());
        ResultScanner scanner = t.getScanner(new Scan())) {
      for (Result r : scanner) {
        stored.add(Bytes.toString(r.getRow()));
        rows++;
      }
    }
    assertThat(rows).isEqualTo(stored.size());
    // Differences of sets, not AssertJ's containsAll: that compares every pair, too slow for the
    // rows of a long run on a cluster.
    Set<String> missing = new TreeSet<>(acknowledged);
    missing.removeAll(stored);
    assertThat(missing).as("acknowledged rows missing\n%s", report.summary()).isEmpty();
    Set<String> unsent = new TreeSet<>(stored);
    unsent.removeAll(acknowledged);
    unsent.removeAll(unanswered);
    assertThat(unsent).as("stored rows that were not sent").isEmpty();
  }
}
