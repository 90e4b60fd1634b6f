package org.casebook.banknote.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.ImportReport;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.Operation;
import org.casebook.banknote.Settlement;
import org.casebook.banknote.SettlementCsv;
import org.casebook.banknote.WatchEntry;
import org.casebook.banknote.WatchHit;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.banknote.wire.SettlementJson;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.ClientCommand;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.Page;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook banknote …}. */
@Command(
    name = "banknote",
    mixinStandardHelpOptions = true,
    description = "Banknote serial numbers (seed 002): FSN collection without loss, lookup.",
    subcommands = {BranchCommand.class, ClonesCommand.class})
public final class BanknoteCommand {
  private final Supplier<SystemContext> context;

  /** What {@code generate} wrote. */
  record Generated(
      String out, int devices, long files, long notes, long damagedFiles, long brokenRecords) {}

  /** One page of a listing, as printed. */
  record Listing(List<NoteJson> notes, String next) {}

  public BanknoteCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  BanknoteService service() {
    return new BanknoteService(context.get());
  }

  /** Where a file comes from, for formats that do not say. */
  static final class ContextOptions {
    @Option(
        names = "--branch",
        paramLabel = "BRANCH",
        description =
            "Branch of files that name none (FSN 2014 not named BRANCH_OPERATION_BATCH.fsn).")
    String branch;

    @Option(
        names = "--kind",
        paramLabel = "KIND",
        description = "Device kind when the file does not say: atm, sorter, counter or teller.")
    String kind;

    @Option(
        names = "--operation",
        paramLabel = "OP",
        description =
            "Operation when the file name does not say: deposit, withdrawal, sorting, counting.")
    String operation;

    @Option(
        names = "--device",
        paramLabel = "ID",
        description = "Device id to use instead of the file's machine id.")
    String device;

    @Option(
        names = "--zone",
        paramLabel = "ZONE",
        defaultValue = "Asia/Shanghai",
        description = "Time zone of FSN's local dates and times (default ${DEFAULT-VALUE}).")
    String zone;

