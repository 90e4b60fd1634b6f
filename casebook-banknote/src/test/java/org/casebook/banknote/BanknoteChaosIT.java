package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The collector's exactly-once promise while HBase splits, merges, flushes and compacts the
 * banknote tables. Workers deliver generated device files as the agent does (FSN files in pieces,
 * JSON-lines files as note batches) and re-send files already acknowledged, as an agent does when
 * an acknowledgement is lost; afterwards every listing must hold each acknowledged note exactly
 * once.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteChaosIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  /** Tables of their own: the chaos acts on nothing another test reads. */
  private static final String NAMESPACE = "banknotechaos";

  private static final LocalDate DAY = LocalDate.of(2033, 5, 17);

  /** Records per upload, as the agent's batch size (500 by default; smaller for more uploads). */
  private static final int PIECE = 100;

  private static final int WORKERS = 4;

  /** A generated file as the agent sends it: name, FSN bytes (null for JSON lines), notes. */
  private static final class DeviceFile {
    final String name;
    final byte[] fsn;
    final List<Note> notes;

    DeviceFile(String name, byte[] fsn, List<Note> notes) {
      this.name = name;
      this.fsn = fsn;
      this.notes = notes;
    }
  }

  /** What the workers delivered, by note identity: acknowledged, or failed (maybe stored). */
  private static final class Ledger {
    final Map<String, Note> acknowledged = new ConcurrentHashMap<>();
    final Map<String, Note> inDoubt = new ConcurrentHashMap<>();
    final List<String> unexpectedAnswers = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<DeviceFile> fresh = new ConcurrentLinkedQueue<>();
    final List<DeviceFile> delivered = new CopyOnWriteArrayList<>();
    final Map<String, Integer> resent = new ConcurrentHashMap<>();
  }

  @Test
  void everyAcknowledgedNoteIsStoredOnceThroughSplitsMergesAndRetries(HBaseRuntime runtime)
      throws Exception {
    Path scratch = EmbeddedHBase.scratchDir(TestIds.unique("banknote-chaos"));
    BanknoteGenerator generator =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(10, 1, 200, 0, 0, false, 33, DAY, SHANGHAI));
    List<BanknoteGenerator.GeneratedFile> generated = new ArrayList<>();
    generator.write(scratch, generated::add);
    Ledger ledger = new Ledger();
    Map<String, Note> all = new HashMap<>();
    for (BanknoteGenerator.GeneratedFile f : generated) {
      byte[] fsn = f.format().equals("jsonl") ? null : Files.readAllBytes(f.path());
      ledger.fresh.add(new DeviceFile(f.path().getFileName().toString(), fsn, f.notes()));
      f.notes().forEach(n -> all.put(identity(n), n.withoutImage()));
    }

    if (EmbeddedHBase.onCluster()) {
      // The same generated notes as an earlier run's: on a cluster, start from empty tables.
      new org.casebook.core.schema.SchemaManager(runtime.connection()).dropNamespace(NAMESPACE);
    }
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      BanknoteService service =
          new BanknoteService(platform.contextFor("banknote"), NAMESPACE, SHANGHAI);
      BanknoteSchema schema = BanknoteSchema.in(NAMESPACE);
      SplittableRandom[] randoms = new SplittableRandom[WORKERS];
      for (int w = 0; w < WORKERS; w++) {
        randoms[w] = new SplittableRandom(33 + w);
      }
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              List.of(schema.notes(), schema.devices(), schema.suspects(), schema.batches()),
              33L,
              Duration.ofSeconds(6),
              Duration.ofMillis(300),
              WORKERS,
              (worker, iteration) -> deliverStep(service, ledger, randoms[worker], iteration));

      String what =
          report.toString()
              + ledger.acknowledged.size()
              + " of "
              + all.size()
              + " notes acknowledged, "
              + ledger.inDoubt.size()
              + " in doubt; files delivered "
              + ledger.delivered.size()
              + " of "
              + generated.size()
              + ", re-sent "
              + ledger.resent.values().stream().mapToInt(Integer::intValue).sum()
              + " times";
      assertThat(report.done(ChaosAction.SPLIT)).as(what).isGreaterThanOrEqualTo(1);
      assertThat(ledger.resent)
          .as("files re-sent after their acknowledgement\n" + what)
          .isNotEmpty();
      assertThat(ledger.unexpectedAnswers).as(what).isEmpty();

      Instant from = DAY.atStartOfDay(SHANGHAI).toInstant();
      Instant to = DAY.plusDays(1).atStartOfDay(SHANGHAI).toInstant();
      List<Note> byDevice = new ArrayList<>();
      for (BanknoteGenerator.Device d : generator.devices()) {
        byDevice.addAll(pages(p -> service.device(d.id(), from, to, p)));
      }
      Set<String> devices = checkListing("device listings", byDevice, n -> true, all, ledger, what);

      List<Note> bySerial = new ArrayList<>();
      for (String serial : distinct(all, Note::serial)) {
        bySerial.addAll(pages(p -> service.history(serial, p, false)));
      }
      Set<String> serials =
          checkListing("serial histories", bySerial, n -> true, all, ledger, what);

      List<Note> byBatch = new ArrayList<>();
      for (String batch : distinct(all, Note::batch)) {
        byBatch.addAll(pages(p -> service.batch(batch, p)));
      }
      Set<String> batches = checkListing("batch listings", byBatch, n -> true, all, ledger, what);

      List<Note> suspects = new ArrayList<>();
      for (String branch : distinct(all, Note::branch)) {
        suspects.addAll(pages(p -> service.suspects(branch, DAY, p)));
      }
      checkListing(
          "suspect listings", suspects, n -> n.verdict() == Verdict.SUSPECT, all, ledger, what);

      // The totals: the three complete listings agree, and hold the acknowledged notes (plus any
      // failed upload's notes that were stored after all, none when no upload failed).
      Set<String> storedAfterFailure = new TreeSet<>(devices);
      storedAfterFailure.removeAll(ledger.acknowledged.keySet());
      assertThat(byDevice.size())
          .as("notes in the device listings\n" + what)
          .isEqualTo(ledger.acknowledged.size() + storedAfterFailure.size());
      assertThat(differences(serials, devices))
          .as("notes in only one of the serial histories and the device listings\n" + what)
          .isEmpty();
      assertThat(differences(batches, devices))
          .as("notes in only one of the batch listings and the device listings\n" + what)
          .isEmpty();
    }
  }

  /**
   * One delivery: a fresh file, or (every third step, or when none is left) a file already
   * acknowledged again, as after a lost acknowledgement. A failed upload puts a fresh file back to
   * be delivered again from its start, as a restarted agent without progress would.
   */
  private static void deliverStep(
      BanknoteService service, Ledger ledger, SplittableRandom random, long iteration)
      throws InterruptedException {
    DeviceFile file = null;
    boolean resend = iteration % 3 == 2 && !ledger.delivered.isEmpty();
    if (!resend) {
      file = ledger.fresh.poll();
    }
    if (file == null) {
      if (ledger.delivered.isEmpty()) {
        Thread.sleep(20); // every file is on its way with another worker
        return;
      }
      file = ledger.delivered.get(random.nextInt(ledger.delivered.size()));
      resend = true;
    }
    try {
      for (int first = 0; first < file.notes.size(); first += PIECE) {
        upload(service, file, first, Math.min(PIECE, file.notes.size() - first), ledger);
      }
    } catch (RuntimeException e) {
      if (!resend) {
        ledger.fresh.add(file);
      }
      throw e;
    }
    if (resend) {
      ledger.resent.merge(file.name, 1, Integer::sum);
    } else {
      ledger.delivered.add(file);
    }
  }

  /** One upload through the collector's entry (the service method its route calls). */
  private static void upload(
      BanknoteService service, DeviceFile file, int first, int count, Ledger ledger) {
    List<Note> notes = file.notes.subList(first, first + count);
    int stored;
    try {
      if (file.fsn == null) {
        stored = service.store(notes); // POST /api/banknotes/batches
      } else {
        BanknoteService.PieceResult r =
            service.storeFsn( // POST /api/banknotes/fsn
                file.name, first, FsnFile.chunk(file.fsn, first, count), FileContext.none());
        if (!r.rejected().isEmpty()) {
          ledger.unexpectedAnswers.add(file.name + "@" + first + " rejected " + r.rejected());
        }
        stored = r.stored();
      }
    } catch (RuntimeException e) {
      notes.forEach(n -> ledger.inDoubt.put(identity(n), n.withoutImage()));
      throw e;
    }
    if (stored != count) {
      ledger.unexpectedAnswers.add(file.name + "@" + first + " stored " + stored + "/" + count);
    }
    notes.forEach(n -> ledger.acknowledged.put(identity(n), n.withoutImage()));
  }

  /**
   * A listing against the ledger: no note twice, none that was never sent or differs from what was
   * sent, every acknowledged note it should hold there, nothing else but notes of failed uploads
   * stored after all. Returns the identities listed.
   */
  private static Set<String> checkListing(
      String listing,
      List<Note> found,
      Predicate<Note> belongs,
      Map<String, Note> all,
      Ledger ledger,
      String what) {
    Map<String, Integer> times = new TreeMap<>();
    List<Note> strangers = new ArrayList<>();
    for (Note n : found) {
      String id = identity(n);
      times.merge(id, 1, Integer::sum);
      if (!n.equals(all.get(id))) {
        strangers.add(n);
      }
    }
    Map<String, Integer> twice = new TreeMap<>(times);
    twice.values().removeIf(t -> t == 1);
    assertThat(twice).as("notes listed more than once in the %s\n%s", listing, what).isEmpty();
    assertThat(strangers)
        .as("notes in the %s never sent, or not as sent\n%s", listing, what)
        .isEmpty();
    Set<String> expected = new TreeSet<>();
    ledger.acknowledged.forEach(
        (id, n) -> {
          if (belongs.test(n)) {
            expected.add(id);
          }
        });
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(times.keySet());
    assertThat(missing).as("acknowledged notes missing from the %s\n%s", listing, what).isEmpty();
    Set<String> neverAcknowledged = new TreeSet<>(times.keySet());
    neverAcknowledged.removeAll(expected);
    neverAcknowledged.removeAll(ledger.inDoubt.keySet());
    assertThat(neverAcknowledged)
        .as("notes in the %s neither acknowledged nor of a failed upload\n%s", listing, what)
        .isEmpty();
    return times.keySet();
  }

  /** A record's identity: device, file and record number, which make its rows. */
  private static String identity(Note n) {
    return n.device() + '|' + n.source() + '|' + n.record();
  }

  /** What is in one of {@code a} and {@code b} but not in the other. */
  private static Set<String> differences(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.addAll(b);
    Set<String> both = new TreeSet<>(a);
    both.retainAll(b);
    out.removeAll(both);
    return out;
  }

  private static Set<String> distinct(Map<String, Note> notes, Function<Note, String> key) {
    Set<String> out = new LinkedHashSet<>();
    notes.values().forEach(n -> out.add(key.apply(n)));
    return out;
  }

  /** Every page of a listing, following the cursors. */
  private static List<Note> pages(Function<PageRequest, Page<Note>> listing) {
    List<Note> out = new ArrayList<>();
    PageRequest page = PageRequest.first(PageRequest.MAX_LIMIT);
    while (true) {
      Page<Note> p = listing.apply(page);
      out.addAll(p.items());
      if (p.next().isEmpty()) {
        return out;
      }
      page = new PageRequest(PageRequest.MAX_LIMIT, p.next());
    }
  }
}
