package org.casebook.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.CasebookSystem;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.server.Session;

/**
 * {@code bench banknote}: simulated devices write FSN and JSON-lines files into their spool
 * directories; one agent per device delivers them through HTTP to the collector (the banknote
 * system served in this JVM as {@code serve} serves it, on tables of its own namespace); notes per
 * second against {@code bench raw}'s BufferedMutator writing the same number of rows, each as large
 * as the mean stored notes row (key and value), in the same run — reported per note (the issue's
 * target) and per row (two rows a note). While the agents run, probe files measure the delay from a
 * file landing in a spool to its notes answering a lookup. Then the tables are filled to {@code
 * --rows} notes through the bulk writer, flushed, and serial lookups and device-window queries are
 * timed. The write spread of serial-first and reversed keys over the notes table's regions is
 * computed for the delivered notes, per agent batch and overall.
 */
final class BanknoteBenchmark {
  static final String NAMESPACE = "casebook_bench_banknote";
  private static final ZoneId ZONE = FileContext.DEFAULT_ZONE;
  private static final LocalDate DAY = LocalDate.of(2030, 6, 3);

  /** The collector's HTTP workers: {@code serve}'s default. */
  private static final int HTTP_THREADS = 16;

  private final Session session;
  private final BanknoteOptions o;
  private final SystemContext context;
  private final HttpClient http = SpoolAgent.httpClient();

  BanknoteBenchmark(Session session, BanknoteOptions options) {
    this.session = session;
    this.o = options;
    options.validate();
    this.context = session.context("bench");
  }

  /** What the generation step produced, and the write spread of its notes under both keys. */
  private static final class Generated {
    long files;
    long notes;
    long bytes;
    long rowBytes;
    final BanknoteWriteSpread spread;
    final List<String> serials = new ArrayList<>();

    /** Notes the warm-up and the rounds delivered: in the tables before the preload. */
    long storedNotes;

    Generated(BanknoteWriteSpread spread) {
      this.spread = spread;
    }
  }

  Map<String, Object> run() throws Exception {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("options", o.toJson());
    BenchTable table =
        new BenchTable(
            String.format(
                Locale.ROOT,
                "bench banknote: %,d devices x %,d notes through agents, queries at %,d rows",
                o.devices,
                o.notesPerDevice,
                o.rows));
    CasebookSystem banknote = session.system("banknote");
    BanknoteRows rows = BanknoteRows.of(banknote.descriptor());
    Path spools = o.work.resolve("spool");
    deleteTree(o.work);
    long t0 = System.nanoTime();
    BanknoteGenerator gen = deviceFiles(o.devices, 7, DAY);
    Generated g = generate(gen, spools, rows);
    double recordBytes = (double) g.bytes / g.notes;
    double rowBytes = (double) g.rowBytes / g.notes;
    table.add(
        "generate device files (FSN, JSON lines)",
        g.notes,
        "notes",
        (System.nanoTime() - t0) / 1e9,
        null,
        String.format(
            Locale.ROOT,
            "%,d files, %,d MB, %.0f B a record in the files, %.0f B a stored notes row",
            g.files,
            g.bytes >> 20,
            recordBytes,
            rowBytes));

    // A tenth of the devices, a day earlier (other rows), drained before the timed run: the raw
    // ceiling warms up too, and a cold JIT on 2 cores halves a first run's rate.
    BanknoteGenerator warmGen = deviceFiles(Math.max(10, o.devices / 10), 9, DAY.minusDays(1));
    Path warmSpools = o.work.resolve("warm-up");
    long warmNotes = write(warmGen, warmSpools);

    RawBenchmark.Options ro = RawBenchmark.Options.defaults();
    ro.rows = (int) Math.max(1000, g.notes);
    // Like with like: a raw row (its key and value) as large as a stored notes row (key and value).
    int rawKey = RawBenchmark.row(0).length;
    ro.valueBytes = (int) Math.max(1, Math.round(rowBytes) - rawKey);
    ro.gets = 2000;
    ro.batches = 50;
    RawBenchmark.Figures raw = new RawBenchmark(context.connection(), ro).run();
    json.put("raw", raw.table().toJson());

    // The session creates the tables of the benchmark's own namespace when it serves the system:
    // dropped first, they start empty.
    SchemaManager schemas = new SchemaManager(context.connection());
    schemas.dropNamespace(NAMESPACE);
    Session.Served served =
        session.serve(
            List.of(banknote),
            HTTP_THREADS,
            Map.of("banknote.namespace", NAMESPACE, "banknote.zone", ZONE.getId()));
    try {
      SystemContext banknoteContext = session.context(banknote);
      BanknoteService service = new BanknoteService(banknoteContext);
      List<TableName> tables =
          banknote.tables(banknoteContext.settings()).stream().map(TableSpec::name).toList();
      URI base = URI.create("http://127.0.0.1:" + served.port());
      BanknoteAgentRounds agents =
          new BanknoteAgentRounds(base, http, o.agentThreads, o.batchSize, DAY, ZONE);
      long w0 = System.nanoTime();
      long warmDelivered = agents.drain(warmGen, warmSpools, "warm-up agents", warmNotes)[0];
      if (warmDelivered != warmNotes) {
        throw new IllegalStateException(
            "warm-up agents delivered " + warmDelivered + " notes, the files hold " + warmNotes);
      }
      System.out.printf(
          Locale.ROOT,
          "warm-up (not counted): %,d notes through agents in %.1f s%n",
          warmDelivered,
          (System.nanoTime() - w0) / 1e9);
      g.storedNotes = warmDelivered;
      json.put("ingest", ingest(agents, gen, spools, g, ro, rawKey, warmDelivered, table));
      try (Admin admin = context.connection().getAdmin()) {
        HotspotReport.Result live = HotspotReport.fromLiveTable(admin, rows.table(NAMESPACE));
        json.put("hotspot", g.spread.report(live));
      }
      BanknoteQueries queries = new BanknoteQueries(service, base, http, o, DAY, ZONE);
      queries.preload(g.storedNotes, g.serials, table);
      try (Admin admin = context.connection().getAdmin()) {
        long f0 = System.nanoTime();
        for (TableName t : tables) {
          admin.flush(t);
        }
        table.add(
            "flush memstores to HFiles",
            tables.size(),
            "tables",
            (System.nanoTime() - f0) / 1e9,
            null,
            "");
      }
      queries.run(g.serials, table);
    } finally {
      served.close();
      if (!o.keep) {
        schemas.dropNamespace(NAMESPACE);
      }
    }
    System.out.println(table.render());
    System.out.println(comparisons(table, json));
    System.out.println(raw.table().render());
    json.put("table", table.toJson());
    return json;
  }

