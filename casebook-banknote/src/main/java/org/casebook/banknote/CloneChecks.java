package org.casebook.banknote;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.casebook.core.Futures;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.PageRequest;

/**
 * The checks for impossible histories: one serial's ({@link #serial}) and a branch's day sweep
 * ({@link #sweep}), both by {@link TravelRules} on the serials' newest readings and the locations
 * of the branches they name.
 */
final class CloneChecks {
  /** Serials whose histories are read at once by a sweep (its bound on parallel scans). */
  static final int SWEEP_PARALLEL = 8;

  /** Most serials one page of a sweep checks, whatever it finds: the bound on a page's reads. */
  static final int SWEEP_SERIALS_PER_PAGE = 1000;

  /** Devices rows read a scan while walking a branch's day. */
  private static final int DAY_ROWS_PER_SCAN = 1000;

  private final BanknoteStore notes;
  private final SettlementStore settlement;
  private final BranchStore branches;
  private final ZoneId zone;
  private final TravelRules rules;
  private final ExecutorService sideWork;

  CloneChecks(
      BanknoteStore notes,
      SettlementStore settlement,
      BranchStore branches,
      ZoneId zone,
      TravelRules rules,
      ExecutorService sideWork) {
    this.notes = notes;
    this.settlement = settlement;
    this.branches = branches;
    this.zone = zone;
    this.rules = rules;
    this.sideWork = sideWork;
  }

  TravelRules rules() {
    return rules;
  }

  /** The newest readings of {@code serial} (one bounded scan), oldest first. */
  List<Note> history(String serial, boolean images) {
    KeyRange range = BanknoteKeys.NOTE.range(serial);
    List<BanknoteStore.Row> rows =
        notes.scanNotes(
            new RowWindow(range.start(), true, range.stop(), BanknoteService.MAX_CLONE_READINGS),
            images);
    List<Note> out = new ArrayList<>(rows.size());
    for (int i = rows.size() - 1; i >= 0; i--) {
      out.add(rows.get(i).note());
    }
    return out;
  }

  /** {@code serial}'s probable clones among {@code oldestFirst}, its readings. */
  CloneCheck serial(String serial, List<Note> oldestFirst) {
    TravelRules.Found found =
        rules.check(oldestFirst, branches.locations(branchesOf(oldestFirst)), n -> true);
    return new CloneCheck(
        serial,
        oldestFirst.size(),
        found.unlocated(),
        rules.maxSpeedKmh(),
        rules.minDistanceKm(),
        found.clones());
  }

  private static Set<String> branchesOf(List<Note> readings) {
    Set<String> out = new LinkedHashSet<>();
    for (Note n : readings) {
      out.add(n.branch());
    }
    return out;
  }

  /** Where a sweep resumes: at {@code serial}, its first {@code skip} clones already listed. */
  private record Resume(String serial, int skip) {}

