package org.casebook.banknote;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The counts of some notes of one device's file on one branch's business day: what a settlement
 * summary row holds for the piece (collector batch, FSN piece, bulk write) that carried them. One
 * cell per (currency, denomination, operation, local hour) with its notes and the suspect ones
 * among them; {@code first} and {@code last} are the lowest and highest record numbers counted,
 * which is how the settlement sees two rows counting the same records (a file sent again in other
 * pieces).
 *
 * @param kind the device's kind, as the first counted note said
 */
record PieceCounts(DeviceKind kind, long first, long last, List<Cell> cells) {

  /** Notes of one currency, denomination, operation and hour of the day (0..23, local). */
  record Cell(
      String currency, int denomination, Operation operation, int hour, long notes, long suspects) {
    Cell {
      Objects.requireNonNull(currency, "currency is null");
      Objects.requireNonNull(operation, "operation is null");
      if (hour < 0 || hour > 23) {
        throw new IllegalArgumentException("hour must be 0..23, got " + hour);
      }
      if (notes < 1 || suspects < 0 || suspects > notes) {
        throw new IllegalArgumentException(
            "a cell counts 1 or more notes and at most as many suspects: "
                + notes
                + ", "
                + suspects);
      }
    }
  }

  /** Cells in a fixed order, so the same notes always encode to the same bytes. */
  static final Comparator<Cell> ORDER =
      Comparator.comparing(Cell::currency)
          .thenComparingInt(Cell::denomination)
          .thenComparing(Cell::operation)
          .thenComparingInt(Cell::hour);

  PieceCounts {
    Objects.requireNonNull(kind, "kind is null");
    if (first < 0 || last < first) {
      throw new IllegalArgumentException("records " + first + ".." + last + " are not a range");
    }
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort(ORDER);
    for (int i = 1; i < sorted.size(); i++) {
      if (ORDER.compare(sorted.get(i - 1), sorted.get(i)) == 0) {
        throw new IllegalArgumentException("two cells for " + sorted.get(i));
      }
    }
    if (sorted.isEmpty()) {
      throw new IllegalArgumentException("a piece counts at least one note");
    }
    cells = List.copyOf(sorted);
  }

  long notes() {
    return cells.stream().mapToLong(Cell::notes).sum();
  }

  /** Whether the record ranges of this and {@code other} share a record number. */
  boolean overlaps(PieceCounts other) {
    return first <= other.last && other.first <= last;
  }

  /**
   * Adds notes one at a time (the ingest's hot path: a run of notes of one cell is counted without
   * a map lookup).
   */
  static final class Builder {
    private final Map<Long, long[]> cells = new HashMap<>();
    private final List<String> currencies = new ArrayList<>(2);
    private DeviceKind kind;
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private long lastKey = -1;
    private long[] lastCell;

    /** Counts {@code n}, read at local hour {@code hour} of its day. */
    void add(Note n, int hour) {
      if (kind == null) {
        kind = n.deviceKind();
      }
      first = Math.min(first, n.record());
      last = Math.max(last, n.record());
      long key = key(n, hour);
      long[] c;
      if (key == lastKey) {
        c = lastCell;
      } else {
        c = cells.computeIfAbsent(key, k -> new long[2]);
        lastKey = key;
        lastCell = c;
      }
      c[0]++;
      if (n.verdict() == Verdict.SUSPECT) {
        c[1]++;
      }
    }

    boolean isEmpty() {
      return cells.isEmpty();
    }

    /** The lowest record number counted (the summary row's key). */
    long first() {
      return first;
    }

    PieceCounts build() {
      List<Cell> out = new ArrayList<>(cells.size());
      for (Map.Entry<Long, long[]> e : cells.entrySet()) {
        long k = e.getKey();
        out.add(
            new Cell(
                currencies.get((int) (k >>> 48)),
                (int) ((k >>> 16) & 0xFFFF_FFFFL),
                Operation.values()[(int) ((k >>> 8) & 0xFF)],
                (int) (k & 0xFF),
                e.getValue()[0],
                e.getValue()[1]));
      }
      return new PieceCounts(kind, first, last, out);
    }

    /** currency index (15 bits) | denomination (32) | operation (8) | hour (8). */
    private long key(Note n, int hour) {
      int currency = currencies.indexOf(n.currency());
      if (currency < 0) {
        currency = currencies.size();
        currencies.add(n.currency());
      }
      return ((long) currency << 48)
          | ((n.denomination() & 0xFFFF_FFFFL) << 16)
          | ((long) n.operation().ordinal() << 8)
          | hour;
    }
  }
}