  /**
   * Raw writes and ingest rounds alternate, and their medians are compared: on 2 cores either moves
   * by a fifth from run to run. Each round's files are new notes (another day), so every round
   * writes new rows; the first round's files are {@code gen}'s, written to {@code spools}.
   */
  private Map<String, Object> ingest(
      BanknoteAgentRounds agents,
      BanknoteGenerator gen,
      Path spools,
      Generated g,
      RawBenchmark.Options ro,
      int rawKey,
      long warmDelivered,
      BenchTable table)
      throws Exception {
    List<Double> rawRates = new ArrayList<>();
    List<BanknoteAgentRounds.Ingest> rounds = new ArrayList<>();
    for (int round = 1; round <= o.rounds; round++) {
      double rate = RawBenchmark.writeRate(context.connection(), ro.rows, ro.valueBytes, ro.cells);
      rawRates.add(rate);
      BanknoteAgentRounds.Ingest in;
      if (round == 1) {
        in = agents.round(gen, spools, g.notes, true);
      } else {
        BanknoteGenerator roundGen = deviceFiles(o.devices, 7 + round, DAY.minusDays(round + 1));
        Path roundSpools = o.work.resolve("spool-" + round);
        in = agents.round(roundGen, roundSpools, write(roundGen, roundSpools), false);
      }
      g.storedNotes += in.delivered();
      rounds.add(in);
      System.out.printf(
          Locale.ROOT,
          "round %d: raw write %,.0f rows/s; agents %,.0f notes/s (%.2fx per note)%n",
          round,
          rate,
          in.notesPerSecond(),
          in.notesPerSecond() / rate);
    }
    double rawMedian = median(rawRates);
    BanknoteAgentRounds.Ingest medianRound =
        rounds.stream()
            .sorted(Comparator.comparingDouble(BanknoteAgentRounds.Ingest::notesPerSecond))
            .toList()
            .get((rounds.size() - 1) / 2);
    table.add(
        "agents -> HTTP collector -> HBase",
        medianRound.delivered(),
        "notes",
        medianRound.seconds(),
        null,
        String.format(
            Locale.ROOT,
            "median of %d rounds (%s notes/s); %d agents on %d threads, %d quarantined files, %d"
                + " retries",
            rounds.size(),
            String.join(
                ", ",
                rounds.stream()
                    .map(r -> String.format(Locale.ROOT, "%,.0f", r.notesPerSecond()))
                    .toList()),
            gen.devices().size(),
            o.agentThreads,
            medianRound.quarantined(),
            medianRound.retries()));
    table.add(
        "raw BufferedMutator write, alternating",
        ro.rows,
        "rows",
        ro.rows / rawMedian,
        null,
        String.format(
            Locale.ROOT,
            "median of %d rounds (%s rows/s), rows of %d B",
            rawRates.size(),
            String.join(
                ", ", rawRates.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).toList()),
            ro.valueBytes + rawKey));
    BanknoteProbe probe = rounds.get(0).probe();
    table.add(
        "delay: file in spool -> lookup finds it",
        probe.latency.count(),
        "files",
        0,
        probe.latency,
        "probe files of 20 notes while the first round's agents run");
    Map<String, Object> ingest = new LinkedHashMap<>();
    ingest.put("rounds", rounds.stream().map(BanknoteAgentRounds.Ingest::toJson).toList());
    ingest.put("rawRowsPerSecond", rawRates);
    ingest.put("warmUpNotes", warmDelivered);
    ingest.put("delay", probe.latency.toJson());
    return ingest;
  }

  /**
   * The device files of one day: {@code devices} devices' notes, 1 % damaged files and 0.1 % broken
   * records, images as asked; another seed and day give other notes (other rows).
   */
  private BanknoteGenerator deviceFiles(int devices, long seed, LocalDate day) {
    return new BanknoteGenerator(
        new BanknoteGenerator.Spec(
            devices, 1, o.notesPerDevice, 0.01, 0.001, o.images, seed, day, ZONE));
  }

  /** Writes the generator's files under {@code spools}: the notes they hold. */
  private static long write(BanknoteGenerator gen, Path spools) {
    long[] notes = {0};
    gen.write(spools, f -> notes[0] += f.notes().size());
    return notes[0];
  }

  private Generated generate(BanknoteGenerator gen, Path spools, BanknoteRows rows) {
    Generated g = new Generated(new BanknoteWriteSpread(rows, o.batchSize));
    SplittableRandom pick = new SplittableRandom(3);
    try (Progress p = Progress.start("generate", (long) o.devices * o.notesPerDevice, "notes")) {
      gen.write(
          spools,
          f -> {
            g.files++;
            try {
              g.bytes += Files.size(f.path());
            } catch (IOException e) {
              throw LocalFileException.of("read", f.path(), e);
            }
            List<Note> notes = f.notes();
            g.notes += notes.size();
            for (Note n : notes) {
              g.rowBytes += rows.rowBytes(n);
            }
            for (int i = 0; i < notes.size(); i += o.batchSize) {
              List<Note> batch = notes.subList(i, Math.min(notes.size(), i + o.batchSize));
              g.spread.batch(batch, f.device().kind() == DeviceKind.SORTER);
            }
            for (Note n : notes) {
              if (g.serials.size() < 20_000 || pick.nextInt(50) == 0) {
                g.serials.add(n.serial());
              }
            }
            p.advance(notes.size() + f.brokenRecords());
          });
    }
    return g;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  private static String comparisons(BenchTable table, Map<String, Object> json) {
    Map<String, BenchTable.Row> rows = new LinkedHashMap<>();
    table.rows().forEach(r -> rows.put(r.step(), r));
    StringBuilder sb = new StringBuilder("comparisons:\n");
    Map<String, Object> c = new LinkedHashMap<>();
    BenchTable.Row ingest = rows.get("agents -> HTTP collector -> HBase");
    double rawRate = rows.get("raw BufferedMutator write, alternating").rate();
    double ratio = ingest.rate() / rawRate;
    sb.append(
        String.format(
            Locale.ROOT,
            "  ingest per note (the target): %,.0f notes/s through agents = %.2fx the raw"
                + " BufferedMutator rate (%,.0f rows/s, each raw row as large as a stored notes"
                + " row); target >= 0.8x%n",
            ingest.rate(),
            ratio,
            rawRate));
    c.put("ingestVsRaw", ratio);
    // Each note is two rows (notes, devices) plus a few index cells: the HBase work per note.
    sb.append(
        String.format(
            Locale.ROOT,
            "  ingest per row: %,.0f rows/s in the notes and devices tables (2 a note, suspects and"
                + " batches rows not counted) = %.2fx the raw row rate%n",
            2 * ingest.rate(),
            2 * ratio));
    c.put("ingestRowsVsRaw", 2 * ratio);
    BenchTable.Row lookup = rows.get("serial lookup (history, first 100)");
    sb.append(
        String.format(
            Locale.ROOT,
            "  serial lookup p50 %.2f / p99 %.2f ms (target p99 <= 5 ms)%n",
            lookup.latency().millis(50),
            lookup.latency().millis(99)));
    c.put("lookupP99Ms", lookup.latency().millis(99));
    BenchTable.Row window = rows.get("device window (1 hour, first 100)");
    sb.append(
        String.format(
            Locale.ROOT,
            "  device window p50 %.2f / p99 %.2f ms%n",
            window.latency().millis(50),
            window.latency().millis(99)));
    json.put("comparisons", c);
    return sb.toString();
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw LocalFileException.of("delete", dir, e);
    }
  }
}
