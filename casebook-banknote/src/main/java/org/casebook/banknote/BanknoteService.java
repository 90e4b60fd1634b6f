package org.casebook.banknote;

import io.micrometer.core.instrument.Counter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.SystemContext;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.settings.SystemSettings;

/**
 * Banknote serial numbers (seed 002, the bank case): the collector's durable write of a batch of
 * notes, and the four questions — where has this note been (history by serial, newest first), what
 * did this device read in a time window, every note of a batch, the suspect notes of a branch on a
 * day. Every listing is one bounded scan (a batch: one per device that read it) and pages with an
 * opaque cursor.
 *
 * <p>Thread-safe; all state is in HBase.
 */
public final class BanknoteService {
  /** The most notes one collector batch may carry. */
  public static final int MAX_BATCH = 1000;

  /** The namespace of the tables unless the {@code namespace} setting names another. */
  public static final String DEFAULT_NAMESPACE = BanknoteSchema.DEFAULT_NAMESPACE;

  private final BanknoteStore store;
  private final GroupCommit commits;
  private final ZoneId zone;
  private final Counter stored;
  private final Counter hits;
  private final WatchStore watchStore;
  private final WatchList watch;
  private final java.time.Clock clock;
  private final Settlements settlements;
  private final BranchStore branchStore;
  private final CloneChecks cloneChecks;

  /**
   * The service as the banknote system runs it: namespace and zone from the settings of {@code
   * context} (their defaults on a context that is not the banknote system's, a tool's).
   */
  public BanknoteService(SystemContext context) {
    this(context, context.settings().orDefaults("banknote", BanknoteSettings.ALL));
  }

  private BanknoteService(SystemContext context, SystemSettings settings) {
    this(
        context,
        settings.get(BanknoteSettings.NAMESPACE),
        settings.get(BanknoteSettings.ZONE),
        settings.get(BanknoteSettings.RETENTION_YEARS),
        TravelRules.of(settings));
  }

  /**
   * The service on the tables of {@code namespace} (created if it is not {@link
   * #DEFAULT_NAMESPACE}), in {@code zone}: for a context that is not the banknote system's.
   */
  public BanknoteService(SystemContext context, String namespace, ZoneId zone) {
    this(context, namespace, zone, 0);
  }

  /**
   * As {@link #BanknoteService(SystemContext, String, ZoneId)}, keeping readings {@code
   * retentionYears} (0: forever) in a namespace this creates.
   */
  public BanknoteService(SystemContext context, String namespace, ZoneId zone, int retentionYears) {
    this(context, namespace, zone, retentionYears, TravelRules.DEFAULTS);
  }

  private BanknoteService(
      SystemContext context,
      String namespace,
      ZoneId zone,
      int retentionYears,
      TravelRules travelRules) {
    Objects.requireNonNull(context, "context is null");
    this.zone = Objects.requireNonNull(zone, "zone is null");
    this.store =
        BanknoteStore.open(
            context.connection(), BanknoteSchema.in(namespace), zone, retentionYears);
    this.commits =
        new GroupCommit(store, context.sideWork(), () -> context.background("collector"));
    this.stored = context.metrics().counter("casebook.banknote.notes.stored");
    this.hits = context.metrics().counter("casebook.banknote.watch.hits");
    this.clock = context.clock();
    this.watchStore = new WatchStore(context.connection(), store.schema());
    this.watch =
        new WatchList(watchStore, () -> context.background("watch-list"), WatchList.MAX_ENTRIES);
    SettlementStore settlementStore = new SettlementStore(context.connection(), store.schema());
    this.settlements = new Settlements(settlementStore, store, zone);
    this.branchStore = new BranchStore(context.connection(), store.schema());
    this.cloneChecks =
        new CloneChecks(store, settlementStore, branchStore, zone, travelRules, context.sideWork());
  }

  /**
   * Deletes every reading one delivered file made ({@code source} as the device sent it), from
   * every table: a wrong upload. Safe to rerun after a failure half-way.
   *
   * @return how many notes were purged
   * @throws NotFoundException when nothing of that file is stored (or no more)
   */
  public long purgeFile(String device, String source) {
    InvalidInputException.check(device != null && !device.isBlank(), "device", "device is empty");
    InvalidInputException.check(source != null && !source.isBlank(), "source", "source is empty");
    long purged = store.purgeFile(device, source);
    if (purged == 0) {
      throw new NotFoundException("no readings of file " + source + " from device " + device);
    }
    return purged;
  }

