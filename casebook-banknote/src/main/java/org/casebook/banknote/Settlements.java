package org.casebook.banknote;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The daily settlement, computed when asked: one prefix scan of the branch's day in the settlement
 * table (every piece's summary row and every device's declaration), summed here. Summary rows are
 * written with the notes (same group commit, keyed by the piece), so a retried piece rewrites its
 * row and the sum equals the notes stored. A file sent again in pieces cut elsewhere (another batch
 * size, an import of a file the agent delivered) leaves rows whose record ranges overlap: such a
 * file is counted from its stored notes instead (a bounded scan of its device's day), and said so.
 */
final class Settlements {
  private final SettlementStore store;
  private final BanknoteStore notes;
  private final ZoneId zone;

  Settlements(SettlementStore store, BanknoteStore notes, ZoneId zone) {
    this.store = Objects.requireNonNull(store, "store is null");
    this.notes = Objects.requireNonNull(notes, "notes is null");
    this.zone = Objects.requireNonNull(zone, "zone is null");
  }

  Settlement settle(String branch, LocalDate day) {
    return settle(branch, day, store.day(branch, epochDay(day)));
  }

  /**
   * Records {@code device}'s declaration that it delivered its files of {@code branch}'s {@code
   * day}, unless it declared before and none of its files arrived since (a retried declaration
   * changes nothing); a declaration after late files covers them and closes the day again.
   */
  Settlement.Delivery declare(String branch, LocalDate day, String device) {
    int d = epochDay(day);
    SettlementStore.DayRows mine = store.device(branch, d, device);
    SettlementStore.DeclarationRow existing =
        mine.declarations().isEmpty() ? null : mine.declarations().get(0);
    boolean arrivedSince =
        existing != null && mine.pieces().stream().anyMatch(p -> p.stored() >= existing.last());
    boolean record = existing == null || arrivedSince;
    if (record) {
      store.declare(branch, d, device, existing == null);
    }
    Settlement s = settle(branch, day);
    Settlement.DeviceDay dd =
        s.devices().stream()
            .filter(x -> x.device().equals(device))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("the declaration was not stored"));
    return new Settlement.Delivery(
        branch, day, device, dd.firstDeclared(), dd.declared(), record, s.status());
  }

  private static int epochDay(LocalDate day) {
    return Math.toIntExact(day.toEpochDay());
  }

  /** The notes of one file on the day, as its summary rows or its recount give them. */
  private record FileTally(
      String source,
      List<PieceCounts> counts,
      int pieces,
      long firstStored,
      long lastStored,
      boolean recounted) {}

  /** A line being summed: a device's notes of one denomination. */
  private static final class LineSum {
    final DeviceKind kind;
    Settlement.Counts counts = Settlement.Counts.ZERO;
    final Map<String, Long> files = new TreeMap<>();

    LineSum(DeviceKind kind) {
      this.kind = kind;
    }
  }

  private Settlement settle(String branch, LocalDate day, SettlementStore.DayRows rows) {
    long from = day.atStartOfDay(zone).toInstant().toEpochMilli();
    long to = day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
    Map<String, SettlementStore.DeclarationRow> declared = new TreeMap<>();
    rows.declarations().forEach(r -> declared.put(r.device(), r));
    Map<String, Map<String, List<SettlementStore.PieceRow>>> files = new TreeMap<>();
    for (SettlementStore.PieceRow p : rows.pieces()) {
      files
          .computeIfAbsent(p.device(), k -> new TreeMap<>())
          .computeIfAbsent(p.source(), k -> new ArrayList<>())
          .add(p);
    }
    TreeMap<String, Boolean> devices = new TreeMap<>();
    files.keySet().forEach(d -> devices.put(d, true));
    declared.keySet().forEach(d -> devices.putIfAbsent(d, false));

    Map<String, LineSum> lines = new TreeMap<>(); // device \0 currency \0 denomination (padded)
    long[] hourNotes = new long[24];
    long[] hourSuspects = new long[24];
    Settlement.Counts totals = Settlement.Counts.ZERO;
    List<Settlement.DeviceDay> deviceDays = new ArrayList<>();
    List<Settlement.LateFile> late = new ArrayList<>();
    boolean everyDeviceDeclared = true;
    boolean arrivedAfterLatest = false;
    long closedAt = Long.MIN_VALUE;

    for (String device : devices.keySet()) {
      SettlementStore.DeclarationRow decl = declared.get(device);
      if (decl != null) {
        closedAt = Math.max(closedAt, decl.last());
      }
      DeviceKind kind = null;
      Settlement.Counts deviceCounts = Settlement.Counts.ZERO;
      List<Settlement.FileDay> fileDays = new ArrayList<>();
      for (Map.Entry<String, List<SettlementStore.PieceRow>> f :
          files.getOrDefault(device, Map.of()).entrySet()) {
        FileTally tally = tally(branch, device, f.getKey(), f.getValue(), from, to);
        long fileNotes = 0;
        long fileSuspects = 0;
        for (PieceCounts pc : tally.counts()) {
          if (kind == null) {
            kind = pc.kind();
          }
          for (PieceCounts.Cell c : pc.cells()) {
            fileNotes += c.notes();
            fileSuspects += c.suspects();
            deviceCounts = deviceCounts.plus(c.operation(), c.notes(), c.suspects());
            hourNotes[c.hour()] += c.notes();
            hourSuspects[c.hour()] += c.suspects();
            String lineKey =
                device
                    + '\u0000'
                    + c.currency()
                    + '\u0000'
                    + String.format(java.util.Locale.ROOT, "%010d", c.denomination());
            LineSum line = lines.computeIfAbsent(lineKey, k -> new LineSum(pc.kind()));
            line.counts = line.counts.plus(c.operation(), c.notes(), c.suspects());
            line.files.merge(tally.source(), c.notes(), Long::sum);
          }
        }
        if (fileNotes == 0) {
          continue; // recounted to nothing: its notes were purged meanwhile
        }
        boolean isLate = decl != null && tally.lastStored() >= decl.first();
        if (decl != null && tally.lastStored() >= decl.last()) {
          arrivedAfterLatest = true;
        }
        if (isLate) {
          late.add(
              new Settlement.LateFile(
                  device,
                  tally.source(),
                  fileNotes,
                  Instant.ofEpochMilli(tally.lastStored()),
                  Instant.ofEpochMilli(decl.first()),
                  tally.lastStored() < decl.last()));
        }
        fileDays.add(
            new Settlement.FileDay(
                tally.source(),
                fileNotes,
                fileSuspects,
                tally.pieces(),
                Instant.ofEpochMilli(tally.firstStored()),
                Instant.ofEpochMilli(tally.lastStored()),
                isLate,
                tally.recounted()));
      }
      if (deviceCounts.total() > 0 && decl == null) {
        everyDeviceDeclared = false;
      }
      if (deviceCounts.total() == 0 && decl == null) {
        continue;
      }
      totals = add(totals, deviceCounts);
      deviceDays.add(
          new Settlement.DeviceDay(
              device,
              kind,
              deviceCounts,
              decl == null ? null : Instant.ofEpochMilli(decl.first()),
              decl == null ? null : Instant.ofEpochMilli(decl.last()),
              fileDays));
    }

    List<Settlement.Line> out = new ArrayList<>(lines.size());
    for (Map.Entry<String, LineSum> e : lines.entrySet()) {
      String[] k = e.getKey().split("\u0000", -1);
      List<Settlement.FileCount> fc = new ArrayList<>();
      e.getValue().files.forEach((s, n) -> fc.add(new Settlement.FileCount(s, n)));
      out.add(
          new Settlement.Line(
              k[0], e.getValue().kind, k[1], Integer.parseInt(k[2]), e.getValue().counts, fc));
    }
    List<Settlement.Hour> hours = new ArrayList<>(24);
    for (int h = 0; h < 24; h++) {
      hours.add(new Settlement.Hour(h, hourNotes[h], hourSuspects[h]));
    }
    Settlement.Status status;
    if (deviceDays.isEmpty() || !everyDeviceDeclared) {
      status = Settlement.Status.OPEN;
    } else if (arrivedAfterLatest) {
      status = Settlement.Status.REOPENED;
    } else {
      status = Settlement.Status.CLOSED;
    }
    late.sort(Comparator.comparing(Settlement.LateFile::stored));
    return new Settlement(
        branch,
        day,
        zone,
        status,
        status == Settlement.Status.CLOSED ? Instant.ofEpochMilli(closedAt) : null,
        totals,
        out,
        deviceDays,
        late,
        hours);
  }

  private static Settlement.Counts add(Settlement.Counts a, Settlement.Counts b) {
    return new Settlement.Counts(
        a.deposit() + b.deposit(),
        a.withdrawal() + b.withdrawal(),
        a.sorting() + b.sorting(),
        a.counting() + b.counting(),
        a.suspects() + b.suspects());
  }

  /**
   * A file's counts of the day: its summary rows, or, when two of them count a record in common
   * (the file came again in pieces cut elsewhere), its stored notes of the day.
   */
  private FileTally tally(
      String branch,
      String device,
      String source,
      List<SettlementStore.PieceRow> pieces,
      long from,
      long to) {
    long firstStored = Long.MAX_VALUE;
    long lastStored = Long.MIN_VALUE;
    List<PieceCounts> counts = new ArrayList<>(pieces.size());
    for (SettlementStore.PieceRow p : pieces) {
      firstStored = Math.min(firstStored, p.stored());
      lastStored = Math.max(lastStored, p.stored());
      counts.add(p.counts());
    }
    if (!overlapping(counts)) {
      return new FileTally(source, counts, pieces.size(), firstStored, lastStored, false);
    }
    return new FileTally(
        source,
        recount(branch, device, source, from, to),
        pieces.size(),
        firstStored,
        lastStored,
        true);
  }

  /** Whether two of {@code counts} count a record number in common (sorted by first record). */
  static boolean overlapping(List<PieceCounts> counts) {
    List<PieceCounts> sorted = new ArrayList<>(counts);
    sorted.sort(Comparator.comparingLong(PieceCounts::first));
    for (int i = 1; i < sorted.size(); i++) {
      // Sorted by first record, a range that meets any earlier one meets the one just before.
      if (sorted.get(i).overlaps(sorted.get(i - 1))) {
        return true;
      }
    }
    return false;
  }

  /** The file's stored notes of the branch's day, counted as one piece (none: an empty list). */
  private List<PieceCounts> recount(
      String branch, String device, String source, long from, long to) {
    PieceCounts.Builder b = new PieceCounts.Builder();
    LocalHours hours = new LocalHours(zone);
    // [from, to) is the day: every note read in it is the day's.
    for (Note n : notes.fileNotes(device, source, from, to)) {
      if (n.branch().equals(branch)) {
        hours.at(n.time().toEpochMilli());
        b.add(n, hours.hour());
      }
    }
    return b.isEmpty() ? List.of() : List.of(b.build());
  }
}