    FileContext context() {
      ZoneId z = zone(zone);
      return new FileContext(
          branch,
          kind == null ? null : Enums.parse(DeviceKind.class, kind, "kind"),
          operation == null ? null : Enums.parse(Operation.class, operation, "operation"),
          device,
          z);
    }
  }

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description =
          "Write device files (FSN and JSON lines), one spool directory per device, with a share"
              + " of damaged files and records.")
  int generate(
      @Option(
              names = "--out",
              paramLabel = "DIR",
              defaultValue = "banknote-spool",
              description = "Output directory (default ${DEFAULT-VALUE}).")
          Path out,
      @Option(
              names = "--devices",
              paramLabel = "N",
              defaultValue = "20",
              description =
                  "Devices: ATMs, sorters, counters, teller machines (default ${DEFAULT-VALUE}).")
          int devices,
      @Option(
              names = "--days",
              paramLabel = "D",
              defaultValue = "1",
              description = "Days of traffic, ending yesterday (default ${DEFAULT-VALUE}).")
          int days,
      @Option(
              names = "--notes-per-day",
              paramLabel = "N",
              defaultValue = "2000",
              description = "Notes each device reads a day (default ${DEFAULT-VALUE}).")
          int notesPerDay,
      @Option(
              names = "--damaged-files",
              paramLabel = "SHARE",
              defaultValue = "0.01",
              description =
                  "Share of FSN files damaged as a whole, 0..1 (default ${DEFAULT-VALUE}).")
          double damagedFiles,
      @Option(
              names = "--damaged-records",
              paramLabel = "SHARE",
              defaultValue = "0.001",
              description = "Share of records broken, 0..1 (default ${DEFAULT-VALUE}).")
          double damagedRecords,
      @Option(
              names = "--no-images",
              description = "Write FSN records without serial images (100/88-byte records).")
          boolean noImages,
      @Option(
              names = "--zone",
              paramLabel = "ZONE",
              defaultValue = "Asia/Shanghai",
              description = "The devices' time zone (default ${DEFAULT-VALUE}).")
          String zone,
      @Option(
              names = "--seed",
              paramLabel = "SEED",
              defaultValue = "1",
              description = "Random seed (default ${DEFAULT-VALUE}).")
          long seed) {
    ZoneId z = zone(zone);
    BanknoteGenerator.Spec spec =
        new BanknoteGenerator.Spec(
            devices,
            days,
            notesPerDay,
            damagedFiles,
            damagedRecords,
            !noImages,
            seed,
            LocalDate.now(z).minusDays(days),
            z);
    AtomicLong files = new AtomicLong();
    AtomicLong notes = new AtomicLong();
    AtomicLong damaged = new AtomicLong();
    AtomicLong broken = new AtomicLong();
    try (Progress p = Progress.start("generate", spec.notes(), "notes")) {
      new BanknoteGenerator(spec)
          .write(
              out,
              f -> {
                files.incrementAndGet();
                notes.addAndGet(f.notes().size());
                damaged.addAndGet(f.damaged() ? 1 : 0);
                broken.addAndGet(f.brokenRecords());
                p.advance(f.notes().size() + f.brokenRecords());
              });
    }
    System.out.println(
        Json.writePretty(
            new Generated(
                out.toString(), devices, files.get(), notes.get(), damaged.get(), broken.get())));
    return 0;
  }

  @ClientCommand
  @Command(
      name = "agent",
      mixinStandardHelpOptions = true,
      description = {
        "Device-side agent: send every file of a spool directory to the collector in batches;"
            + " a file is renamed NAME.COMPLETED once every note is acknowledged.",
        "Retries with back-off while the server is away; resumes after a crash."
      })
  int agent(
      @Option(
              names = "--spool",
              required = true,
              paramLabel = "DIR",
              description = "The spool directory devices drop finished files into.")
          Path spool,
      @Option(
              names = "--server",
              required = true,
              paramLabel = "URL",
              description = "The collector, e.g. https://collector:8443 or http://127.0.0.1:8080.")
          URI server,
      @Option(
              names = "--ca-file",
              paramLabel = "PEM",
              description =
                  "Trust the CA certificates in this PEM file for an https --server (default: the"
                      + " JDK's trust store); the server's name is always verified.")
          Path caFile,
      @Option(
              names = "--token",
              paramLabel = "TOKEN",
              description = "Bearer token, when the server's writes need one.")
          String token,
      @Option(
              names = "--batch-size",
              paramLabel = "N",
              defaultValue = "500",
              description = "Notes per batch, 1-1000 (default ${DEFAULT-VALUE}).")
          int batchSize,
      @Option(
              names = "--poll",
              paramLabel = "MS",
              defaultValue = "1000",
              description = "Milliseconds between looks at the spool (default ${DEFAULT-VALUE}).")
          long poll,
      @Option(
              names = "--settle",
              paramLabel = "MS",
              defaultValue = "1000",
              description = "Leave files modified less than this ago (default ${DEFAULT-VALUE}).")
          long settle,
      @Option(
              names = "--max-backoff",
              paramLabel = "MS",
              defaultValue = "30000",
              description = "Longest wait between retries (default ${DEFAULT-VALUE}).")
          long maxBackoff,
      @Option(names = "--once", description = "Deliver what is in the spool now, then exit.")
          boolean once,
      @Mixin ContextOptions files)
      throws InterruptedException {
    SpoolAgent.Settings settings =
        SpoolAgent.Settings.of(spool, server, files.context())
            .withBatchSize(batchSize)
            .withToken(token)
            .withTimings(
                Duration.ofMillis(poll),
                Duration.ofMillis(settle),
                Duration.ofMillis(100),
                Duration.ofMillis(maxBackoff));
    SpoolAgent agent = new SpoolAgent(settings, SpoolAgent.httpClient(caFile));
    CountDownLatch done = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              agent.stop();
              try {
                done.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "banknote-agent-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    System.err.println("banknote agent: " + spool + " -> " + server);
    try {
      if (once) {
        agent.drain(r -> System.out.println(Json.write(r)));
      } else {
        agent.run(r -> System.out.println(Json.write(r)));
      }
    } finally {
      done.countDown();
    }
    return 0;
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description =
          "Import one file (FSN or .jsonl) directly into HBase; a malformed file is quarantined"
              + " whole, bad records listed with their reasons.")
  int importFile(
      @Parameters(paramLabel = "FILE", description = "The FSN or JSON-lines file.") Path file,
      @Option(
              names = "--rejects",
              paramLabel = "DIR",
              description =
                  "Where quarantined files and reasons go (default DATA/banknote/rejects).")
          Path rejects,
      @Mixin ContextOptions files) {
    if (!Files.isRegularFile(file)) {
      throw new InvalidInputException("FILE", "no such file: " + file);
    }
    SystemContext ctx = context.get();
    Path dir = rejects != null ? rejects : ctx.dataDir().resolve("banknote").resolve("rejects");
    ImportReport report = new BanknoteService(ctx).importFile(file, files.context(), dir);
    System.out.println(Json.writePretty(report));
    return report.quarantined() != null || report.rejected() > 0 ? 2 : 0;
  }

  @Command(
      name = "lookup",
      mixinStandardHelpOptions = true,
      description = "A note's history by serial number, newest first.")
  int lookup(
      @Parameters(paramLabel = "SERIAL", description = "The serial number, e.g. XN15115812.")
          String serial,
      @Option(names = "--images", description = "Include the serial images (base64).")
          boolean images,
      @Mixin PageOptions page) {
    print(service().history(serial, page.request(100), images));
    return 0;
  }

  @Command(
      name = "device",
      mixinStandardHelpOptions = true,
      description = "What a device read in a time window, oldest first.")
  int device(
      @Parameters(paramLabel = "ID", description = "The device id (FSN MachineSNo).") String id,
      @Option(
              names = "--from",
              paramLabel = "TIME",
              required = true,
              description = "Start: ISO-8601 time or date (local ones in the bank's zone).")
          String from,
      @Option(names = "--to", paramLabel = "TIME", description = "End, exclusive (default: now).")
          String to,
      @Mixin PageOptions page) {
    BanknoteService svc = service();
    Instant start = svc.parseTime(from, "from");
    Instant end = to == null ? context.get().clock().instant() : svc.parseTime(to, "to");
    print(svc.device(id, start, end, page.request(100)));
    return 0;
  }

  @Command(
      name = "purge-file",
      mixinStandardHelpOptions = true,
      description =
          "Purge every reading one delivered file made (a wrong upload), from every table; safe"
              + " to rerun.")
  int purgeFile(
      @Parameters(index = "0", paramLabel = "DEVICE", description = "The device id.") String device,
      @Parameters(index = "1", paramLabel = "SOURCE", description = "The file name it delivered.")
          String source) {
    long purged = service().purgeFile(device, source);
    System.out.println(
        Json.writePretty(Map.of("device", device, "source", source, "purged", purged)));
    return 0;
  }

  @Command(
      name = "batch",
      mixinStandardHelpOptions = true,
      description = "Every note of a batch (ATM transaction, sorter run), by device and time.")
  int batch(
      @Parameters(paramLabel = "ID", description = "The batch id.") String id,
      @Mixin PageOptions page) {
    print(service().batch(id, page.request(100)));
    return 0;
  }

  @Command(
      name = "suspects",
      mixinStandardHelpOptions = true,
      description = "Suspect notes a branch's devices reported on a day.")
  int suspects(
      @Option(names = "--branch", required = true, paramLabel = "BRANCH", description = "Branch.")
          String branch,
      @Option(names = "--day", required = true, paramLabel = "YYYY-MM-DD", description = "Day.")
          String day,
      @Mixin PageOptions page) {
    print(service().suspects(branch, BanknoteService.parseDay(day, "day"), page.request(100)));
    return 0;
  }

  /** A watch-list entry as printed. */
  record WatchLine(
      String id, String pattern, Integer denomination, String note, String addedBy, String added) {
    static WatchLine of(WatchEntry e) {
      return new WatchLine(
          e.id(), e.pattern(), e.denomination(), e.note(), e.addedBy(), e.added().toString());
    }
  }

  record WatchListing(List<WatchLine> entries, String next) {}

  record HitLine(String entry, String pattern, NoteJson note) {}

  record HitListing(List<HitLine> hits, String next) {}

  @Command(
      name = "watch-add",
      mixinStandardHelpOptions = true,
      description =
          "Add a serial or pattern to the watch list (? matches one character; a pattern matches"
              + " serials of its own length); notes stored from now on are checked against it.")
  int watchAdd(
      @Parameters(paramLabel = "PATTERN", description = "E.g. XN15115812 or AB12??????.")
          String pattern,
      @Option(names = "--note", required = true, paramLabel = "TEXT", description = "The reason.")
          String note,
      @Option(names = "--by", required = true, paramLabel = "WHO", description = "Who adds it.")
          String by,
      @Option(
              names = "--denomination",
              paramLabel = "N",
              description = "Match notes of this denomination only.")
          Integer denomination) {
    WatchEntry e = service().watch(pattern, denomination, note, by);
    System.out.println(Json.writePretty(WatchLine.of(e)));
    return 0;
  }

  @Command(
      name = "watch-list",
      mixinStandardHelpOptions = true,
      description = "The watch list, by entry id.")
  int watchList(@Mixin PageOptions page) {
    Page<WatchEntry> p = service().watchList(page.request(100));
    System.out.println(
        Json.writePretty(
            new WatchListing(p.items().stream().map(WatchLine::of).toList(), p.nextOrNull())));
    return 0;
  }

  @Command(
      name = "watch-remove",
      mixinStandardHelpOptions = true,
      description = "Remove an entry from the watch list.")
  int watchRemove(@Parameters(paramLabel = "ID", description = "The entry's id.") String id) {
    service().unwatch(id);
    System.out.println(Json.writePretty(Map.of("removed", id)));
    return 0;
  }

  @Command(
      name = "watch-hits",
      mixinStandardHelpOptions = true,
      description = "Notes of a branch on a day that matched the watch list, newest first.")
  int watchHits(
      @Option(names = "--branch", required = true, paramLabel = "BRANCH", description = "Branch.")
          String branch,
      @Option(names = "--day", required = true, paramLabel = "YYYY-MM-DD", description = "Day.")
          String day,
      @Mixin PageOptions page) {
    Page<WatchHit> p =
        service().hits(branch, BanknoteService.parseDay(day, "day"), page.request(100));
    List<HitLine> hits =
        p.items().stream()
            .map(h -> new HitLine(h.entry(), h.pattern(), NoteJson.of(h.note())))
            .toList();
    System.out.println(Json.writePretty(new HitListing(hits, p.nextOrNull())));
    return 0;
  }

  @Command(
      name = "settlement",
      mixinStandardHelpOptions = true,
      description =
          "A branch's daily settlement: notes per device and denomination by operation, suspects,"
              + " files, and whether the day is closed (every device that reported declared its"
              + " files delivered).")
  int settlement(
      @Option(names = "--branch", required = true, paramLabel = "BRANCH", description = "Branch.")
          String branch,
      @Option(
              names = "--day",
              required = true,
              paramLabel = "YYYY-MM-DD",
              description = "Business day, in the bank's zone.")
          String day,
      @Option(names = "--csv", description = "Print CSV (one line per device and denomination).")
          boolean csv) {
    Settlement s = service().settlement(branch, BanknoteService.parseDay(day, "day"));
    if (csv) {
      System.out.print(SettlementCsv.write(s));
    } else {
      System.out.print(SettlementTable.render(s));
    }
    return 0;
  }

  @Command(
      name = "deliver",
      mixinStandardHelpOptions = true,
      description =
          "Declare that a device delivered every file of a branch's day (idempotent); a file"
              + " stored after it reopens the day.")
  int deliver(
      @Option(names = "--branch", required = true, paramLabel = "BRANCH", description = "Branch.")
          String branch,
      @Option(
              names = "--day",
              required = true,
              paramLabel = "YYYY-MM-DD",
              description = "Business day, in the bank's zone.")
          String day,
      @Option(names = "--device", required = true, paramLabel = "ID", description = "Device id.")
          String device) {
    Settlement.Delivery d =
        service().declareDelivered(branch, BanknoteService.parseDay(day, "day"), device);
    // The same JSON as the REST answer to the declaration.
    System.out.println(Json.writePretty(SettlementJson.DeliveryJson.of(d)));
    return 0;
  }

  static ZoneId zone(String name) {
    try {
      return ZoneId.of(name);
    } catch (java.time.DateTimeException e) {
      throw new InvalidInputException("zone", "unknown time zone '" + name + "'");
    }
  }

  private static void print(Page<Note> page) {
    List<NoteJson> notes = new ArrayList<>();
    page.items().forEach(n -> notes.add(NoteJson.of(n)));
    System.out.println(Json.writePretty(new Listing(notes, page.nextOrNull())));
  }
}