  public ZoneId zone() {
    return zone;
  }

  // ---- collection

  /**
   * Stores a batch of notes and returns once every row is durable in HBase: the collector's
   * acknowledgement. Storing a note again (a retried batch) rewrites the same rows.
   */
  public int store(List<Note> notes) {
    InvalidInputException.check(
        notes.size() <= MAX_BATCH, "notes", "at most " + MAX_BATCH + " notes a batch");
    if (!notes.isEmpty()) {
      hits.increment(commits.write(notes, watch.current()));
      stored.increment(notes.size());
    }
    return notes.size();
  }

  /** What the collector did with a piece of an FSN file: notes stored, records rejected. */
  public record PieceResult(int stored, List<Reject> rejected) {}

  /**
   * Stores a piece of an FSN file — the agent's binary upload: the file's own header (its count set
   * to the piece's) and a run of its records, the first being record {@code first} of the file
   * {@code source} — and returns once every note is durable. The bytes are checked as a whole file
   * is (wrong header, truncated record, impossible count: a 400 naming {@code body}, nothing
   * stored); records breaking a rule are returned as rejected, the rest stored. Record numbers are
   * the whole file's, so a re-sent piece rewrites the same rows.
   */
  public PieceResult storeFsn(String source, long first, byte[] piece, FileContext context) {
    Ids.check(source, "source", NoteRules.MAX_SOURCE);
    InvalidInputException.check(
        source.toLowerCase(java.util.Locale.ROOT).endsWith(".fsn"),
        "source",
        "source must name an FSN file (.fsn), got '" + source + "'");
    InvalidInputException.check(
        first >= 0 && first <= Integer.MAX_VALUE, "first", "first must be 0.." + Integer.MAX_VALUE);
    ParsedFile parsed;
    try {
      parsed = NoteFiles.fsnPiece(source, first, piece, context, MAX_BATCH);
    } catch (FileRejectedException e) {
      throw new InvalidInputException(e.field(), e.getMessage());
    }
    return new PieceResult(store(parsed.notes()), parsed.rejects());
  }

  /** A buffered writer for bulk loads (import, benchmarks): durable once flushed or closed. */
  public BulkWriter writer() {
    return new BulkWriter(store.writer(), stored, hits, watch);
  }

  /** Buffered writes of many notes; {@link #flush()} returns once they are durable. */
  public static final class BulkWriter implements AutoCloseable {
    private final BanknoteStore.Writer writer;
    private final Counter stored;
    private final Counter hits;
    private final WatchList watch;

    BulkWriter(BanknoteStore.Writer writer, Counter stored, Counter hits, WatchList watch) {
      this.writer = writer;
      this.stored = stored;
      this.hits = hits;
      this.watch = watch;
    }

    public void write(List<Note> notes) {
      hits.increment(writer.write(notes, watch.current()));
      stored.increment(notes.size());
    }

    public void flush() {
      writer.flush();
    }

    @Override
    public void close() {
      writer.close();
    }
  }

  /**
   * Imports one file: read whole (a malformed one is copied to {@code quarantine} with its reason
   * and nothing of it is stored), valid notes stored durably, rejected records listed in {@code
   * <rejectsDir>/<name>.rejects}.
   */
  public ImportReport importFile(Path file, FileContext fileContext, Path rejectsDir) {
    String name = file.getFileName().toString();
    ParsedFile parsed;
    try {
      parsed = NoteFiles.read(file, fileContext);
    } catch (FileRejectedException e) {
      Quarantine.file(rejectsDir, file, e.getMessage(), false);
      return new ImportReport(
          file.toString(), "unreadable", 0, 0, 0, List.of(), null, e.getMessage());
    }
    try (BulkWriter w = writer()) {
      List<Note> notes = parsed.notes();
      for (int i = 0; i < notes.size(); i += MAX_BATCH) {
        w.write(notes.subList(i, Math.min(notes.size(), i + MAX_BATCH)));
      }
      w.flush();
    }
    String rejectsFile =
        parsed.rejects().isEmpty()
            ? null
            : Quarantine.rejects(rejectsDir, name, parsed.rejects()).toString();
    return new ImportReport(
        file.toString(),
        parsed.format(),
        parsed.records(),
        parsed.notes().size(),
        parsed.rejects().size(),
        parsed.rejects().subList(0, Math.min(20, parsed.rejects().size())),
        rejectsFile,
        null);
  }

