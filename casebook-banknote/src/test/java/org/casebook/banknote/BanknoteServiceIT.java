package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class BanknoteServiceIT {
  static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  private Platform platform;
  private BanknoteService service;
  private Path scratch;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(new BanknoteSystem().descriptor().tables());
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    service = new BanknoteService(platform.contextFor("banknote"), "banknote", SHANGHAI);
    run = TestIds.unique("r");
    scratch = EmbeddedHBase.scratchDir("banknote-" + run);
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  /** Every page of a listing, following the cursors. */
  static List<Note> all(Function<PageRequest, Page<Note>> listing, int limit) {
    List<Note> out = new ArrayList<>();
    PageRequest page = PageRequest.first(limit);
    while (true) {
      Page<Note> p = listing.apply(page);
      out.addAll(p.items());
      if (p.next().isEmpty()) {
        return out;
      }
      page = new PageRequest(limit, p.next());
    }
  }

  /** Generated device files, written and imported; the generator's notes are the expectation. */
  private List<BanknoteGenerator.GeneratedFile> generateAndImport(
      int devices, LocalDate day, double damagedFiles, double damagedRecords) {
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(
                devices, 1, 150, damagedFiles, damagedRecords, true, 42, day, SHANGHAI));
    List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>();
    gen.write(scratch.resolve("spool"), files::add);
    for (BanknoteGenerator.GeneratedFile f : files) {
      ImportReport r = service.importFile(f.path(), FileContext.none(), scratch.resolve("rejects"));
      if (f.damaged()) {
        assertThat(r.quarantined()).as(f.path().toString()).isNotNull();
        assertThat(r.stored()).isZero();
      } else {
        assertThat(r.quarantined()).as(f.path() + ": " + r).isNull();
        assertThat(r.stored()).as(f.path().toString()).isEqualTo(f.notes().size());
        assertThat(r.rejected()).as(f.path().toString()).isEqualTo(f.brokenRecords());
      }
    }
    return files;
  }

  private static boolean onDay(Note n, LocalDate day) {
    return n.time().atZone(SHANGHAI).toLocalDate().equals(day);
  }

  /** Generator → FSN and JSON-lines files → import → every lookup returns exactly the input. */
  @Test
  void generatedFilesRoundTripThroughImportAndLookup() {
    LocalDate day = LocalDate.of(2031, 3, 2);
    List<BanknoteGenerator.GeneratedFile> files = generateAndImport(8, day, 0.0, 0.0);
    Map<String, List<Note>> bySerial = new HashMap<>();
    Set<String> formats = new HashSet<>();
    for (BanknoteGenerator.GeneratedFile f : files) {
      formats.add(f.format());
      f.notes().forEach(n -> bySerial.computeIfAbsent(n.serial(), k -> new ArrayList<>()).add(n));
    }
    assertThat(formats).contains("fsn2014", "fsn2018", "fsn2014_no_images");
    assertThat(bySerial.values().stream().mapToInt(List::size).max().orElse(0))
        .as("circulating notes come back")
        .isGreaterThan(1);
    for (Map.Entry<String, List<Note>> e : bySerial.entrySet()) {
      List<Note> history =
          all(p -> service.history(e.getKey(), p, true), 1000).stream()
              .filter(n -> onDay(n, day))
              .toList();
      List<Note> expected = new ArrayList<>(e.getValue());
      assertThat(history).as(e.getKey()).containsExactlyInAnyOrderElementsOf(expected);
      for (int i = 1; i < history.size(); i++) {
        assertThat(history.get(i - 1).time()).isAfterOrEqualTo(history.get(i).time());
      }
    }
  }

  @Test
  void deviceWindowsBatchesAndSuspectsAnswerExactly() {
    LocalDate day = LocalDate.of(2031, 4, 7);
    List<BanknoteGenerator.GeneratedFile> files = generateAndImport(6, day, 0.0, 0.05);
    Instant from = day.atStartOfDay(SHANGHAI).toInstant();
    Instant to = day.plusDays(1).atStartOfDay(SHANGHAI).toInstant();
    Map<String, List<Note>> byDevice = new HashMap<>();
    List<Note> suspects = new ArrayList<>();
    for (BanknoteGenerator.GeneratedFile f : files) {
      for (Note n : f.notes()) {
        byDevice.computeIfAbsent(n.device(), k -> new ArrayList<>()).add(n.withoutImage());
        if (n.verdict() == Verdict.SUSPECT) {
          suspects.add(n.withoutImage());
        }
      }
    }
    for (Map.Entry<String, List<Note>> e : byDevice.entrySet()) {
      List<Note> read = all(p -> service.device(e.getKey(), from, to, p), 37);
      assertThat(read).containsExactlyInAnyOrderElementsOf(e.getValue());
      for (int i = 1; i < read.size(); i++) {
        assertThat(read.get(i - 1).time()).isBeforeOrEqualTo(read.get(i).time());
      }
      // A narrower window holds exactly the notes inside it.
      Instant mid = read.get(read.size() / 2).time();
      assertThat(service.device(e.getKey(), from, mid, PageRequest.first(1000)).items())
          .containsExactlyInAnyOrderElementsOf(
              e.getValue().stream().filter(n -> n.time().isBefore(mid)).toList());
    }
    BanknoteGenerator.GeneratedFile sorted =
        files.stream().filter(f -> f.format().startsWith("fsn2014")).findFirst().orElseThrow();
    String batch = sorted.notes().get(0).batch();
    assertThat(all(p -> service.batch(batch, p), 29))
        .containsExactlyInAnyOrderElementsOf(
            sorted.notes().stream().map(Note::withoutImage).toList());
    assertThat(service.batch("no-such-" + run, PageRequest.first(10)).items()).isEmpty();

    Map<String, List<Note>> suspectsByBranch = new HashMap<>();
    suspects.forEach(
        n -> suspectsByBranch.computeIfAbsent(n.branch(), k -> new ArrayList<>()).add(n));
    for (String branch :
        byDevice.values().stream().map(l -> l.get(0).branch()).distinct().toList()) {
      assertThat(all(p -> service.suspects(branch, day, p), 2))
          .containsExactlyInAnyOrderElementsOf(suspectsByBranch.getOrDefault(branch, List.of()));
    }
  }

  @Test
  void cursorsOfOneListingAreRefusedByAnother() {
    LocalDate day = LocalDate.of(2031, 5, 1);
    List<BanknoteGenerator.GeneratedFile> files = generateAndImport(2, day, 0, 0);
    Note n = files.get(0).notes().get(0);
    Instant from = day.atStartOfDay(SHANGHAI).toInstant();
    Page<Note> page =
        service.device(n.device(), from, from.plusSeconds(86_400), PageRequest.first(1));
    assertThat(page.next()).isPresent();
    assertThatThrownBy(() -> service.history(n.serial(), new PageRequest(1, page.next()), false))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("cursor");
    // A cursor of the same listing but another device points outside this device's range.
    Note other =
        files.stream()
            .flatMap(f -> f.notes().stream())
            .filter(x -> !x.device().equals(n.device()))
            .findFirst()
            .orElseThrow();
    assertThatThrownBy(
            () ->
                service.device(
                    other.device(),
                    from,
                    from.plusSeconds(86_400),
                    new PageRequest(1, page.next())))
        .isInstanceOf(InvalidInputException.class);
  }

  /** At-least-once delivery: the same batch stored again and again, by many threads at once. */
  @Test
  void retriedAndConcurrentBatchesNeverDuplicate() throws Exception {
    String device = "ATM/" + run;
    Instant t0 = Instant.parse("2031-06-01T02:00:00Z");
    List<List<Note>> batches = new ArrayList<>();
    for (int b = 0; b < 5; b++) {
      List<Note> batch = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        int k = b * 200 + i;
        batch.add(
            new Note(
                String.format("ZZ%08d", (k * 7919) % 100_000_000),
                100,
                "CNY",
                2015,
                device,
                DeviceKind.ATM,
                "0110-001",
                Operation.DEPOSIT,
                t0.plusSeconds(k / 10),
                "T" + b,
                k % 97 == 0 ? Verdict.SUSPECT : Verdict.GENUINE,
                List.of(0, 0, 0),
                run + ".fsn",
                k,
                null));
      }
      batches.add(batch);
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int thread = 0; thread < 8; thread++) {
        int offset = thread;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < batches.size(); i++) {
                    service.store(batches.get((i + offset) % batches.size()));
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    service.store(batches.get(2)); // and a late retry
    List<Note> expected = batches.stream().flatMap(List::stream).toList();
    List<Note> read = all(p -> service.device(device, t0, t0.plusSeconds(3600), p), 1000);
    assertThat(read).hasSize(1000).containsExactlyInAnyOrderElementsOf(expected);
    for (Note n : expected.subList(0, 50)) {
      assertThat(service.history(n.serial(), PageRequest.first(100), false).items())
          .filteredOn(x -> x.device().equals(device))
          .containsExactly(n);
    }
    assertThat(all(p -> service.batch("T3", p), 1000))
        .filteredOn(x -> x.device().equals(device))
        .containsExactlyInAnyOrderElementsOf(batches.get(3));
  }

  @Test
  void malformedFilesAreQuarantinedWholeAndNothingOfThemIsStored() throws Exception {
    Note n =
        new Note(
            String.format("QQ%08d", Math.abs(run.hashCode()) % 100_000_000),
            100,
            "CNY",
            2015,
            "SORTER/" + run,
            DeviceKind.SORTER,
            "0110-001",
            Operation.SORTING,
            Instant.parse("2031-07-01T01:00:00Z"),
            "B1",
            Verdict.GENUINE,
            List.of(0, 0, 0),
            "0110-001_sorting_B1.fsn",
            0,
            null);
    List<org.casebook.banknote.fsn.FsnRecord> records = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      records.add(FsnNotes.record(n, SHANGHAI, true));
    }
    byte[] good =
        new org.casebook.banknote.fsn.FsnFile(
                org.casebook.banknote.fsn.FsnHeader.of(
                    org.casebook.banknote.fsn.FsnVariant.FSN2014_NO_IMAGES),
                records)
            .bytes();
    Path truncated = scratch.resolve("0110-001_sorting_" + run + ".fsn");
    Files.write(truncated, java.util.Arrays.copyOf(good, good.length - 10));
    Path rejects = scratch.resolve("rejects");
    ImportReport r = service.importFile(truncated, FileContext.none(), rejects);
    assertThat(r.quarantined()).startsWith("truncated record: record 4 has 90 of its 100 bytes");
    assertThat(r.stored()).isZero();
    assertThat(rejects.resolve(truncated.getFileName())).exists();
    assertThat(Files.readString(rejects.resolve(truncated.getFileName() + ".reasons")))
        .startsWith("truncated record");
    assertThat(service.history(n.serial(), PageRequest.first(10), false).items()).isEmpty();

    Path unknown = scratch.resolve("notes.csv");
    Files.writeString(unknown, "serial,denomination\n");
    assertThat(service.importFile(unknown, FileContext.none(), rejects).quarantined())
        .startsWith("unknown file type");
  }

  /** The two real sorter files import whole; a serial's history shows every pass. */
  @Test
  void theRealSorterFilesImportAndAnswerLookups() {
    Path cny = SharedFsnFiles.require("1000.fsn");
    Path usd = SharedFsnFiles.require("100.FSN");
    Path rejects = scratch.resolve("rejects");
    ImportReport a = service.importFile(cny, FileContext.none().withBranch("BOC20-real"), rejects);
    assertThat(a.stored()).isEqualTo(1000);
    assertThat(a.rejected()).isZero();
    ImportReport b = service.importFile(usd, FileContext.none().withBranch("BOC18-real"), rejects);
    assertThat(b.stored()).isEqualTo(100);
    Instant from = Instant.parse("2021-02-24T00:00:00Z");
    List<Note> all =
        all(
                p -> service.device("BOC20/JLGF/JL303MHJ40079", from, from.plusSeconds(86_400), p),
                1000)
            .stream()
            .filter(n -> n.source().equals("1000.fsn"))
            .toList();
    assertThat(all).hasSize(1000);
    Map<String, Long> counts = new HashMap<>();
    all.forEach(n -> counts.merge(n.serial(), 1L, Long::sum));
    String most =
        counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    List<Note> history =
        service
            .history(most.toLowerCase(java.util.Locale.ROOT), PageRequest.first(100), true)
            .items()
            .stream()
            .filter(n -> n.source().equals("1000.fsn"))
            .toList();
    assertThat(history).hasSize(7);
    assertThat(history.get(0).image()).hasSize(8 + 10 * 128);
    assertThat(
            service
                .suspects("BOC18-real", LocalDate.of(2018, 11, 16), PageRequest.first(10))
                .items())
        .extracting(Note::serial)
        .containsExactly("LF22055550E");
    assertThat(all(p -> service.batch("1000", p), 1000))
        .filteredOn(n -> n.device().equals("BOC20/JLGF/JL303MHJ40079"))
        .hasSize(1000);
  }
}
