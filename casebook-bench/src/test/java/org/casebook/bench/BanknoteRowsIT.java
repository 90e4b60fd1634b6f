package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What {@code bench banknote} computes about the notes table — the stored key, the row's size, the
 * split points — is what the banknote system writes: generated notes stored through the service,
 * then the notes table read raw.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteRowsIT {
  private static final String NAMESPACE = "bench_banknote_rows";

  @Test
  void theBenchmarksNotesRowsAreTheStoredOnes(HBaseRuntime runtime) throws Exception {
    BanknoteSystem system = new BanknoteSystem();
    BanknoteRows rows = BanknoteRows.of(system.descriptor());
    List<Note> notes = new ArrayList<>();
    new BanknoteGenerator(
            new BanknoteGenerator.Spec(
                8, 1, 50, 0, 0, true, 5, LocalDate.of(2030, 6, 3), FileContext.DEFAULT_ZONE))
        .notes(400, 50, notes::addAll);
    new SchemaManager(runtime.connection()).dropNamespace(NAMESPACE);
    Map<String, Integer> expected = new HashMap<>();
    for (Note n : notes) {
      expected.put(Bytes.toStringBinary(rows.reversed(n)), rows.rowBytes(n));
    }
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      // A tool's context: the service makes the tables of its namespace.
      BanknoteService service =
          new BanknoteService(platform.contextFor("bench"), NAMESPACE, FileContext.DEFAULT_ZONE);
      try (BanknoteService.BulkWriter w = service.writer()) {
        w.write(notes);
        w.flush();
      }
    }
    Map<String, Integer> stored = new HashMap<>();
    try (Table t = runtime.connection().getTable(rows.table(NAMESPACE));
        ResultScanner s = t.getScanner(new Scan().addFamily(Bytes.toBytes("n")))) {
      for (Result r : s) {
        // Family n holds one cell, the note (n:r).
        assertThat(r.rawCells()).as(Bytes.toStringBinary(r.getRow())).hasSize(1);
        stored.put(
            Bytes.toStringBinary(r.getRow()), r.getRow().length + r.rawCells()[0].getValueLength());
      }
    }
    assertThat(stored).isEqualTo(expected);

    SplitPoints splits = rows.splits();
    assertThat(splits.regionCount()).isEqualTo(11);
    assertThat(BanknoteRows.serialFirst(notes.get(0)))
        .startsWith(Bytes.toBytes(notes.get(0).serial()));
  }
}