  // ---- watch list

  /** The most entries the watch list holds. */
  public static final int MAX_WATCH = WatchList.MAX_ENTRIES;

  /** How long another node may take to apply a change of the list (its periodic reload). */
  public static final long WATCH_RELOAD_SECONDS = WatchList.RELOAD_SECONDS;

  /**
   * Adds an entry to the watch list (or replaces the one with the same pattern and denomination):
   * notes stored on this node from now on are checked against it, on other nodes within {@link
   * #WATCH_RELOAD_SECONDS}.
   */
  public WatchEntry watch(String pattern, Integer denomination, String note, String addedBy) {
    return watch.add(WatchEntry.of(pattern, denomination, note, addedBy, clock.instant()));
  }

  /**
   * Removes entry {@code id} from the watch list.
   *
   * @throws NotFoundException when there is no such entry
   */
  public void unwatch(String id) {
    Ids.check(id, "id", NoteRules.MAX_ID);
    watch.remove(id);
  }

  /** The watch list, by entry id: one bounded scan of the watch table a page. */
  public Page<WatchEntry> watchList(PageRequest page) {
    RowWindow window = page(BanknoteKeys.WATCH.range(), page, BanknoteKeys.WATCH_SCOPE);
    return Page.of(
            watchStore.scanEntries(window),
            page.limit(),
            r -> Cursors.encode(BanknoteKeys.WATCH_SCOPE, r.key()))
        .map(WatchStore.EntryRow::entry);
  }