  /**
   * The probable clones among the serials read at {@code branch} on {@code day}: the devices that
   * reported there that day from the settlement's day rows, their devices rows of the day (the
   * notes of this branch kept), then per distinct serial, in serial order from the cursor, one
   * bounded scan of its history, {@link #SWEEP_PARALLEL} at a time. A page stops at {@code limit}
   * clones or after {@link #SWEEP_SERIALS_PER_PAGE} serials.
   */
  CloneSweep sweep(String branch, LocalDate day, PageRequest page) {
    int dayNumber = Math.toIntExact(day.toEpochDay());
    Resume from = page.cursor().map(c -> resume(c, branch, dayNumber)).orElse(null);
    long start = day.atStartOfDay(zone).toInstant().toEpochMilli();
    long end = day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
    NavigableSet<String> serials = serialsOfDay(branch, dayNumber, start, end);
    List<String> todo =
        new ArrayList<>(from == null ? serials : serials.tailSet(from.serial(), true));
    List<ProbableClone> clones = new ArrayList<>();
    Map<String, BranchLocation> located = new HashMap<>();
    Set<String> looked = new HashSet<>();
    int checked = 0;
    int unlocated = 0;
    int truncated = 0;
    Resume next = null;
    for (int at = 0; at < todo.size() && next == null; at += SWEEP_PARALLEL) {
      List<String> chunk = todo.subList(at, Math.min(todo.size(), at + SWEEP_PARALLEL));
      List<Future<List<Note>>> reads = new ArrayList<>(chunk.size());
      for (String s : chunk) {
        reads.add(sideWork.submit(() -> history(s, false)));
      }
      List<List<Note>> histories = new ArrayList<>(chunk.size());
      Set<String> unknown = new LinkedHashSet<>();
      for (Future<List<Note>> f : reads) {
        List<Note> h = Futures.await(f);
        histories.add(h);
        for (Note n : h) {
          if (looked.add(n.branch())) {
            unknown.add(n.branch());
          }
        }
      }
      located.putAll(branches.locations(unknown));
      for (int i = 0; i < chunk.size(); i++) {
        String serial = chunk.get(i);
        if (checked == SWEEP_SERIALS_PER_PAGE) {
          next = new Resume(serial, 0);
          break;
        }
        List<Note> history = histories.get(i);
        checked++;
        if (history.size() == BanknoteService.MAX_CLONE_READINGS
            && history.get(0).time().toEpochMilli() >= start) {
          truncated++;
        }
        TravelRules.Found found =
            rules.check(
                history,
                located,
                n -> {
                  long t = n.time().toEpochMilli();
                  return n.branch().equals(branch) && t >= start && t < end;
                });
        unlocated += found.unlocated();
        int skip = from != null && serial.equals(from.serial()) ? from.skip() : 0;
        List<ProbableClone> ofSerial = found.clones();
        for (int k = skip; k < ofSerial.size(); k++) {
          if (clones.size() == page.limit()) {
            next = new Resume(serial, k);
            break;
          }
          clones.add(ofSerial.get(k));
        }
        if (next != null) {
          break;
        }
        if (clones.size() == page.limit() && at + i + 1 < todo.size()) {
          next = new Resume(todo.get(at + i + 1), 0);
          break;
        }
      }
    }
    return new CloneSweep(
        branch,
        day.toString(),
        serials.size(),
        checked,
        unlocated,
        truncated,
        rules.maxSpeedKmh(),
        rules.minDistanceKm(),
        clones,
        Optional.ofNullable(next).map(r -> cursor(branch, dayNumber, r)));
  }

  /**
   * The distinct serials of the notes read at {@code branch} in {@code [start, end)}: the day's
   * settlement rows name the devices that reported there, and each device's devices rows of the day
   * are read in bounded scans.
   */
  private NavigableSet<String> serialsOfDay(String branch, int day, long start, long end) {
    Set<String> devices = new LinkedHashSet<>();
    for (SettlementStore.PieceRow p : settlement.day(branch, day).pieces()) {
      devices.add(p.device());
    }
    NavigableSet<String> out = new TreeSet<>();
    for (String device : devices) {
      byte[] from = BanknoteKeys.DEVICE.prefix(device, start);
      byte[] stop = BanknoteKeys.DEVICE.prefix(device, end);
      boolean inclusive = true;
      while (true) {
        List<BanknoteStore.Row> rows =
            notes.scanDevices(new RowWindow(from, inclusive, stop, DAY_ROWS_PER_SCAN));
        for (BanknoteStore.Row r : rows) {
          if (r.note().branch().equals(branch)) {
            out.add(r.note().serial());
          }
        }
        if (rows.size() < DAY_ROWS_PER_SCAN) {
          break;
        }
        from = rows.get(rows.size() - 1).key();
        inclusive = false;
      }
    }
    return out;
  }

  private static String cursor(String branch, int day, Resume r) {
    return Cursors.encode(
        BanknoteKeys.SWEEP_SCOPE,
        KeyBuilder.create()
            .addString(branch)
            .addInt(day)
            .addString(r.serial())
            .addInt(r.skip())
            .build());
  }

  /** The cursor's place, refused (400 naming cursor) when it is another branch's or day's. */
  private static Resume resume(String cursor, String branch, int day) {
    return Cursors.decode(
        BanknoteKeys.SWEEP_SCOPE,
        cursor,
        r -> {
          String b = r.readString();
          int d = r.readInt();
          Resume at = new Resume(r.readString(), r.readInt());
          if (!b.equals(branch) || d != day || at.skip() < 0) {
            throw new InvalidInputException(
                "cursor",
                "cursor is not valid for this listing; use the 'next' value of the previous page");
          }
          return at;
        });
  }
}
