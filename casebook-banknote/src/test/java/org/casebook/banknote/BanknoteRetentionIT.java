package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.NotFoundException;
import org.casebook.core.Platform;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Purging a delivered file (a wrong upload) and the retention setting, on real HBase: the file's
 * readings leave every table and listing, everything else stays, a purge cut short finishes when
 * run again, the file delivered again is stored again; readings stored longer ago than the
 * retention are gone from every listing.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteRetentionIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  private static List<Note> file(
      String device, String source, String branch, Instant t0, int count, String prefix) {
    List<Note> notes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      notes.add(
          new Note(
              String.format("%s%08d", prefix, i),
              100,
              "CNY",
              2015,
              device,
              DeviceKind.SORTER,
              branch,
              Operation.SORTING,
              t0.plusSeconds(i),
              i < count / 2 ? "B1" : "B2",
              i % 5 == 0 ? Verdict.SUSPECT : Verdict.GENUINE,
              List.of(0, 0, 0),
              source,
              i,
              null));
    }
    return notes;
  }

  /**
   * The rows {@code notes} make in the four tables, each cell written at {@code storedAt} (HBase
   * honours a cell's timestamp; the service writes at the time it runs).
   */
  private static void storeAsOf(
      HBaseRuntime runtime, String namespace, List<Note> notes, Instant storedAt)
      throws java.io.IOException {
    BanknoteSchema schema = BanknoteSchema.in(namespace);
    long ts = storedAt.toEpochMilli();
    List<org.apache.hadoop.hbase.client.Put> noteRows = new ArrayList<>();
    List<org.apache.hadoop.hbase.client.Put> deviceRows = new ArrayList<>();
    List<org.apache.hadoop.hbase.client.Put> suspectRows = new ArrayList<>();
    List<org.apache.hadoop.hbase.client.Put> batchRows = new ArrayList<>();
    for (Note n : notes) {
      byte[] value = NoteCodec.encode(n);
      noteRows.add(
          new org.apache.hadoop.hbase.client.Put(BanknoteKeys.note(n))
              .addColumn(BanknoteSchema.N, BanknoteSchema.RECORD, ts, value));
      deviceRows.add(
          new org.apache.hadoop.hbase.client.Put(BanknoteKeys.device(n))
              .addColumn(BanknoteSchema.D, BanknoteSchema.RECORD, ts, value));
      if (n.verdict() == Verdict.SUSPECT) {
        int day = Math.toIntExact(n.time().atZone(SHANGHAI).toLocalDate().toEpochDay());
        suspectRows.add(
            new org.apache.hadoop.hbase.client.Put(BanknoteKeys.suspect(n, day))
                .addColumn(BanknoteSchema.S, BanknoteSchema.RECORD, ts, value));
      }
      byte[] window = new byte[16];
      org.apache.hadoop.hbase.util.Bytes.putLong(window, 0, n.time().toEpochMilli());
      org.apache.hadoop.hbase.util.Bytes.putLong(window, 8, n.time().toEpochMilli());
      batchRows.add(
          new org.apache.hadoop.hbase.client.Put(BanknoteKeys.BATCH.encode(n.batch(), n.device()))
              .addColumn(
                  BanknoteSchema.B,
                  BanknoteKeys.BATCH_COLUMN.encode(n.source(), n.record()),
                  ts,
                  window));
    }
    var conn = runtime.connection();
    try (Table t = conn.getTable(schema.notes())) {
      t.put(noteRows);
    }
    try (Table t = conn.getTable(schema.devices())) {
      t.put(deviceRows);
    }
    try (Table t = conn.getTable(schema.suspects())) {
      t.put(suspectRows);
    }
    try (Table t = conn.getTable(schema.batches())) {
      t.put(batchRows);
    }
  }

  @Test
  void aPurgedFileLeavesEveryTableAndTheRestStays(HBaseRuntime runtime) throws Exception {
    String run = TestIds.unique("p");
    String device = "SORTER/" + run;
    String other = "SORTER/other-" + run;
    String branch = "0110-" + run;
    Instant t0 = Instant.parse("2026-03-02T02:00:00Z");
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      BanknoteService service =
          new BanknoteService(platform.contextFor("banknote"), "banknotepurge", SHANGHAI);
      List<Note> wrong = file(device, "wrong.fsn", branch, t0, 40, "WA");
      List<Note> right = file(device, "right.fsn", branch, t0.plusSeconds(5), 30, "RA");
      List<Note> sameNameElsewhere = file(other, "wrong.fsn", branch, t0, 20, "WA");
      service.store(wrong);
      service.store(right);
      service.store(sameNameElsewhere);

      // A first purge cut short: some of the file's notes rows already gone.
      byte[] origin = BanknoteKeys.origin(device, "wrong.fsn");
      try (Table t = runtime.connection().getTable(BanknoteSchema.in("banknotepurge").notes())) {
        for (Note n : wrong.subList(0, 10)) {
          t.delete(new Delete(BanknoteKeys.note(n, origin)));
        }
      }
      assertThat(service.purgeFile(device, "wrong.fsn")).isEqualTo(40);

      Instant from = t0.minusSeconds(60);
      Instant to = t0.plusSeconds(3600);
      assertThat(BanknoteServiceIT.all(p -> service.device(device, from, to, p), 100))
          .containsExactlyInAnyOrderElementsOf(right);
      assertThat(BanknoteServiceIT.all(p -> service.device(other, from, to, p), 100))
          .containsExactlyInAnyOrderElementsOf(sameNameElsewhere);
      for (Note n : wrong.subList(0, 12)) {
        assertThat(service.history(n.serial(), PageRequest.first(10), false).items())
            .as(n.serial())
            .extracting(Note::device)
            .containsOnly(other);
      }
      List<Note> expectedSuspects = new ArrayList<>();
      for (Note n : right) {
        if (n.verdict() == Verdict.SUSPECT) {
          expectedSuspects.add(n);
        }
      }
      for (Note n : sameNameElsewhere) {
        if (n.verdict() == Verdict.SUSPECT) {
          expectedSuspects.add(n);
        }
      }
      LocalDate day = LocalDate.ofInstant(t0, SHANGHAI);
      assertThat(BanknoteServiceIT.all(p -> service.suspects(branch, day, p), 100))
          .containsExactlyInAnyOrderElementsOf(expectedSuspects);
      List<Note> b1 = new ArrayList<>();
      right.stream().filter(n -> n.batch().equals("B1")).forEach(b1::add);
      sameNameElsewhere.stream().filter(n -> n.batch().equals("B1")).forEach(b1::add);
      assertThat(BanknoteServiceIT.all(p -> service.batch("B1", p), 100))
          .filteredOn(n -> n.device().equals(device) || n.device().equals(other))
          .containsExactlyInAnyOrderElementsOf(b1);

      assertThatThrownBy(() -> service.purgeFile(device, "wrong.fsn"))
          .isInstanceOf(NotFoundException.class);
      // Delivered again after the purge: stored again, every reading visible.
      service.store(wrong);
      assertThat(BanknoteServiceIT.all(p -> service.device(device, from, to, p), 100))
          .hasSize(wrong.size() + right.size());
    }
  }

  @Test
  void readingsOlderThanTheRetentionAreGoneFromEveryListing(HBaseRuntime runtime) throws Exception {
    String run = TestIds.unique("y");
    String device = "SORTER/" + run;
    String branch = "0120-" + run;
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Instant old = now.minus(2 * 366, ChronoUnit.DAYS);
    Instant recent = now.minus(1, ChronoUnit.DAYS);
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      BanknoteService service =
          new BanknoteService(platform.contextFor("banknote"), "banknoteret", SHANGHAI, 1);
      List<Note> oldNotes = file(device, "old.fsn", branch, old, 10, "OL");
      List<Note> recentNotes = file(device, "new.fsn", branch, recent, 10, "NE");
      storeAsOf(runtime, "banknoteret", oldNotes, old);
      service.store(recentNotes);
      assertThat(
              BanknoteServiceIT.all(p -> service.device(device, old.minusSeconds(1), now, p), 100))
          .containsExactlyInAnyOrderElementsOf(recentNotes);
      assertThat(service.history(oldNotes.get(0).serial(), PageRequest.first(10), false).items())
          .isEmpty();
      assertThat(
              BanknoteServiceIT.all(
                  p -> service.suspects(branch, LocalDate.ofInstant(old, SHANGHAI), p), 100))
          .isEmpty();
      assertThat(BanknoteServiceIT.all(p -> service.batch("B1", p), 100))
          .filteredOn(n -> n.device().equals(device))
          .containsExactlyInAnyOrderElementsOf(recentNotes.subList(0, 5));
    }
  }
}
