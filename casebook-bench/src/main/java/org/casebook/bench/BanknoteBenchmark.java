package org.casebook.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.SerialKeys;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.banknote.http.BanknoteRoutes;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import picocli.CommandLine.Option;

/**
 * {@code bench banknote}: simulated devices write FSN and JSON-lines files into their spool
 * directories; one agent per device delivers them through HTTP to the collector (in this JVM, on
 * the same HBase); notes per second against {@code bench raw}'s BufferedMutator writing the same
 * number of rows, each as large as the mean stored notes row (key and value), in the same run —
 * reported per note (the target) and per row (two rows a note). While the agents run, probe
 * files measure the delay from a file landing in a spool to its notes answering a lookup. Then the
 * tables are filled to {@code --rows} notes through the bulk writer, flushed, and serial lookups
 * and device-window queries are timed. The write spread of serial-first and reversed keys over the
 * notes table's regions is computed for the delivered notes, per agent batch and overall.
 */
final class BanknoteBenchmark {
  static final String NAMESPACE = "casebook_bench_banknote";
  private static final ZoneId ZONE = FileContext.DEFAULT_ZONE;
  private static final LocalDate DAY = LocalDate.of(2030, 6, 3);

  /** The collector's HTTP workers: {@code serve}'s default. */
  private static final int HTTP_THREADS = 16;

