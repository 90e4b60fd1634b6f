package org.casebook.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.WriteGate;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writers make changes that span two tables, with a pause between the two writes longer than a
 * table's snapshot takes; a backup taken with the writes paused holds every change in both tables
 * or in neither. (Taken without the pause, the same run leaves changes in one table only.)
 */
@ExtendWith(EmbeddedHBase.class)
class BackupPauseIT {
  private static final byte[] F = Bytes.toBytes("f");

  @Test
  void aBackupTakenWithTheWritesPausedHoldsEveryChangeWhole(HBaseRuntime runtime) throws Exception {
    Connection connection = runtime.connection();
    String ns = TestIds.unique("bp").replace('-', '_');
    TableName first = TableName.valueOf(ns, "first");
    TableName second = TableName.valueOf(ns, "second");
    try (Admin admin = connection.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create(ns).build());
      for (TableName t : List.of(first, second)) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(t)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                .build());
      }
    }
    WriteGate gate = new WriteGate("pausetest");
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Integer>> writers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int writer = w;
      writers.add(
          pool.submit(
              () -> {
                int i = 0;
                try (Table a = connection.getTable(first);
                    Table b = connection.getTable(second)) {
                  while (!stop.get()) {
                    byte[] row = Bytes.toBytes(String.format("w%d-%06d", writer, i++));
                    try (WriteGate.Pass pass = gate.enter()) {
                      a.put(new Put(row).addColumn(F, F, row));
                      Thread.sleep(400);
                      b.put(new Put(row).addColumn(F, F, row));
                    }
                  }
                }
                return i;
              }));
    }
    Thread.sleep(1_000);
    BackupCatalog catalog = new BackupCatalog(connection, runtime.configuration());
    String name = TestIds.unique("bp");
    catalog.create(
        name,
        Map.of("pausetest", List.of(first, second)),
        system -> gate.pause(Duration.ofSeconds(30)),
        line -> {});
    Thread.sleep(500);
    stop.set(true);
    int changes = 0;
    for (Future<Integer> f : writers) {
      changes += f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();

    String clone = TestIds.unique("bpc").replace('-', '_');
    catalog.restore(name, Set.of(), clone, line -> {});
    Set<String> inFirst = rows(connection, TableName.valueOf(clone, "first"));
    Set<String> inSecond = rows(connection, TableName.valueOf(clone, "second"));
    assertThat(inFirst).as("changes in the backup").isNotEmpty();
    assertThat(inSecond).isEqualTo(inFirst);
    assertThat(rows(connection, second).size())
        .as("the writers went on after the pause")
        .isGreaterThan(inFirst.size())
        .isLessThanOrEqualTo(changes);
    catalog.delete(name);
  }

  private static Set<String> rows(Connection connection, TableName t) throws IOException {
    Set<String> out = new TreeSet<>();
    try (Table table = connection.getTable(t);
        ResultScanner scanner = table.getScanner(new Scan())) {
      for (Result r : scanner) {
        out.add(Bytes.toString(r.getRow()));
      }
    }
    return out;
  }
}