  /** The watch-list hits of a branch's notes on {@code day} (the bank's zone), newest first. */
  public Page<WatchHit> hits(String branch, LocalDate day, PageRequest page) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    KeyRange range = BanknoteKeys.HIT.range(branch, Math.toIntExact(day.toEpochDay()));
    RowWindow window = page(range, page, BanknoteKeys.HIT_SCOPE);
    return Page.of(
            watchStore.scanHits(window),
            page.limit(),
            r -> Cursors.encode(BanknoteKeys.HIT_SCOPE, r.key()))
        .map(WatchStore.HitRow::hit);
  }

  // ---- daily settlement

  /**
   * The settlement of {@code branch}'s business {@code day} (the bank's zone): the notes each
   * device counted, per denomination, by operation, with suspects, files and notes per hour, and
   * whether the day is closed (see {@link Settlement}). One prefix scan of the day's summary rows,
   * written with the notes; a file whose rows overlap (sent again in other pieces) is counted from
   * its stored notes.
   */
  public Settlement settlement(String branch, LocalDate day) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    Objects.requireNonNull(day, "day is null");
    return settlements.settle(branch, day);
  }

  /**
   * Records that {@code device} delivered every file of {@code branch}'s {@code day}. Idempotent: a
   * device that declared before and delivered nothing since is left as it was ({@code recorded}
   * false); after late files, it declares again, which closes the day again once every device has.
   */
  public Settlement.Delivery declareDelivered(String branch, LocalDate day, String device) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    Ids.check(device, "device", NoteRules.MAX_ID);
    Objects.requireNonNull(day, "day is null");
    return settlements.declare(branch, day, device);
  }

  // ---- impossible histories

  /** Most readings of one serial the clone check reads (one bounded scan). */
  public static final int MAX_CLONE_READINGS = 1000;

  /**
   * The serial's probable clones (see {@link ProbableClone}): each reading whose denomination,
   * currency or edition differs from the reading before it, or whose branch is further from the one
   * before than a note travels in the time between, with both readings as evidence. Reads the
   * newest {@link #MAX_CLONE_READINGS} readings of the serial and the locations of their branches.
   */
  public CloneCheck clones(String serial) {
    String s = lookupSerial(serial);
    return cloneChecks.serial(s, cloneChecks.history(s, false));
  }

  /**
   * The fraud desk's morning sweep: the probable clones among the serials read at {@code branch} on
   * {@code day} (the bank's zone), each pair holding one of that day's readings there; paged by
   * serial (see {@link CloneChecks#sweep}).
   */
  public CloneSweep cloneSweep(String branch, LocalDate day, PageRequest page) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    Objects.requireNonNull(day, "day is null");
    return cloneChecks.sweep(branch, day, page);
  }

  // ---- branch locations

  /** Declares (or replaces) where {@code branch} is; a missing or bad value is a 400 naming it. */
  public BranchLocation putBranch(String branch, Double lat, Double lon, String name) {
    BranchLocation b = BranchLocation.of(branch, lat, lon, name);
    branchStore.put(b);
    return b;
  }

  /**
   * Where {@code branch} is.
   *
   * @throws NotFoundException when it has no location
   */
  public BranchLocation branch(String branch) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    BranchLocation b = branchStore.locations(List.of(branch)).get(branch);
    if (b == null) {
      throw new NotFoundException("branch " + branch + " has no location");
    }
    return b;
  }

  /** The branches with a location, by id: one bounded scan of the branches table a page. */
  public Page<BranchLocation> branches(PageRequest page) {
    RowWindow window = page(BanknoteKeys.BRANCH.range(), page, BanknoteKeys.BRANCH_SCOPE);
    return Page.of(
            branchStore.scan(window),
            page.limit(),
            r -> Cursors.encode(BanknoteKeys.BRANCH_SCOPE, r.key()))
        .map(BranchStore.BranchRow::location);
  }

  /**
   * Removes {@code branch}'s location; its readings are then left out of travel checks.
   *
   * @throws NotFoundException when it has none
   */
  public void deleteBranch(String branch) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    if (!branchStore.delete(branch)) {
      throw new NotFoundException("branch " + branch + " has no location");
    }
  }

  /**
   * Stores every location of a {@link BranchCsv} text with buffered writes, once the whole text is
   * checked (a bad line stores nothing); returns how many.
   */
  public int loadBranches(String csv) {
    List<BranchLocation> all = BranchCsv.parse(csv);
    try (BranchStore.Writer w = branchStore.writer()) {
      for (BranchLocation b : all) {
        w.write(b);
      }
    }
    return all.size();
  }

  // ---- dispute pack

  /**
   * The dispute pack of {@code serial} (see {@link DisputePack}): its newest {@link
   * #MAX_CLONE_READINGS} readings with their images, one bounded scan of its history, ordered into
   * the custody chain that ends at its newest payout.
   */
  public DisputePack dispute(String serial) {
    String s = lookupSerial(serial);
    List<Note> readings = cloneChecks.history(s, true);
    return DisputePack.of(s, readings, cloneChecks.serial(s, readings).clones());
  }

  // ---- queries

  /** A serial as looked up: letters upper-cased, the serial rule checked (400 naming serial). */
  public static String lookupSerial(String serial) {
    return NoteRules.serial(serial, null);
  }

  /**
   * A note's history, newest first: one bounded scan of the rows starting with the reversed serial.
   * Images are read only when asked for (they live in their own family).
   */
  public Page<Note> history(String serial, PageRequest page, boolean images) {
    String s = lookupSerial(serial);
    RowWindow window = page(BanknoteKeys.NOTE.range(s), page, BanknoteKeys.HISTORY_SCOPE);
    return pageOf(store.scanNotes(window, images), page, BanknoteKeys.HISTORY_SCOPE);
  }

  /** What {@code device} read in {@code [from, to)}, oldest first. */
  public Page<Note> device(String device, Instant from, Instant to, PageRequest page) {
    Ids.check(device, "id", NoteRules.MAX_ID);
    InvalidInputException.check(from.isBefore(to), "to", "to must be after from");
    KeyRange range =
        KeyRange.between(
            BanknoteKeys.DEVICE.prefix(device, from.toEpochMilli()),
            BanknoteKeys.DEVICE.prefix(device, to.toEpochMilli()));
    RowWindow window = page(range, page, BanknoteKeys.DEVICE_SCOPE);
    return pageOf(store.scanDevices(window), page, BanknoteKeys.DEVICE_SCOPE);
  }

  /** The suspect notes a branch's devices reported on {@code day} (the bank's zone), by time. */
  public Page<Note> suspects(String branch, LocalDate day, PageRequest page) {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    KeyRange range = BanknoteKeys.SUSPECT.range(branch, Math.toIntExact(day.toEpochDay()));
    RowWindow window = page(range, page, BanknoteKeys.SUSPECT_SCOPE);
    return pageOf(store.scanSuspects(window), page, BanknoteKeys.SUSPECT_SCOPE);
  }

  /**
   * Every note of a batch (an ATM transaction, a sorter's run), by device then time: the batch's
   * windows from the batches table, then one scan of the devices table per device over its window,
   * keeping the rows of this batch.
   */
  public Page<Note> batch(String batch, PageRequest page) {
    Ids.check(batch, "id", NoteRules.MAX_ID);
    Optional<byte[]> after = page.cursor().map(c -> cursorKey(BanknoteKeys.BATCH_SCOPE, c));
    String afterDevice = after.map(k -> decodeDevice(k).string("device")).orElse(null);
    List<BanknoteStore.Row> found = new ArrayList<>();
    for (BanknoteStore.Window w : store.batchWindows(batch)) {
      if (afterDevice != null && w.device().compareTo(afterDevice) < 0) {
        continue;
      }
      byte[] start = BanknoteKeys.DEVICE.prefix(w.device(), w.first());
      boolean inclusive = true;
      if (afterDevice != null && w.device().equals(afterDevice)) {
        start = after.get();
        inclusive = false;
      }
      byte[] stop = BanknoteKeys.DEVICE.prefix(w.device(), w.last() + 1);
      int wanted = page.fetchSize() - found.size();
      // Rows of other batches may interleave in the window; read past them in chunks.
      byte[] from = start;
      while (wanted > 0) {
        List<BanknoteStore.Row> rows =
            store.scanDevices(new RowWindow(from, inclusive, stop, page.fetchSize()));
        for (BanknoteStore.Row r : rows) {
          if (r.note().batch().equals(batch) && wanted > 0) {
            found.add(r);
            wanted--;
          }
        }
        if (rows.size() < page.fetchSize()) {
          break;
        }
        from = rows.get(rows.size() - 1).key();
        inclusive = false;
      }
      if (found.size() >= page.fetchSize()) {
        break;
      }
    }
    return pageOf(found, page, BanknoteKeys.BATCH_SCOPE);
  }

  private static org.casebook.core.key.KeyLayout.Key decodeDevice(byte[] key) {
    try {
      return BanknoteKeys.DEVICE.decode(key);
    } catch (IllegalArgumentException e) {
      throw badCursor();
    }
  }

  /** The rows of {@code range} from after the cursor's row, one more than the page. */
  private static RowWindow page(KeyRange range, PageRequest page, String scope) {
    byte[] start = range.start();
    boolean inclusive = true;
    if (page.cursor().isPresent()) {
      start = cursorKey(scope, page.cursor().get());
      if (!range.contains(start)) {
        throw badCursor();
      }
      inclusive = false;
    }
    return new RowWindow(start, inclusive, range.stop(), page.fetchSize());
  }

  private static byte[] cursorKey(String scope, String cursor) {
    return Cursors.decode(scope, cursor);
  }

  private static InvalidInputException badCursor() {
    return new InvalidInputException(
        "cursor",
        "cursor is not valid for this listing; use the 'next' value of the previous page");
  }

  private static Page<Note> pageOf(List<BanknoteStore.Row> rows, PageRequest page, String scope) {
    return Page.of(rows, page.limit(), r -> Cursors.encode(scope, r.key()))
        .map(BanknoteStore.Row::note);
  }

  // ---- parsing shared by the REST routes and the CLI

  /**
   * A time: ISO-8601 with an offset ({@code 2021-02-24T05:13:00Z}, {@code …+08:00}), a local date
   * and time, or a date (its start) — local ones in the bank's zone.
   */
  public Instant parseTime(String value, String field) {
    InvalidInputException.check(value != null && !value.isBlank(), field, field + " is required");
    String v = value.trim();
    try {
      return OffsetDateTime.parse(v).toInstant();
    } catch (DateTimeParseException notOffset) {
      try {
        return LocalDateTime.parse(v).atZone(zone).toInstant();
      } catch (DateTimeParseException notLocal) {
        return parseDay(v, field).atStartOfDay(zone).toInstant();
      }
    }
  }

  /** A day, {@code YYYY-MM-DD}. */
  public static LocalDate parseDay(String value, String field) {
    InvalidInputException.check(value != null && !value.isBlank(), field, field + " is required");
    try {
      LocalDate d = LocalDate.parse(value.trim());
      InvalidInputException.check(
          d.getYear() >= 1980 && d.getYear() < 2200, field, field + " must lie in 1980..2199");
      return d;
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(
          field, field + " must be a date (YYYY-MM-DD) or a time (ISO-8601), got '" + value + "'");
    }
  }
}
