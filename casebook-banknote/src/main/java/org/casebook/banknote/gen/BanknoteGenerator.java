package org.casebook.banknote.gen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FsnNotes;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.Operation;
import org.casebook.banknote.Verdict;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnHeader;
import org.casebook.banknote.fsn.FsnRecord;
import org.casebook.banknote.fsn.FsnVariant;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/**
 * Writes what a bank's devices would send: one spool directory per device, FSN files from sorters
 * (2014 format, with serial images, vendor error codes in genuine records, like the Julong files
 * this was checked against), ATMs (2018 format: machine and branch in the header), counters (2014
 * without images) and JSON lines from teller machines. Files are named {@code
 * <branch>_<operation>_<batch>} so they carry what FSN does not.
 *
 * <p>Serials are realistic in the way that matters for the row key: sorters process bundles of new
 * notes with consecutive serials (runs of 100), and circulating notes come back — a note withdrawn
 * from one ATM is deposited at another and sorted at a branch — so histories have several records.
 * A chosen share of files is damaged (wrong header, truncated record, impossible count) and a
 * chosen share of records broken (bad serial, unknown denomination, impossible date, unknown flag).
 * Each file is written under a temporary name and renamed, as the spool requires.
 */
public final class BanknoteGenerator {
  /** What to generate. */
  public record Spec(
      int devices,
      int days,
      int notesPerDay,
      double damagedFiles,
      double damagedRecords,
      boolean images,
      long seed,
      LocalDate firstDay,
      ZoneId zone) {
    public Spec {
      InvalidInputException.check(devices >= 1, "devices", "--devices must be at least 1");
      InvalidInputException.check(days >= 1, "days", "--days must be at least 1");
      InvalidInputException.check(
          notesPerDay >= 1, "notes-per-day", "--notes-per-day must be at least 1");
      InvalidInputException.check(
          damagedFiles >= 0 && damagedFiles <= 1, "damaged-files", "--damaged-files is 0..1");
      InvalidInputException.check(
          damagedRecords >= 0 && damagedRecords <= 1,
          "damaged-records",
          "--damaged-records is 0..1");
      Objects.requireNonNull(firstDay, "firstDay is null");
      Objects.requireNonNull(zone, "zone is null");
    }

    public long notes() {
      return (long) devices * days * notesPerDay;
    }
  }

  /** One simulated device: its id (FSN MachineSNo), kind, branch and spool directory name. */
  public record Device(String id, DeviceKind kind, String branch, String dir) {}

  /**
   * One written file: its path, its device, the notes it will read back as (valid records only,
   * identity included), how many records were broken on purpose, and whether the whole file was
   * damaged (then it will be quarantined and {@code notes} is empty).
   */
  public record GeneratedFile(
      Path path,
      Device device,
      String format,
      List<Note> notes,
      int brokenRecords,
      boolean damaged) {
    public GeneratedFile {
      notes = List.copyOf(notes);
    }
  }

  /** Julong's genuine-note codes, as seen in real files. */
  private static final List<Integer> VENDOR_CODES = List.of(0x5555, 0x5515, 0x8005);

  private final Spec spec;
  private final SplittableRandom random;
  private final List<Device> devices;
  private final Serials serials;
  private final Damage damage;
  private long batchCounter;

  public BanknoteGenerator(Spec spec) {
    this.spec = Objects.requireNonNull(spec, "spec is null");
    this.random = new SplittableRandom(spec.seed());
    this.devices = makeDevices(spec.devices(), random.split());
    // One sequence of draws for everything, as when these were one class: a seed's files stay.
    this.serials = new Serials(random);
    this.damage = new Damage(random);
  }

  public List<Device> devices() {
    return devices;
  }

  private static List<Device> makeDevices(int n, SplittableRandom r) {
    List<Device> out = new ArrayList<>(n);
    int branches = Math.max(1, n / 4);
    for (int i = 0; i < n; i++) {
      double k = r.nextDouble();
      DeviceKind kind =
          k < 0.5
              ? DeviceKind.ATM
              : k < 0.8 ? DeviceKind.SORTER : k < 0.95 ? DeviceKind.COUNTER : DeviceKind.TELLER;
      int branch = r.nextInt(branches);
      String model =
          switch (kind) {
            case SORTER -> "JLGF/JL305PV";
            case ATM -> "GRGB/H68NL";
            case COUNTER -> "KXTC/KX22";
            case TELLER -> "DLTM/DL800";
          };
      String id = String.format(Locale.ROOT, "BOC%02d/%s%05d", 11 + branch % 80, model, i);
      String branchId = String.format(Locale.ROOT, "%04d-%03d", 110 + branch / 100, branch % 100);
      out.add(new Device(id, kind, branchId, id.replace('/', '-')));
    }
    return List.copyOf(out);
  }

