package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class BanknoteWatchIT {
  static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  static final LocalDate DAY = LocalDate.parse("2026-10-12");

  private Platform platform;
  private BanknoteService service;
  private Counter hitCounter;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    String namespace = TestIds.unique("banknote_watch").replace('-', '_');
    service = new BanknoteService(platform.contextFor("banknote"), namespace, SHANGHAI);
    hitCounter = platform.contextFor("banknote").metrics().counter("casebook.banknote.watch.hits");
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  static Note with(Note n, String serial, String currency, int denomination) {
    return new Note(
        serial,
        denomination,
        currency,
        n.edition(),
        n.device(),
        n.deviceKind(),
        n.branch(),
        n.operation(),
        n.time(),
        n.batch(),
        n.verdict(),
        n.errorCodes(),
        n.source(),
        n.record(),
        n.image());
  }

  /** What identifies a hit: the note's identity and the entry it matched. */
  static String hitKey(Note n, String pattern) {
    return n.device() + "|" + n.source() + "|" + n.record() + "|" + pattern;
  }

  /** Every hit of the days and branches of {@code notes}, checking each listing is newest first. */
  private List<WatchHit> hitsOf(List<Note> notes) {
    Set<String> branchDays = new HashSet<>();
    for (Note n : notes) {
      branchDays.add(n.branch() + "|" + n.time().atZone(SHANGHAI).toLocalDate());
    }
    List<WatchHit> out = new ArrayList<>();
    for (String bd : branchDays) {
      String[] p = bd.split("\\|");
      PageRequest page = PageRequest.first(3);
      List<WatchHit> listing = new ArrayList<>();
      while (true) {
        Page<WatchHit> got = service.hits(p[0], LocalDate.parse(p[1]), page);
        listing.addAll(got.items());
        if (got.next().isEmpty()) {
          break;
        }
        page = new PageRequest(3, got.next());
      }
      for (int i = 1; i < listing.size(); i++) {
        assertThat(listing.get(i).note().time())
            .isBeforeOrEqualTo(listing.get(i - 1).note().time());
      }
      out.addAll(listing);
    }
    return out;
  }

  @Test
  void everyPlantedNoteIsAHitWithItsReadingAndNoOtherNoteIs() {
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(20, 1, 150, 0, 0, false, 11, DAY, SHANGHAI));
    List<List<Note>> batches = new ArrayList<>();
    gen.notes(4_000, 200, b -> batches.add(new ArrayList<>(b)));
    // Planted notes replace generated records (keeping their device, batch, time and identity).
    String[][] planted = {
      {"ZZ31415926", "CNY", "100"}, // exact entry
      {"ZY27188281", "CNY", "50"}, // ? in the middle
      {"ZY27998281", "CNY", "100"},
      {"ZX55123456", "CNY", "20"}, // prefix run of its own length, not the 11-character one
      {"ZX551234567", "USD", "100"}, // the 11-character pattern only
      {"ZW00000007", "CNY", "10"}, // two entries: both are hits
      {"ZV12000001", "CNY", "100"}, // entry for 100s only
      {"ZV12000002", "CNY", "50"}, // same pattern, other denomination: no hit
    };
    List<Note> plantedNotes = new ArrayList<>();
    for (int i = 0; i < planted.length; i++) {
      List<Note> b = batches.get(i * 2 + i % 2);
      int at = 17 + i * 13;
      Note n = with(b.get(at), planted[i][0], planted[i][1], Integer.parseInt(planted[i][2]));
      b.set(at, n);
      plantedNotes.add(n);
    }
    List<WatchEntry> entries =
        List.of(
            service.watch("ZZ31415926", null, "reported by a customer", "ops"),
            service.watch("zy27??8281", null, "counterfeit run", "ops"),
            service.watch("ZX55??????", null, "PBOC notice", "ops"),
            service.watch("ZX55???????", null, "foreign run", "ops"),
            service.watch("ZW00000007", null, "exact", "ops"),
            service.watch("ZW0000000?", null, "run", "ops"),
            service.watch("ZV12??????", 100, "100s only", "ops"));
    assertThat(service.watchList(PageRequest.first(100)).items())
        .containsExactlyInAnyOrderElementsOf(entries);

    List<Note> all = new ArrayList<>();
    batches.forEach(all::addAll);
    Set<String> expected = new HashSet<>();
    for (Note n : all) {
      for (WatchEntry e : entries) {
        if (BanknoteWatchMatcherTest.naive(e, n.serial(), n.denomination())) {
          expected.add(hitKey(n, e.pattern()));
        }
      }
    }
    assertThat(expected)
        .contains(
            hitKey(plantedNotes.get(0), "ZZ31415926"),
            hitKey(plantedNotes.get(1), "ZY27??8281"),
            hitKey(plantedNotes.get(2), "ZY27??8281"),
            hitKey(plantedNotes.get(3), "ZX55??????"),
            hitKey(plantedNotes.get(4), "ZX55???????"),
            hitKey(plantedNotes.get(5), "ZW00000007"),
            hitKey(plantedNotes.get(5), "ZW0000000?"),
            hitKey(plantedNotes.get(6), "ZV12??????"))
        .doesNotContain(
            hitKey(plantedNotes.get(3), "ZX55???????"),
            hitKey(plantedNotes.get(4), "ZX55??????"),
            hitKey(plantedNotes.get(7), "ZV12??????"));

    // Half through the collector (REST batches and FSN pieces), half through the import's writer.
    double before = hitCounter.count();
    int half = batches.size() / 2;
    for (List<Note> b : batches.subList(0, half)) {
      service.store(b);
    }
    try (BanknoteService.BulkWriter w = service.writer()) {
      for (List<Note> b : batches.subList(half, batches.size())) {
        w.write(b);
      }
      w.flush();
    }
    List<WatchHit> hits = hitsOf(all);
    Set<String> found = new HashSet<>();
    for (WatchHit h : hits) {
      found.add(hitKey(h.note(), h.pattern()));
      Note stored =
          all.stream()
              .filter(
                  n ->
                      n.device().equals(h.note().device())
                          && n.source().equals(h.note().source())
                          && n.record() == h.note().record())
              .findFirst()
              .orElseThrow();
      assertThat(h.note()).isEqualTo(stored);
      assertThat(entries)
          .anyMatch(e -> e.id().equals(h.entry()) && e.pattern().equals(h.pattern()));
    }
    assertThat(hits).hasSize(expected.size());
    assertThat(found).isEqualTo(expected);
    assertThat(hitCounter.count() - before).isEqualTo(expected.size());

    // A retried batch (the agent lost the answer) records its hits once.
    service.store(batches.get(0));
    service.store(batches.get(3));
    try (BanknoteService.BulkWriter w = service.writer()) {
      w.write(batches.get(11));
    }
    assertThat(hitsOf(all)).hasSize(expected.size());
  }

  @Test
  void aChangeOfTheListTakesEffectForTheNextBatch() {
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(3, 1, 150, 0, 0, false, 12, DAY, SHANGHAI));
    List<List<Note>> batches = new ArrayList<>();
    gen.notes(300, 100, b -> batches.add(new ArrayList<>(b)));
    String serial = "ZU98765432";
    for (List<Note> b : batches) {
      b.set(5, with(b.get(5), serial, "CNY", 100));
    }
    List<Note> all = new ArrayList<>();
    batches.forEach(all::addAll);

    service.store(batches.get(0));
    assertThat(hitsOf(all)).isEmpty();

    WatchEntry e = service.watch("ZU98??5432", null, "new notice", "ops");
    service.store(batches.get(1));
    assertThat(hitsOf(all))
        .extracting(h -> hitKey(h.note(), h.entry()))
        .containsExactly(hitKey(batches.get(1).get(5), e.id()));

    service.unwatch(e.id());
    assertThat(service.watchList(PageRequest.first(10)).items()).isEmpty();
    service.store(batches.get(2));
    assertThat(hitsOf(all)).hasSize(1);

    // Purging the file that made the hit removes the hit with its readings.
    Note hit = batches.get(1).get(5);
    service.purgeFile(hit.device(), hit.source());
    assertThat(hitsOf(all)).isEmpty();
  }

  @Test
  void aSerialSeenWithAnotherDenominationOrEditionIsAProbableCloneWithBothReadings() {
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(1, 1, 150, 0, 0, false, 13, DAY, SHANGHAI));
    List<Note> batch = new ArrayList<>();
    gen.notes(5, 5, batch::addAll);
    String serial = "ZT11223344";
    int[] denominations = {100, 100, 50, 50, 50};
    Integer[] editions = {2015, 2015, 2015, 2019, null};
    List<Note> readings = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Note n = with(batch.get(i), serial, "CNY", denominations[i]);
      readings.add(
          new Note(
              n.serial(),
              n.denomination(),
              n.currency(),
              editions[i],
              n.device(),
              n.deviceKind(),
              n.branch(),
              n.operation(),
              DAY.atStartOfDay(SHANGHAI).toInstant().plusSeconds(60L * i),
              n.batch(),
              n.verdict(),
              n.errorCodes(),
              n.source(),
              n.record(),
              null));
    }
    service.store(readings);
    assertThat(service.clones(serial).clones())
        .extracting(c -> c.differs() + " " + c.earlier().record() + "->" + c.later().record())
        .containsExactly(
            "[denomination] " + readings.get(1).record() + "->" + readings.get(2).record(),
            "[edition] " + readings.get(2).record() + "->" + readings.get(3).record());
    assertThat(service.clones(serial).clones().get(0).earlier()).isEqualTo(readings.get(1));
    assertThat(service.clones(serial).clones().get(0).later()).isEqualTo(readings.get(2));
    assertThat(service.clones("ZT99999999").clones()).isEmpty();
  }
}
