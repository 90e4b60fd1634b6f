package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The settlement's summary encoding: a piece's counts round-trip, the same notes in any order make
 * the same bytes (a retried piece rewrites its row with the same value), the cells count what a
 * note-by-note count gives, and a damaged value is refused; local hours and days agree with the
 * zone's own arithmetic across offset changes.
 */
class SettlementCodecTest {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  private static Note note(
      long record, String currency, int denomination, Operation op, Instant t, boolean suspect) {
    return new Note(
        currency.equals("CNY") ? String.format("XN%08d", record) : String.format("A%08dB", record),
        denomination,
        currency,
        null,
        "ATM-1",
        DeviceKind.ATM,
        "0110-001",
        op,
        t,
        "T1",
        suspect ? Verdict.SUSPECT : Verdict.GENUINE,
        List.of(),
        "a.fsn",
        record,
        null);
  }

  private static List<Note> randomNotes(SplittableRandom r, int count) {
    String[] currencies = {"CNY", "CNY", "CNY", "USD"};
    int[] cny = {1, 5, 10, 20, 50, 100};
    int[] usd = {1, 2, 5, 10, 20, 50, 100};
    Instant t0 = Instant.parse("2026-02-24T02:00:00Z");
    List<Note> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String c = currencies[r.nextInt(currencies.length)];
      int d = c.equals("CNY") ? cny[r.nextInt(cny.length)] : usd[r.nextInt(usd.length)];
      out.add(
          note(
              1000 + i,
              c,
              d,
              Operation.values()[r.nextInt(4)],
              t0.plusSeconds(r.nextInt(4 * 3600)),
              r.nextInt(20) == 0));
    }
    return out;
  }

  private static PieceCounts count(List<Note> notes, ZoneId zone) {
    PieceCounts.Builder b = new PieceCounts.Builder();
    LocalHours h = new LocalHours(zone);
    for (Note n : notes) {
      h.at(n.time().toEpochMilli());
      b.add(n, h.hour());
    }
    return b.build();
  }

  @Test
  void aPiecesCountsRoundTripAndEqualANoteByNoteCount() {
    SplittableRandom r = new SplittableRandom(7);
    List<Note> notes = randomNotes(r, 500);
    PieceCounts p = count(notes, SHANGHAI);
    assertThat(SettlementCodec.decode(SettlementCodec.encode(p))).isEqualTo(p);
    assertThat(p.first()).isEqualTo(1000);
    assertThat(p.last()).isEqualTo(1499);
    assertThat(p.kind()).isEqualTo(DeviceKind.ATM);
    assertThat(p.notes()).isEqualTo(500);

    Map<String, long[]> expected = new HashMap<>();
    for (Note n : notes) {
      int hour = n.time().atZone(SHANGHAI).getHour();
      long[] c =
          expected.computeIfAbsent(
              n.currency() + n.denomination() + n.operation() + "@" + hour, k -> new long[2]);
      c[0]++;
      c[1] += n.verdict() == Verdict.SUSPECT ? 1 : 0;
    }
    assertThat(p.cells()).hasSize(expected.size());
    for (PieceCounts.Cell c : p.cells()) {
      long[] e = expected.get(c.currency() + c.denomination() + c.operation() + "@" + c.hour());
      assertThat(new long[] {c.notes(), c.suspects()}).as(c.toString()).isEqualTo(e);
    }
  }

  @Test
  void theSameNotesInAnyOrderEncodeToTheSameBytes() {
    SplittableRandom r = new SplittableRandom(11);
    List<Note> notes = randomNotes(r, 300);
    byte[] once = SettlementCodec.encode(count(notes, SHANGHAI));
    List<Note> shuffled = new ArrayList<>(notes);
    java.util.Collections.shuffle(shuffled, new java.util.Random(3));
    assertThat(SettlementCodec.encode(count(shuffled, SHANGHAI))).isEqualTo(once);
  }

  @Test
  void aTypicalPieceIsAFewBytes() {
    List<Note> notes = new ArrayList<>();
    Instant t0 = Instant.parse("2026-02-24T02:00:00Z");
    for (int i = 0; i < 500; i++) {
      notes.add(
          note(i, "CNY", i % 2 == 0 ? 100 : 50, Operation.SORTING, t0.plusSeconds(i), i == 7));
    }
    byte[] value = SettlementCodec.encode(count(notes, SHANGHAI));
    // format, kind, first (1), range (2), one currency (1 + 4), two cells of 7 bytes (1 + 14)
    assertThat(value.length).isEqualTo(25);
    PieceCounts p = SettlementCodec.decode(value);
    assertThat(p.cells())
        .containsExactly(
            new PieceCounts.Cell("CNY", 50, Operation.SORTING, 10, 250, 1),
            new PieceCounts.Cell("CNY", 100, Operation.SORTING, 10, 250, 0));
  }

  @Test
  void aDamagedValueIsRefused() {
    byte[] value =
        SettlementCodec.encode(
            count(randomNotes(new SplittableRandom(1), 50), ZoneId.of("Europe/Paris")));
    assertThatThrownBy(() -> SettlementCodec.decode(java.util.Arrays.copyOf(value, 10)))
        .isInstanceOf(IllegalStateException.class);
    byte[] longer = java.util.Arrays.copyOf(value, value.length + 1);
    assertThatThrownBy(() -> SettlementCodec.decode(longer))
        .isInstanceOf(IllegalStateException.class);
    byte[] otherFormat = value.clone();
    otherFormat[0] = 9;
    assertThatThrownBy(() -> SettlementCodec.decode(otherFormat))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("format");
  }

  @Test
  void overlappingRecordRangesAreFound() {
    PieceCounts a = range(0, 499);
    PieceCounts b = range(500, 999);
    PieceCounts c = range(300, 599);
    PieceCounts d = range(1000, 1000);
    assertThat(Settlements.overlapping(List.of(a, b, d))).isFalse();
    assertThat(Settlements.overlapping(List.of(b, d, a))).isFalse();
    assertThat(Settlements.overlapping(List.of(a, b, c))).isTrue();
    assertThat(Settlements.overlapping(List.of(range(0, 999), range(10, 20), range(30, 40))))
        .isTrue();
    assertThat(Settlements.overlapping(List.of(range(0, 10), range(10, 20)))).isTrue();
  }

  private static PieceCounts range(long first, long last) {
    return new PieceCounts(
        DeviceKind.SORTER,
        first,
        last,
        List.of(new PieceCounts.Cell("CNY", 100, Operation.SORTING, 3, last - first + 1, 0)));
  }

  @Test
  void localHoursAgreeWithTheZoneAcrossOffsetChanges() {
    SplittableRandom r = new SplittableRandom(5);
    for (String z :
        List.of(
            "Asia/Shanghai",
            "America/New_York",
            "Australia/Lord_Howe",
            "Asia/Kolkata",
            "Europe/London",
            "Pacific/Apia")) {
      ZoneId zone = ZoneId.of(z);
      LocalHours h = new LocalHours(zone);
      // Walks through the year in random steps of up to 40 minutes, and around each transition.
      long t = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
      long end = Instant.parse("2027-01-01T00:00:00Z").toEpochMilli();
      while (t < end) {
        check(h, zone, t);
        t += r.nextLong(1, 40 * 60_000L);
      }
      for (var tr : zone.getRules().getTransitions()) {
        long at = tr.getInstant().toEpochMilli();
        for (long dt :
            new long[] {-3_600_001, -60_000, -1, 0, 1, 1_799_999, 1_800_000, 3_599_999}) {
          check(h, zone, at + dt);
        }
      }
    }
    // A day and an hour at a day's edge, in the bank's zone.
    LocalHours h = new LocalHours(SHANGHAI);
    long midnight =
        ZonedDateTime.of(LocalDateTime.parse("2026-02-25T00:00:00"), SHANGHAI)
            .toInstant()
            .toEpochMilli();
    h.at(midnight - 1);
    assertThat(h.hour()).isEqualTo(23);
    h.at(midnight);
    assertThat(h.hour()).isZero();
    assertThat(h.day()).isEqualTo(20509);
  }

  private static void check(LocalHours h, ZoneId zone, long t) {
    if (t < Note.EARLIEST.toEpochMilli()) {
      return;
    }
    h.at(t);
    ZonedDateTime z = Instant.ofEpochMilli(t).atZone(zone);
    assertThat(h.hour()).as("%s %s", zone, z).isEqualTo(z.getHour());
    assertThat(h.day()).as("%s %s", zone, z).isEqualTo(z.toLocalDate().toEpochDay());
  }
}