  /**
   * Writes every device's files for every day into {@code out/<device dir>/}, plus {@code
   * out/devices.json}; {@code onFile} sees each file once written.
   */
  public void write(Path out, Consumer<GeneratedFile> onFile) {
    try {
      Files.createDirectories(out);
      for (Device d : devices) {
        Files.createDirectories(out.resolve(d.dir()));
      }
      Files.writeString(
          out.resolve("devices.json"),
          Json.writePretty(devices) + System.lineSeparator(),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw LocalFileException.of("create", out, e);
    }
    for (int day = 0; day < spec.days(); day++) {
      for (Device d : devices) {
        for (GeneratedFile f : day(d, out.resolve(d.dir()), spec.firstDay().plusDays(day))) {
          onFile.accept(f);
        }
      }
    }
  }

  /** A device's files of one day, written into {@code dir}. */
  public List<GeneratedFile> day(Device d, Path dir, LocalDate date) {
    List<GeneratedFile> files = new ArrayList<>();
    int perFile =
        switch (d.kind()) {
          case SORTER -> 1000;
          case ATM -> 40;
          case COUNTER -> 100;
          case TELLER -> 50;
        };
    int left = spec.notesPerDay();
    int count = (left + perFile - 1) / perFile;
    long open = date.atTime(8, 0).atZone(spec.zone()).toInstant().toEpochMilli();
    long span = 12L * 3600_000 / count;
    for (int i = 0; i < count; i++) {
      int n = Math.min(perFile, left);
      left -= n;
      files.add(
          file(d, dir, Instant.ofEpochMilli(open + i * span + random.nextLong(span / 4 + 1)), n));
    }
    return files;
  }

  /** Writes one file of {@code n} records starting at {@code start}. */
  public GeneratedFile file(Device d, Path dir, Instant start, int n) {
    Operation op = operation(d.kind());
    String batch =
        String.format(
            Locale.ROOT,
            "%s-%s-%d",
            start
                .atZone(spec.zone())
                .toLocalDateTime()
                .toString()
                .replaceAll("[-:T]", "")
                .substring(0, 12),
            d.dir().substring(d.dir().length() - 5),
            ++batchCounter);
    String format =
        switch (d.kind()) {
          case TELLER -> "jsonl";
          case ATM -> spec.images() ? "fsn2018" : "fsn2018_no_images";
          case SORTER -> spec.images() ? "fsn2014" : "fsn2014_no_images";
          case COUNTER -> "fsn2014_no_images";
        };
    String name =
        d.branch()
            + "_"
            + op.name().toLowerCase(Locale.ROOT)
            + "_"
            + batch
            + (format.equals("jsonl") ? ".jsonl" : ".fsn");
    List<Note> notes = notes(d, op, batch, name, start, n);
    boolean damaged = !format.equals("jsonl") && random.nextDouble() < spec.damagedFiles();
    int broken = 0;
    byte[] content;
    List<Note> valid = new ArrayList<>(notes.size());
    if (format.equals("jsonl")) {
      StringBuilder sb = new StringBuilder();
      for (Note note : notes) {
        if (random.nextDouble() < spec.damagedRecords()) {
          sb.append(damage.line(note)).append('\n');
          broken++;
        } else {
          sb.append(Json.write(NoteJson.of(note))).append('\n');
          valid.add(note);
        }
      }
      content = sb.toString().getBytes(StandardCharsets.UTF_8);
    } else {
      FsnVariant variant = FsnVariant.valueOf(format.toUpperCase(Locale.ROOT));
      boolean v2014 = variant.version() == 1;
      List<FsnRecord> records = new ArrayList<>(notes.size());
      for (Note note : notes) {
        FsnRecord r = FsnNotes.record(note, spec.zone(), v2014);
        if (random.nextDouble() < spec.damagedRecords()) {
          records.add(damage.record(r));
          broken++;
        } else {
          records.add(r);
          valid.add(variant.images() ? note : note.withoutImage());
        }
      }
      FsnHeader header =
          v2014
              ? FsnHeader.of(variant)
              : new FsnHeader(
                  variant, "BOC", d.id(), Integer.toString(d.kind().fsnCode()), d.branch());
      content = new FsnFile(header, records).bytes();
      if (damaged) {
        content = damage.file(content, variant);
      }
    }
    Path path = dir.resolve(name);
    Path tmp = dir.resolve("." + name + ".tmp");
    try {
      Files.write(tmp, content);
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw LocalFileException.of("write", path, e);
    }
    return new GeneratedFile(path, d, format, damaged ? List.of() : valid, broken, damaged);
  }

  private Operation operation(DeviceKind kind) {
    return switch (kind) {
      case ATM -> random.nextDouble() < 0.6 ? Operation.WITHDRAWAL : Operation.DEPOSIT;
      case SORTER -> Operation.SORTING;
      case COUNTER -> Operation.COUNTING;
      case TELLER -> random.nextDouble() < 0.5 ? Operation.DEPOSIT : Operation.COUNTING;
    };
  }

  /**
   * The notes of one file, as they will read back: FSN times at even seconds (DOS time), images
   * only where the format keeps them.
   */
  private List<Note> notes(
      Device d, Operation op, String batch, String source, Instant start, int n) {
    boolean fsn = d.kind() != DeviceKind.TELLER;
    boolean images = spec.images() && (d.kind() == DeviceKind.SORTER || d.kind() == DeviceKind.ATM);
    // A sorter's file is often a run of new notes (bundles of consecutive serials).
    boolean run = d.kind() == DeviceKind.SORTER && random.nextDouble() < 0.5;
    int runDenomination = serials.denomination();
    String runPrefix = serials.prefix();
    long runNumber = random.nextLong(100_000_000L - n);
    List<Note> out = new ArrayList<>(n);
    long t = start.toEpochMilli() / 1000 * 1000;
    for (int i = 0; i < n; i++) {
      String currency = "CNY";
      String serial;
      int denomination;
      if (run) {
        serial = runPrefix + String.format(Locale.ROOT, "%08d", runNumber + i);
        denomination = runDenomination;
        serials.remember(serial, denomination);
      } else if (d.kind() == DeviceKind.TELLER && random.nextDouble() < 0.1) {
        currency = "USD";
        denomination = new int[] {1, 5, 10, 20, 50, 100}[random.nextInt(6)];
        serial =
            serials.prefix()
                + String.format(Locale.ROOT, "%08d", random.nextLong(100_000_000L))
                + serials.letter();
      } else if (serials.circulating() > 0 && random.nextDouble() < 0.7) {
        int k = random.nextInt(serials.circulating());
        serial = serials.serial(k);
        denomination = serials.denomination(k);
      } else {
        denomination = serials.denomination();
        serial =
            serials.prefix() + String.format(Locale.ROOT, "%08d", random.nextLong(100_000_000L));
        serials.remember(serial, denomination);
      }
      if (random.nextDouble() < 0.003) {
        int at = random.nextInt(serial.length());
        serial = serial.substring(0, at) + '_' + serial.substring(at + 1);
      }
      boolean suspect = random.nextDouble() < 0.002;
      List<Integer> codes =
          suspect
              ? List.of(1 + random.nextInt(12), 0, 0)
              : d.kind() == DeviceKind.SORTER ? VENDOR_CODES : List.of(0, 0, 0);
      t += d.kind() == DeviceKind.SORTER ? 60 + random.nextInt(60) : 500 + random.nextInt(3000);
      long ms = fsn ? t / 2000 * 2000 : t / 1000 * 1000;
      out.add(
          new Note(
              serial,
              denomination,
              currency,
              currency.equals("CNY") ? serials.edition(denomination) : null,
              d.id(),
              d.kind(),
              d.branch(),
              op,
              Instant.ofEpochMilli(ms),
              batch,
              suspect ? Verdict.SUSPECT : Verdict.GENUINE,
              codes,
              source,
              i,
              images ? Glyphs.image(serial) : null));
    }
    return out;
  }

  /**
   * Notes without files, in chunks, for bulk loads: the same devices, serial runs and circulation,
   * {@code perDevice} notes a device, one device-day after another.
   */
  public void notes(long total, int chunk, Consumer<List<Note>> sink) {
    long made = 0;
    int day = 0;
    while (made < total) {
      for (Device d : devices) {
        if (made >= total) {
          break;
        }
        LocalDate date = spec.firstDay().plusDays(day);
        long open = date.atTime(8, 0).atZone(spec.zone()).toInstant().toEpochMilli();
        int n = (int) Math.min(chunk, total - made);
        Operation op = operation(d.kind());
        String batch = "B" + (++batchCounter);
        String source =
            d.branch() + "_" + op.name().toLowerCase(Locale.ROOT) + "_" + batch + ".fsn";
        sink.accept(
            notes(
                d,
                op,
                batch,
                source,
                Instant.ofEpochMilli(open + random.nextLong(40_000_000L)),
                n));
        made += n;
      }
      day++;
    }
  }
}
