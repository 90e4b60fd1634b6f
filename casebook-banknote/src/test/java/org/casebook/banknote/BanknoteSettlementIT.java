package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnHeader;
import org.casebook.banknote.fsn.FsnRecord;
import org.casebook.banknote.fsn.FsnVariant;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The daily settlement on real HBase: an ATM's FSN files sent as pieces (one of them read across
 * midnight, with suspects) and a sorter's batches through the collector and the bulk writer, over
 * two days. Each day's settlement equals what the devices' own listings of the stored notes add up
 * to; retried pieces and a file sent again in other pieces count once; the day closes when both
 * devices declare, a late file reopens it naming the file, a second declaration closes it again; a
 * purged file leaves the settlement.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteSettlementIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  private static final LocalDate DAY1 = LocalDate.parse("2031-03-10");
  private static final LocalDate DAY2 = LocalDate.parse("2031-03-11");

  private Platform platform;
  private BanknoteService service;
  private final String run = TestIds.unique("st");
  private final String branch = "br-" + run;
  private final String atm = "ATM/" + run;
  private final String sorter = "SORTER/" + run;
  private int serials;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    String namespace = TestIds.unique("banknote_settle").replace('-', '_');
    service = new BanknoteService(platform.contextFor("banknote"), namespace, SHANGHAI);
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  private static Instant local(LocalDate day, String time) {
    return LocalDateTime.parse(day + "T" + time).atZone(SHANGHAI).toInstant();
  }

  /** {@code count} notes of one file, 7 s apart from {@code t0}; every {@code suspectEvery}th. */
  private List<Note> file(
      String device,
      DeviceKind kind,
      Operation op,
      String source,
      Instant t0,
      int count,
      int suspectEvery) {
    int[] cny = {100, 50, 20, 100, 10};
    List<Note> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      boolean usd = kind == DeviceKind.SORTER && i % 23 == 0;
      out.add(
          new Note(
              String.format("QS%08d", ++serials),
              usd ? 20 : cny[i % cny.length],
              usd ? "USD" : "CNY",
              null,
              device,
              kind,
              branch,
              op,
              t0.plusSeconds(7L * i),
              source.replace(".", "-"),
              i % suspectEvery == suspectEvery - 1 ? Verdict.SUSPECT : Verdict.GENUINE,
              List.of(0, 0, 0),
              source,
              i,
              null));
    }
    return out;
  }

  /** The FSN file of {@code notes} (2014, without images); device and branch come with pieces. */
  private static byte[] fsn(List<Note> notes) {
    List<FsnRecord> records = new ArrayList<>();
    for (Note n : notes) {
      records.add(FsnNotes.record(n, SHANGHAI, false));
    }
    return new FsnFile(FsnHeader.of(FsnVariant.FSN2014_NO_IMAGES), records).bytes();
  }

  /** Sends an FSN file as the agent does: pieces of {@code size} records. */
  private void sendFsn(String source, Operation op, byte[] file, int records, int size) {
    FileContext context = new FileContext(branch, DeviceKind.ATM, op, atm, SHANGHAI);
    for (int first = 0; first < records; first += size) {
      int count = Math.min(size, records - first);
      BanknoteService.PieceResult r =
          service.storeFsn(source, first, FsnFile.chunk(file, first, count), context);
      assertThat(r.stored()).isEqualTo(count);
    }
  }

  private void sendBatches(List<Note> notes, int size) {
    for (int i = 0; i < notes.size(); i += size) {
      service.store(notes.subList(i, Math.min(notes.size(), i + size)));
    }
  }

  /** Every note {@code device} has stored over the two days, from its own listing. */
  private List<Note> listed(String device) {
    List<Note> out = new ArrayList<>();
    PageRequest page = PageRequest.first(1000);
    while (true) {
      Page<Note> p =
          service.device(
              device,
              DAY1.atStartOfDay(SHANGHAI).toInstant(),
              DAY2.plusDays(1).atStartOfDay(SHANGHAI).toInstant(),
              page);
      out.addAll(p.items());
      if (p.next().isEmpty()) {
        return out;
      }
      page = new PageRequest(1000, p.next());
    }
  }

  /**
   * The day's settlement as the stored notes say it should be: per device and denomination the
   * notes by operation, the suspects and the files with their notes, and the notes per hour.
   */
  private Map<String, String> expected(LocalDate day) {
    Map<String, long[]> counts = new TreeMap<>();
    Map<String, Map<String, Long>> files = new TreeMap<>();
    long[] hours = new long[24];
    for (String device : List.of(atm, sorter)) {
      for (Note n : listed(device)) {
        if (!n.branch().equals(branch) || !n.time().atZone(SHANGHAI).toLocalDate().equals(day)) {
          continue;
        }
        String line = n.device() + " " + n.currency() + " " + n.denomination();
        long[] c = counts.computeIfAbsent(line, k -> new long[5]);
        c[n.operation().ordinal()]++;
        c[4] += n.verdict() == Verdict.SUSPECT ? 1 : 0;
        files.computeIfAbsent(line, k -> new TreeMap<>()).merge(n.source(), 1L, Long::sum);
        hours[n.time().atZone(SHANGHAI).getHour()]++;
      }
    }
    Map<String, String> out = new TreeMap<>();
    counts.forEach(
        (line, c) ->
            out.put(line, java.util.Arrays.toString(c) + " " + files.get(line).toString()));
    out.put("hours", java.util.Arrays.toString(hours));
    return out;
  }

  /** The settlement in the shape of {@link #expected}. */
  private static Map<String, String> shape(Settlement s) {
    Map<String, String> out = new TreeMap<>();
    for (Settlement.Line l : s.lines()) {
      Settlement.Counts c = l.counts();
      Map<String, Long> files = new TreeMap<>();
      l.files().forEach(f -> files.put(f.source(), f.notes()));
      long[] byOp = {c.deposit(), c.withdrawal(), c.sorting(), c.counting(), c.suspects()};
      out.put(
          l.device() + " " + l.currency() + " " + l.denomination(),
          java.util.Arrays.toString(byOp) + " " + files);
    }
    out.put(
        "hours",
        java.util.Arrays.toString(s.hours().stream().mapToLong(Settlement.Hour::notes).toArray()));
    return out;
  }

  private void assertSettlesAsStored(LocalDate day) {
    Settlement s = service.settlement(branch, day);
    assertThat(shape(s)).as("settlement of %s", day).isEqualTo(expected(day));
    long total = s.lines().stream().mapToLong(l -> l.counts().total()).sum();
    assertThat(s.totals().total()).isEqualTo(total);
    assertThat(s.devices().stream().mapToLong(d -> d.counts().total()).sum()).isEqualTo(total);
    assertThat(s.hours().stream().mapToLong(Settlement.Hour::notes).sum()).isEqualTo(total);
    assertThat(s.totals().suspects())
        .isEqualTo(s.hours().stream().mapToLong(Settlement.Hour::suspects).sum());
  }

  private static Settlement.FileDay file(Settlement s, String device, String source) {
    return s.devices().stream()
        .filter(d -> d.device().equals(device))
        .flatMap(d -> d.files().stream())
        .filter(f -> f.source().equals(source))
        .findFirst()
        .orElse(null);
  }

  @Test
  void theSettlementEqualsTheStoredNotesAndTheDayClosesWhenEveryDeviceDeclares() throws Exception {
    // The ATM: two files of day 1 and one read across midnight, as FSN pieces.
    List<Note> a1 =
        file(
            atm, DeviceKind.ATM, Operation.WITHDRAWAL, "a-1.fsn", local(DAY1, "09:58:00"), 300, 40);
    List<Note> a2 =
        file(atm, DeviceKind.ATM, Operation.DEPOSIT, "a-2.fsn", local(DAY1, "14:00:00"), 120, 11);
    List<Note> night =
        file(
            atm, DeviceKind.ATM, Operation.DEPOSIT, "a-night.fsn", local(DAY1, "23:45:00"), 240, 9);
    byte[] a1File = fsn(a1);
    sendFsn("a-1.fsn", Operation.WITHDRAWAL, a1File, a1.size(), 100);
    sendFsn("a-2.fsn", Operation.DEPOSIT, fsn(a2), a2.size(), 50);
    sendFsn("a-night.fsn", Operation.DEPOSIT, fsn(night), night.size(), 70);
    // The sorter: a file of each day through the collector's batches, one through the bulk writer.
    List<Note> s1 =
        file(
            sorter,
            DeviceKind.SORTER,
            Operation.SORTING,
            "s-1.jsonl",
            local(DAY1, "11:10:00"),
            700,
            37);
    List<Note> s2 =
        file(
            sorter,
            DeviceKind.SORTER,
            Operation.COUNTING,
            "s-2.jsonl",
            local(DAY2, "08:00:00"),
            300,
            50);
    List<Note> s3 =
        file(
            sorter,
            DeviceKind.SORTER,
            Operation.SORTING,
            "s-3.jsonl",
            local(DAY1, "16:20:00"),
            150,
            1000);
    sendBatches(s1, 250);
    sendBatches(s2, 300);
    try (BanknoteService.BulkWriter w = service.writer()) {
      w.write(s3);
      w.flush();
    }

    assertSettlesAsStored(DAY1);
    assertSettlesAsStored(DAY2);
    Settlement day1 = service.settlement(branch, DAY1);
    Settlement day2 = service.settlement(branch, DAY2);
    // The file read across midnight is in both days, split where the day ends.
    long beforeMidnight =
        night.stream()
            .filter(n -> n.time().isBefore(DAY2.atStartOfDay(SHANGHAI).toInstant()))
            .count();
    assertThat(beforeMidnight).isBetween(100L, 200L);
    assertThat(file(day1, atm, "a-night.fsn").notes()).isEqualTo(beforeMidnight);
    assertThat(file(day2, atm, "a-night.fsn").notes()).isEqualTo(night.size() - beforeMidnight);
    assertThat(day1.totals().total()).isEqualTo(300 + 120 + beforeMidnight + 700 + 150);
    assertThat(day1.totals().suspects()).isPositive();
    assertThat(day1.hours().get(23).notes()).isEqualTo(beforeMidnight);
    assertThat(day2.hours().get(0).notes()).isEqualTo(night.size() - beforeMidnight);
    assertThat(file(day1, atm, "a-1.fsn").pieces()).isEqualTo(3);
    assertThat(file(day1, sorter, "s-1.jsonl").pieces()).isEqualTo(3);
    assertThat(day1.lines())
        .anySatisfy(
            l -> {
              assertThat(l.device()).isEqualTo(sorter);
              assertThat(l.currency()).isEqualTo("USD");
            });
    assertThat(day1.devices())
        .extracting(Settlement.DeviceDay::deviceKind)
        .containsExactly(DeviceKind.ATM, DeviceKind.SORTER);
    assertThat(day1.status()).isEqualTo(Settlement.Status.OPEN);

    // Retries rewrite their rows: an FSN piece, a collector batch, a bulk write; nothing counts
    // twice.
    sendFsn("a-1.fsn", Operation.WITHDRAWAL, a1File, 200, 100);
    service.store(s1.subList(250, 500));
    try (BanknoteService.BulkWriter w = service.writer()) {
      w.write(s3);
    }
    assertThat(service.settlement(branch, DAY1).totals()).isEqualTo(day1.totals());
    assertThat(file(service.settlement(branch, DAY1), atm, "a-1.fsn").recounted()).isFalse();
    assertSettlesAsStored(DAY1);

    // A file sent again in pieces cut elsewhere (another batch size): its rows overlap, so the
    // file is counted from its stored notes, once.
    sendBatches(s1.subList(100, 700), 130);
    Settlement resent = service.settlement(branch, DAY1);
    assertThat(file(resent, sorter, "s-1.jsonl").recounted()).isTrue();
    assertThat(file(resent, sorter, "s-1.jsonl").notes()).isEqualTo(700);
    assertThat(resent.totals()).isEqualTo(day1.totals());
    assertSettlesAsStored(DAY1);

    // Declarations: one device is not enough; both close the day; a retried one changes nothing.
    Settlement.Delivery atmDeclared = service.declareDelivered(branch, DAY1, atm);
    assertThat(atmDeclared.recorded()).isTrue();
    assertThat(atmDeclared.status()).isEqualTo(Settlement.Status.OPEN);
    assertThat(atmDeclared.declared()).isEqualTo(atmDeclared.firstDeclared());
    Thread.sleep(5);
    Settlement.Delivery sorterDeclared = service.declareDelivered(branch, DAY1, sorter);
    assertThat(sorterDeclared.status()).isEqualTo(Settlement.Status.CLOSED);
    Settlement closed = service.settlement(branch, DAY1);
    assertThat(closed.status()).isEqualTo(Settlement.Status.CLOSED);
    assertThat(closed.closedAt()).isEqualTo(sorterDeclared.declared());
    assertThat(closed.lateFiles()).isEmpty();
    Settlement.Delivery again = service.declareDelivered(branch, DAY1, atm);
    assertThat(again.recorded()).isFalse();
    assertThat(again.declared()).isEqualTo(atmDeclared.declared());
    assertThat(again.status()).isEqualTo(Settlement.Status.CLOSED);
    // Day 2 is open until the sorter declares too.
    assertThat(service.declareDelivered(branch, DAY2, atm).status())
        .isEqualTo(Settlement.Status.OPEN);
    assertThat(service.settlement(branch, DAY2).status()).isEqualTo(Settlement.Status.OPEN);

    // A late file of the ATM reopens day 1 and is named; the ATM declares again: closed again.
    Thread.sleep(5);
    List<Note> late =
        file(
            atm,
            DeviceKind.ATM,
            Operation.WITHDRAWAL,
            "a-late.fsn",
            local(DAY1, "17:00:00"),
            60,
            7);
    sendFsn("a-late.fsn", Operation.WITHDRAWAL, fsn(late), late.size(), 500);
    Settlement reopened = service.settlement(branch, DAY1);
    assertThat(reopened.status()).isEqualTo(Settlement.Status.REOPENED);
    assertThat(reopened.closedAt()).isNull();
    assertThat(reopened.lateFiles()).hasSize(1);
    Settlement.LateFile lateFile = reopened.lateFiles().get(0);
    assertThat(lateFile.device()).isEqualTo(atm);
    assertThat(lateFile.source()).isEqualTo("a-late.fsn");
    assertThat(lateFile.notes()).isEqualTo(60);
    assertThat(lateFile.declared()).isEqualTo(atmDeclared.declared());
    assertThat(lateFile.stored()).isAfterOrEqualTo(atmDeclared.declared());
    assertThat(lateFile.redeclared()).isFalse();
    assertThat(file(reopened, atm, "a-late.fsn").late()).isTrue();
    assertThat(file(reopened, atm, "a-1.fsn").late()).isFalse();
    assertThat(reopened.totals().total()).isEqualTo(day1.totals().total() + 60);
    assertSettlesAsStored(DAY1);
    Thread.sleep(5);
    Settlement.Delivery redeclared = service.declareDelivered(branch, DAY1, atm);
    assertThat(redeclared.recorded()).isTrue();
    assertThat(redeclared.firstDeclared()).isEqualTo(atmDeclared.declared());
    assertThat(redeclared.declared()).isAfter(atmDeclared.declared());
    assertThat(redeclared.status()).isEqualTo(Settlement.Status.CLOSED);
    assertThat(service.settlement(branch, DAY1).lateFiles())
        .singleElement()
        .satisfies(l -> assertThat(l.redeclared()).isTrue());

    // Purging a file removes it from both days' settlements.
    assertThat(service.purgeFile(atm, "a-night.fsn")).isEqualTo(night.size());
    Settlement purged1 = service.settlement(branch, DAY1);
    assertThat(file(purged1, atm, "a-night.fsn")).isNull();
    assertThat(purged1.totals().total()).isEqualTo(reopened.totals().total() - beforeMidnight);
    assertThat(file(service.settlement(branch, DAY2), atm, "a-night.fsn")).isNull();
    assertThat(service.settlement(branch, DAY2).hours().get(0).notes()).isZero();
    assertSettlesAsStored(DAY1);
    assertSettlesAsStored(DAY2);
    // The resent file's overlapping rows go with a purge as well.
    service.purgeFile(sorter, "s-1.jsonl");
    assertThat(file(service.settlement(branch, DAY1), sorter, "s-1.jsonl")).isNull();
    assertSettlesAsStored(DAY1);
  }

  @Test
  void aDayWithoutNotesIsOpenAndEmptyAndBadInputNamesTheField() {
    Settlement empty = service.settlement(branch, LocalDate.parse("2031-01-01"));
    assertThat(empty.status()).isEqualTo(Settlement.Status.OPEN);
    assertThat(empty.lines()).isEmpty();
    assertThat(empty.devices()).isEmpty();
    assertThat(empty.hours()).hasSize(24);
    assertThat(empty.totals()).isEqualTo(Settlement.Counts.ZERO);
    // A device that read nothing may declare; with no notes that day, the day closes on it.
    Settlement.Delivery d =
        service.declareDelivered(branch, LocalDate.parse("2031-01-01"), "idle-" + run);
    assertThat(d.status()).isEqualTo(Settlement.Status.CLOSED);
    assertThat(service.settlement(branch, LocalDate.parse("2031-01-01")).devices())
        .singleElement()
        .satisfies(x -> assertThat(x.counts().total()).isZero());

    assertThatThrownBy(() -> service.settlement("", DAY1))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("branch"));
    assertThatThrownBy(() -> service.declareDelivered(branch, DAY1, "x".repeat(65)))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("device"));
  }
}