  /** Sizes; the defaults are the (1,000 devices, 10M rows), about 10 minutes here. */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--devices",
        defaultValue = "1000",
        description = "Simulated devices, one agent each (default ${DEFAULT-VALUE}).")
    int devices;

    @Option(
        paramLabel = "N",
        names = "--notes-per-device",
        defaultValue = "300",
        description =
            "Notes each device's files hold for the agent run (default ${DEFAULT-VALUE}).")
    int notesPerDevice;

    @Option(
        paramLabel = "N",
        names = "--rows",
        defaultValue = "10000000",
        description =
            "Notes in the tables when queries are timed (default ${DEFAULT-VALUE}); more for a"
                + " larger run, fewer (e.g. 500000) while developing.")
    long rows;

    @Option(
        paramLabel = "N",
        names = "--agent-threads",
        defaultValue = "32",
        description = "Threads the agents share (default ${DEFAULT-VALUE}).")
    int agentThreads;

    @Option(
        paramLabel = "N",
        names = "--batch-size",
        defaultValue = "500",
        description = "Notes per agent batch (default ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(
        paramLabel = "N",
        names = "--samples",
        defaultValue = "5000",
        description = "Timed lookups and window queries each (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(
        paramLabel = "N",
        names = "--rounds",
        defaultValue = "3",
        description =
            "Rounds of a raw write then the devices' files through the agents, alternating after"
                + " the warm-up; medians compared (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--images", description = "Files carry serial images (1,644-byte records).")
    boolean images;

    @Option(names = "--keep", description = "Keep the benchmark's tables afterwards.")
    boolean keep;

    @Option(
        paramLabel = "DIR",
        names = "--work",
        defaultValue = "bench-work/banknote",
        description = "Scratch directory for the spools (default ${DEFAULT-VALUE}).")
    Path work;

    void validate() {
      InvalidInputException.check(devices >= 1, "devices", "--devices must be at least 1");
      InvalidInputException.check(
          notesPerDevice >= 10, "notes-per-device", "--notes-per-device must be at least 10");
      InvalidInputException.check(rows >= 10_000, "rows", "--rows must be at least 10000");
      InvalidInputException.check(
          agentThreads >= 1 && agentThreads <= 512, "agent-threads", "--agent-threads is 1..512");
      InvalidInputException.check(samples >= 100, "samples", "--samples must be at least 100");
      InvalidInputException.check(rounds >= 1 && rounds <= 9, "rounds", "--rounds is 1..9");
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("devices", devices);
      m.put("notesPerDevice", notesPerDevice);
      m.put("rows", rows);
      m.put("agentThreads", agentThreads);
      m.put("batchSize", batchSize);
      m.put("samples", samples);
      m.put("rounds", rounds);
      m.put("images", images);
      return m;
    }
  }

  private final SystemContext context;
  private final Options o;
  private final HttpClient http = SpoolAgent.httpClient();

  BanknoteBenchmark(SystemContext context, Options options) {
    this.context = context;
    this.o = options;
    options.validate();
  }

  /** What the generation step produced, and the write spread of its notes under both keys. */
  private static final class Generated {
    long files;
    long notes;
    long bytes;
    long rowBytes;
    final Spread serialFirst = new Spread("serial-first (serial | MAX-time | origin | record)");
    final Spread reversed = new Spread("reversed (reversed serial | MAX-time | origin | record)");
    final List<String> serials = new ArrayList<>();

    /** Notes the warm-up and the rounds delivered: in the tables before the preload. */
    long storedNotes;
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
    Path spools = o.work.resolve("spool");
    deleteTree(o.work);
    long t0 = System.nanoTime();
    BanknoteGenerator gen = deviceFiles(o.devices, 7, DAY);
    Generated g = generate(gen, spools);
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

    SchemaManager schemas = new SchemaManager(context.connection());
    List<TableSpec> specs = BanknoteService.schemas(NAMESPACE);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    BanknoteService service = new BanknoteService(context, NAMESPACE, ZONE);
    HttpApiServer server =
        new HttpApiServer("127.0.0.1", 0, AccessRule.open(), HTTP_THREADS, context.metrics());
    try {
      BanknoteRoutes.ROUTES.bind(service).forEach(server::add);
      server.start();
      URI base = URI.create("http://127.0.0.1:" + server.port());
      long w0 = System.nanoTime();
      long warmDelivered = drain(agents(warmGen, warmSpools, base), "warm-up agents", warmNotes)[0];
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
      // Raw writes and ingest rounds alternate, and their medians are compared: on 2 cores either
      // moves by a fifth from run to run. Each round's files are new notes (another day), so every
      // round writes new rows; the first round's files are the ones described above.
      List<Double> rawRates = new ArrayList<>();
      List<Ingest> rounds = new ArrayList<>();
      for (int round = 1; round <= o.rounds; round++) {
        double rate =
            RawBenchmark.writeRate(context.connection(), ro.rows, ro.valueBytes, ro.cells);
        rawRates.add(rate);
        Ingest in;
        if (round == 1) {
          in = agents(gen, spools, base, g.notes, true);
        } else {
          BanknoteGenerator roundGen = deviceFiles(o.devices, 7 + round, DAY.minusDays(round + 1));
          Path roundSpools = o.work.resolve("spool-" + round);
          in = agents(roundGen, roundSpools, base, write(roundGen, roundSpools), false);
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
      Ingest medianRound =
          rounds.stream()
              .sorted(java.util.Comparator.comparingDouble(Ingest::notesPerSecond))
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
                  ", ",
                  rawRates.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).toList()),
              ro.valueBytes + rawKey));
      Probe probe = rounds.get(0).probe();
      table.add(
          "delay: file in spool -> lookup finds it",
          probe.latency.count(),
          "files",
          0,
          probe.latency,
          "probe files of 20 notes while the first round's agents run");
      Map<String, Object> ingest = new LinkedHashMap<>();
      ingest.put("rounds", rounds.stream().map(Ingest::toJson).toList());
      ingest.put("rawRowsPerSecond", rawRates);
      ingest.put("warmUpNotes", warmDelivered);
      ingest.put("delay", probe.latency.toJson());
      json.put("ingest", ingest);
      try (Admin admin = context.connection().getAdmin()) {
        HotspotReport.Result live =
            HotspotReport.fromLiveTable(admin, TableName.valueOf(NAMESPACE, "notes"));
        json.put("hotspot", hotspot(g, live));
      }
      preload(service, g, table);
      try (Admin admin = context.connection().getAdmin()) {
        long f0 = System.nanoTime();
        for (TableSpec s : specs) {
          admin.flush(s.name());
        }
        table.add(
            "flush memstores to HFiles",
            specs.size(),
            "tables",
            (System.nanoTime() - f0) / 1e9,
            null,
            "");
      }
      queries(service, base, g, table);
    } finally {
      server.close();
      if (!o.keep) {
        specs.forEach(s -> schemas.drop(s.name()));
      }
    }
    System.out.println(table.render());
    System.out.println(comparisons(table, json));
    System.out.println(raw.table().render());
    json.put("table", table.toJson());
    return json;
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

  private Generated generate(BanknoteGenerator gen, Path spools) {
    Generated g = new Generated();
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
              g.rowBytes += SerialKeys.noteRowBytes(n);
            }
            for (int i = 0; i < notes.size(); i += o.batchSize) {
              List<Note> batch = notes.subList(i, Math.min(notes.size(), i + o.batchSize));
              boolean sorter = f.device().kind() == DeviceKind.SORTER;
              g.serialFirst.batch(batch.stream().map(Spread::serialFirstKey).toList(), sorter);
              g.reversed.batch(batch.stream().map(Spread::reversedKey).toList(), sorter);
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

  /** Every device's agent drains its spool; probes measure file-to-lookup delay meanwhile. */
  /** One round through the agents: notes, seconds, retries, quarantined files, the probe. */
  private record Ingest(
      long delivered, double seconds, long retries, long quarantined, Probe probe) {
    double notesPerSecond() {
      return delivered / seconds;
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("notes", delivered);
      m.put("seconds", seconds);
      m.put("notesPerSecond", notesPerSecond());
      m.put("retries", retries);
      m.put("quarantinedFiles", quarantined);
      return m;
    }
  }

  /**
   * Every device's agent drains its spool, timed; with {@code probing}, a probe measures
   * file-to-lookup delay meanwhile.
   */
  private Ingest agents(BanknoteGenerator gen, Path spools, URI base, long notes, boolean probing)
      throws Exception {
    Probe probe = new Probe(spools.resolve("probe"), base);
    Thread probes = new Thread(probe::run, "bench-probe");
    probes.setDaemon(true);
    long t0 = System.nanoTime();
    if (probing) {
      probes.start();
    }
    long[] counts;
    try {
      counts = drain(agents(gen, spools, base), "agents", notes);
    } finally {
      probe.stop();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    if (probing) {
      probes.join(60_000);
    }
    if (counts[0] != notes) {
      throw new IllegalStateException(
          "agents delivered " + counts[0] + " notes, the files hold " + notes);
    }
    return new Ingest(counts[0], secs, counts[1], counts[2], probe);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** One agent per generated device, each on its own spool directory. */
  private List<SpoolAgent> agents(BanknoteGenerator gen, Path spools, URI base) {
    List<SpoolAgent> agents = new ArrayList<>();
    for (BanknoteGenerator.Device d : gen.devices()) {
      agents.add(
          new SpoolAgent(
              SpoolAgent.Settings.of(spools.resolve(d.dir()), base, FileContext.none())
                  .withBatchSize(o.batchSize)
                  .withTimings(
                      Duration.ofMillis(100),
                      Duration.ZERO,
                      Duration.ofMillis(100),
                      Duration.ofSeconds(5)),
              http));
    }
    return agents;
  }

  /**
   * Drains every agent's spool on the agent threads: notes delivered, retries, quarantined files.
   */
  private long[] drain(List<SpoolAgent> agents, String label, long notes) throws Exception {
    AtomicLong delivered = new AtomicLong();
    AtomicLong quarantined = new AtomicLong();
    AtomicLong retries = new AtomicLong();
    ExecutorService pool =
        Executors.newFixedThreadPool(o.agentThreads, Threads.daemon("bench-agent"));
    try (Progress p = Progress.start(label, notes, "notes")) {
      List<Future<?>> futures = new ArrayList<>();
      for (SpoolAgent a : agents) {
        futures.add(
            pool.submit(
                () ->
                    a.drain(
                        r -> {
                          delivered.addAndGet(r.delivered());
                          retries.addAndGet(r.retries());
                          quarantined.addAndGet(r.quarantined() == null ? 0 : 1);
                          p.advance(r.delivered());
                        })));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return new long[] {delivered.get(), retries.get(), quarantined.get()};
  }

  /**
   * A device of its own whose agent watches its spool all along: a 20-note file dropped in, then
   * lookups of its last serial until the note is there.
   */
  private final class Probe {
    final Latency latency = new Latency();
    private final Path spool;
    private final URI base;
    private volatile boolean stopping;

    Probe(Path spool, URI base) {
      this.spool = spool;
      this.base = base;
    }

    void stop() {
      stopping = true;
    }

    void run() {
      BanknoteGenerator gen =
          new BanknoteGenerator(new BanknoteGenerator.Spec(1, 1, 20, 0, 0, false, 99, DAY, ZONE));
      BanknoteGenerator.Device device =
          new BanknoteGenerator.Device("PROBE/SORTER-1", DeviceKind.SORTER, "9999-001", "probe");
      try {
        Files.createDirectories(spool);
        SpoolAgent agent =
            new SpoolAgent(
                SpoolAgent.Settings.of(spool, base, FileContext.none())
                    .withTimings(
                        Duration.ofMillis(50),
                        Duration.ZERO,
                        Duration.ofMillis(50),
                        Duration.ofSeconds(1)),
                http);
        Thread watcher =
            new Thread(
                () -> {
                  try {
                    agent.run(r -> {});
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "bench-probe-agent");
        watcher.setDaemon(true);
        watcher.start();
        Path staging = Files.createDirectories(spool.resolveSibling("probe-staging"));
        int n = 0;
        while (!stopping || n < 20) {
          BanknoteGenerator.GeneratedFile f =
              gen.file(
                  device,
                  staging,
                  DAY.atTime(9, 0).atZone(ZONE).toInstant().plusSeconds(60L * n),
                  20);
          Note last = f.notes().get(f.notes().size() - 1);
          long s = System.nanoTime();
          Files.move(f.path(), spool.resolve(f.path().getFileName()));
          while (!found(last)) {
            Thread.sleep(5);
          }
          latency.recordNanos(System.nanoTime() - s);
          n++;
          Thread.sleep(200);
        }
        agent.stop();
        watcher.join(10_000);
      } catch (IOException e) {
        throw LocalFileException.of("write probe files in", spool, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private boolean found(Note n) throws IOException, InterruptedException {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          base
                              + "/api/banknotes/"
                              + URLEncoder.encode(n.serial(), StandardCharsets.UTF_8)
                              + "?limit=1000"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && r.body().contains("\"source\":\"" + n.source() + "\"");
    }
  }

  /** Fills the tables to {@code --rows} notes through the bulk writer (BufferedMutators). */
  private void preload(BanknoteService service, Generated g, BenchTable table) {
    long more = o.rows - g.storedNotes;
    if (more <= 0) {
      return;
    }
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(
                o.devices, 1, o.notesPerDevice, 0, 0, false, 11, DAY.plusDays(1), ZONE));
    SplittableRandom pick = new SplittableRandom(5);
    long t0 = System.nanoTime();
    try (Progress p = Progress.start("preload", more, "notes");
        BanknoteService.BulkWriter w = service.writer()) {
      gen.notes(
          more,
          1000,
          notes -> {
            w.write(notes);
            for (Note n : notes) {
              if (pick.nextInt(1000) == 0) {
                g.serials.add(n.serial());
              }
            }
            p.advance(notes.size());
          });
      w.flush();
    }
    table.add(
        "bulk writer to --rows (4 tables)",
        more,
        "notes",
        (System.nanoTime() - t0) / 1e9,
        null,
        "BufferedMutators, no HTTP");
  }

  private void queries(BanknoteService service, URI base, Generated g, BenchTable table)
      throws Exception {
    SplittableRandom r = new SplittableRandom(17);
    List<String> serials = g.serials;
    for (int i = 0; i < 500; i++) {
      service.history(serials.get(r.nextInt(serials.size())), PageRequest.first(100), false);
    }
    Latency lookup = new Latency();
    long found = 0;
    for (int i = 0; i < o.samples; i++) {
      String s = serials.get(r.nextInt(serials.size()));
      long t = System.nanoTime();
      found += service.history(s, PageRequest.first(100), false).items().size();
      lookup.recordNanos(System.nanoTime() - t);
    }
    table.add(
        "serial lookup (history, first 100)",
        lookup.count(),
        "reads",
        0,
        lookup,
        String.format(
            Locale.ROOT, "%.2f notes a serial; one bounded scan", (double) found / o.samples));
    Latency viaHttp = new Latency();
    for (int i = 0; i < Math.max(100, o.samples / 5); i++) {
      String s = serials.get(r.nextInt(serials.size()));
      long t = System.nanoTime();
      HttpResponse<String> resp =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/banknotes/" + s)).build(),
              HttpResponse.BodyHandlers.ofString());
      viaHttp.recordNanos(System.nanoTime() - t);
      if (resp.statusCode() != 200) {
        throw new IllegalStateException(
            "lookup answered " + resp.statusCode() + ": " + resp.body());
      }
    }
    table.add("serial lookup over HTTP (GET)", viaHttp.count(), "reads", 0, viaHttp, "JSON answer");

    BanknoteGenerator devices =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(o.devices, 1, 1, 0, 0, false, 7, DAY, ZONE));
    List<BanknoteGenerator.Device> list = devices.devices();
    Latency window = new Latency();
    long rows = 0;
    for (int i = 0; i < 300 + o.samples; i++) {
      BanknoteGenerator.Device d = list.get(r.nextInt(list.size()));
      LocalDate day =
          r.nextBoolean()
              ? DAY
              : DAY.plusDays(
                  1
                      + r.nextInt(
                          Math.max(1, (int) (o.rows / Math.max(1, (long) o.devices * 1000)))));
      Instant from = day.atTime(8 + r.nextInt(11), 0).atZone(ZONE).toInstant();
      long t = System.nanoTime();
      int n =
          service
              .device(d.id(), from, from.plusSeconds(3600), PageRequest.first(100))
              .items()
              .size();
      if (i >= 300) {
        window.recordNanos(System.nanoTime() - t);
        rows += n;
      }
    }
    table.add(
        "device window (1 hour, first 100)",
        window.count(),
        "reads",
        0,
        window,
        String.format(Locale.ROOT, "%.1f notes a window", (double) rows / o.samples));
  }

  private Map<String, Object> hotspot(Generated g, HotspotReport.Result live) {
    List<HotspotReport.Result> results =
        List.of(
            g.serialFirst.total(),
            g.reversed.total(),
            new HotspotReport.Result(
                "reversed, measured: region write counters of the notes table",
                live.regions(),
                live.writes(),
                live.shares()));
    System.out.println();
    System.out.println("Write spread of the delivered notes over the notes table's 11 regions:");
    System.out.print(HotspotReport.render(results));
    String perBatch =
        String.format(
            Locale.ROOT,
            "a sorter's agent batch (up to %d notes): serial-first keys touch %.1f regions on average,"
                + " the busiest taking %.0f%% of the batch, and %.0f%% of batches go to a single"
                + " region; reversed keys touch %.1f regions, the busiest taking %.0f%%, %.0f%% single",
            o.batchSize,
            g.serialFirst.meanRegions(),
            g.serialFirst.meanMaxShare() * 100,
            g.serialFirst.singleRegionShare() * 100,
            g.reversed.meanRegions(),
            g.reversed.meanMaxShare() * 100,
            g.reversed.singleRegionShare() * 100);
    System.out.println(perBatch);
    Map<String, Object> m = new LinkedHashMap<>();
    for (HotspotReport.Result r : results) {
      m.put(
          r.design(),
          Map.of(
              "maxShare", r.maxShare(),
              "skew", r.skew(),
              "shares", r.shares().stream().map(HotspotReport.RegionShare::share).toList()));
    }
    m.put("sorterBatchesSerialFirstRegions", g.serialFirst.meanRegions());
    m.put("sorterBatchesSerialFirstMaxShare", g.serialFirst.meanMaxShare());
    m.put("sorterBatchesReversedRegions", g.reversed.meanRegions());
    m.put("sorterBatchesReversedMaxShare", g.reversed.meanMaxShare());
    m.put("sorterBatchesSerialFirstSingleRegion", g.serialFirst.singleRegionShare());
    m.put("sorterBatchesReversedSingleRegion", g.reversed.singleRegionShare());
    return m;
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

  /** Where one key design sends writes: per agent batch and in total. */
  private static final class Spread {
    private static final org.casebook.core.schema.SplitPoints REVERSED_SPLITS =
        SerialKeys.noteSplits();
    private final String design;
    private final List<byte[]> sample = new ArrayList<>();
    private org.casebook.core.schema.SplitPoints splits;
    private long[] counts;
    private long batches;
    private double regionsSum;
    private double maxShareSum;
    private long singleRegion;
    private final List<Integer> sampleSorter = new ArrayList<>();

    Spread(String design) {
      this.design = design;
    }

    static byte[] serialFirstKey(Note n) {
      return SerialKeys.serialFirst(n);
    }

    static byte[] reversedKey(Note n) {
      return SerialKeys.reversed(n);
    }

    /**
     * Serial-first tables are split where the serials lie (quantiles of the first 20,000 keys, as
     * HBase's own splitting would end up); reversed ones on the notes table's split points.
     */
    void batch(List<byte[]> keys, boolean sorter) {
      if (splits == null) {
        if (design.startsWith("reversed")) {
          splits = REVERSED_SPLITS;
        } else {
          sample.addAll(keys);
          sampleSorter.add(sorter ? keys.size() : -keys.size());
          if (sample.size() < 20_000) {
            return;
          }
          splits = org.casebook.core.schema.SplitPoints.quantiles(sample, 11);
          List<byte[]> pending = new ArrayList<>(sample);
          sample.clear();
          counts = new long[splits.regionCount()];
          int at = 0;
          for (int size : sampleSorter) {
            int n = Math.abs(size);
            batch(pending.subList(at, at + n), size > 0);
            at += n;
          }
          sampleSorter.clear();
          return;
        }
        counts = new long[splits.regionCount()];
      }
      HotspotReport.Result r = HotspotReport.analyse(design, splits, keys);
      for (HotspotReport.RegionShare s : r.shares()) {
        counts[s.region()] += s.writes();
      }
      if (sorter) {
        batches++;
        long used = r.shares().stream().filter(s -> s.writes() > 0).count();
        regionsSum += used;
        singleRegion += used == 1 ? 1 : 0;
        maxShareSum += r.maxShare();
      }
    }

    double meanRegions() {
      return batches == 0 ? 0 : regionsSum / batches;
    }

    /** Share of sorter batches whose every key fell in one region. */
    double singleRegionShare() {
      return batches == 0 ? 0 : (double) singleRegion / batches;
    }

    double meanMaxShare() {
      return batches == 0 ? 0 : maxShareSum / batches;
    }

    HotspotReport.Result total() {
      long sum = 0;
      for (long c : counts) {
        sum += c;
      }
      List<HotspotReport.RegionShare> shares = new ArrayList<>();
      List<byte[]> points = splits.points();
      for (int i = 0; i < counts.length; i++) {
        shares.add(
            new HotspotReport.RegionShare(
                i,
                i == 0 ? "" : org.apache.hadoop.hbase.util.Bytes.toStringBinary(points.get(i - 1)),
                counts[i],
                sum == 0 ? 0 : (double) counts[i] / sum));
      }
      return new HotspotReport.Result(design, counts.length, sum, shares);
    }
  }
}
