package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnHeader;
import org.casebook.banknote.fsn.FsnRecord;
import org.casebook.banknote.fsn.FsnVariant;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class FsnNotesTest {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  static Note note(String serial, int denomination, String currency, long record) {
    return new Note(
        serial,
        denomination,
        currency,
        currency.equals("CNY") ? 2015 : null,
        "BOC20/JLGF/JL303MHJ40079",
        DeviceKind.SORTER,
        "0110-001",
        Operation.SORTING,
        Instant.parse("2021-02-24T05:13:02Z"),
        "B1",
        Verdict.GENUINE,
        List.of(0x5555, 0x5515, 0x8005),
        "0110-001_sorting_B1.fsn",
        record,
        null);
  }

  @Test
  void theFileNameCarriesBranchOperationAndBatch() {
    FsnNotes.NameParts p = FsnNotes.nameParts("0110-001_withdrawal_T2026-7.FSN");
    assertThat(p).isEqualTo(new FsnNotes.NameParts("0110-001", Operation.WITHDRAWAL, "T2026-7"));
    assertThat(FsnNotes.nameParts("1000.fsn"))
        .isEqualTo(new FsnNotes.NameParts(null, null, "1000"));
    assertThat(FsnNotes.nameParts("a_b_c.fsn").batch()).isEqualTo("a_b_c");
  }

  @Test
  void dosDatesAndTimesAreLocalWithTwoSecondSteps() {
    int date = (41 << 9) | (2 << 5) | 24;
    int time = (13 << 11) | (13 << 5) | 1;
    assertThat(FsnNotes.time(date, time, SHANGHAI))
        .isEqualTo(Instant.parse("2021-02-24T05:13:02Z"));
    assertThatThrownBy(() -> FsnNotes.time((41 << 9) | (13 << 5) | 1, 0, SHANGHAI))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not a date and time");
  }

  @Test
  void notesRoundTripThroughFsnRecords() throws Exception {
    List<Note> notes =
        List.of(note("XN15115812", 100, "CNY", 0), note("lf01138999d", 20, "USD", 1));
    List<FsnRecord> records = new ArrayList<>();
    for (Note n : notes) {
      records.add(FsnNotes.record(n, SHANGHAI, true));
    }
    byte[] bytes = new FsnFile(FsnHeader.of(FsnVariant.FSN2014_NO_IMAGES), records).bytes();
    ParsedFile back = NoteFiles.parse("0110-001_sorting_B1.fsn", bytes, FileContext.none());
    assertThat(back.rejects()).isEmpty();
    assertThat(back.notes()).containsExactlyElementsOf(notes);
    assertThat(back.notes().get(1).serial()).isEqualTo("LF01138999D");
  }

  @Test
  void badRecordsAreRejectedWithTheirReasonAndTheRestKept() throws Exception {
    FsnRecord good = FsnNotes.record(note("XN15115812", 100, "CNY", 0), SHANGHAI, true);
    int[] shortSerial = java.util.Arrays.copyOf(good.serial(), 4);
    int[] hole = good.serial();
    hole[3] = 0;
    List<FsnRecord> records =
        List.of(
            good,
            copy(good, good.date(), 1, 3, 10, good.serial(), "CNY"), // unknown denomination
            copy(good, good.date(), 1, 100, 4, shortSerial, "CNY"), // serial too short
            copy(good, good.date(), 1, 100, 10, hole, "CNY"), // empty position
            copy(good, good.date() | (15 << 5), 1, 100, 10, good.serial(), "CNY"), // month 15
            copy(good, good.date(), 9, 100, 10, good.serial(), "CNY"), // tfFlag 9
            copy(good, good.date(), 1, 100, 10, good.serial(), "XYZ"), // unknown currency
            copy(good, good.date(), 1, 100, 14, good.serial(), "CNY"), // CharNUM 14
            copy(good, good.date(), 0, 100, 10, good.serial(), "CNY")); // suspect: kept
    ParsedFile f =
        NoteFiles.parse(
            "x.fsn",
            new FsnFile(FsnHeader.of(FsnVariant.FSN2014_NO_IMAGES), records).bytes(),
            FileContext.none().withBranch("0110-001"));
    assertThat(f.notes()).extracting(Note::record).containsExactly(0L, 8L);
    assertThat(f.notes().get(1).verdict()).isEqualTo(Verdict.SUSPECT);
    Map<Long, String> reasons = new HashMap<>();
    f.rejects().forEach(r -> reasons.put(r.record(), r.field() + ": " + r.reason()));
    assertThat(reasons)
        .containsEntry(1L, "denomination: unknown denomination 3 for CNY")
        .containsEntry(2L, "serial: serial must have 6 to 12 characters, got 4")
        .containsEntry(3L, "serial: serial position 4 of 10 is empty (0x0000)")
        .containsEntry(6L, "currency: unknown currency 'XYZ'; known: CNY, EUR, GBP, HKD, JPY, USD")
        .containsEntry(7L, "serial: CharNUM is 14, expected 1 to 12");
    assertThat(reasons.get(4L)).startsWith("time: not a date and time");
    assertThat(reasons.get(5L)).isEqualTo("verdict: tfFlag is 9, not 0..3");
  }

  @Test
  void aFileWithoutABranchIsRefusedUnlessOneIsGiven() {
    FsnRecord good = FsnNotes.record(note("XN15115812", 100, "CNY", 0), SHANGHAI, true);
    byte[] bytes = new FsnFile(FsnHeader.of(FsnVariant.FSN2014), List.of(good)).bytes();
    assertThatThrownBy(() -> NoteFiles.parse("1000.fsn", bytes, FileContext.none()))
        .isInstanceOf(FileRejectedException.class)
        .hasMessageContaining("names no branch");
  }

  @Test
  void jsonLinesAreReadLineByLineAndBadLinesRejected() throws Exception {
    Note n = note("XN15115812", 100, "CNY", 0);
    String ok = org.casebook.core.Json.write(NoteJson.of(n));
    String content =
        ok
            + "\n"
            + ok.replace("\"denomination\":100", "\"denomination\":3")
            + "\n{not json\n"
            + ok.replace("\"serial\":\"XN15115812\"", "\"serial\":\"XN 15115812\"")
            + "\n"
            + ok.replace("\"serial\":", "\"colour\":\"red\",\"serial\":")
            + "\r\n";
    ParsedFile f =
        NoteFiles.parse("t.jsonl", content.getBytes(StandardCharsets.UTF_8), FileContext.none());
    assertThat(f.notes()).containsExactly(n);
    assertThat(f.rejects()).extracting(Reject::record).containsExactly(1L, 2L, 3L, 4L);
    assertThat(f.rejects())
        .extracting(Reject::field)
        .containsExactly("denomination", "line", "serial", "colour");
  }

  /** The two real sorter files (skipped when the shared data directory is absent). */
  @Test
  void theRealSorterFilesReadExactly() throws Exception {
    Path usd = SharedFsnFiles.require("100.FSN");
    ParsedFile f = NoteFiles.read(usd, FileContext.none().withBranch("BOC18"));
    assertThat(f.format()).isEqualTo("fsn2014");
    assertThat(f.rejects()).isEmpty();
    assertThat(f.notes()).hasSize(100);
    Note first = f.notes().get(0);
    assertThat(first.serial()).isEqualTo("LF01138999D");
    assertThat(first.currency()).isEqualTo("USD");
    assertThat(first.edition()).isNull();
    assertThat(first.device()).isEqualTo("BOC18/JLGF/JL305PVJA0003");
    assertThat(first.deviceKind()).isEqualTo(DeviceKind.SORTER);
    assertThat(first.time()).isEqualTo(Instant.parse("2018-11-16T01:56:36Z"));
    assertThat(first.errorCodes()).containsExactly(21845, 5461, 1408);
    assertThat(first.image()).hasSize(8 + 11 * 128);
    assertThat(f.notes().stream().filter(x -> x.verdict() == Verdict.SUSPECT))
        .extracting(Note::serial)
        .containsExactly("LF22055550E");
    assertThat(f.notes().stream().map(Note::denomination).distinct().sorted())
        .containsExactly(1, 5, 10, 20, 50, 100);

    Path cny = SharedFsnFiles.require("1000.fsn");
    ParsedFile g = NoteFiles.read(cny, FileContext.none().withBranch("BOC20"));
    assertThat(g.rejects()).isEmpty();
    assertThat(g.notes()).hasSize(1000);
    assertThat(g.notes().get(0).serial()).isEqualTo("F5F8385368");
    assertThat(g.notes().get(0).time()).isEqualTo(Instant.parse("2021-02-24T05:13:00Z"));
    assertThat(g.notes().stream().map(Note::edition).distinct().sorted())
        .containsExactly(2005, 2015);
    Map<String, Integer> history = new HashMap<>();
    g.notes().forEach(x -> history.merge(x.serial(), 1, Integer::sum));
    assertThat(history).hasSize(189);
    assertThat(history.values().stream().mapToInt(Integer::intValue).max()).hasValue(7);
    assertThat(Files.size(cny)).isEqualTo(32 + 1000 * 1644L);
  }

  private static FsnRecord copy(
      FsnRecord r,
      int date,
      int tfFlag,
      long denomination,
      int charCount,
      int[] serial,
      String cur) {
    return new FsnRecord(
        date,
        r.time(),
        tfFlag,
        r.errorCodes(),
        cur,
        r.edition(),
        denomination,
        charCount,
        serial,
        r.machine(),
        r.reserve1(),
        r.image());
  }
}
