package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Compares two archives loaded from the same files (by different import paths, or one under region
 * chaos): their data tables cell by cell, and their answers to the service's queries.
 */
final class ArchiveData {
  /** Differences listed in a failure message (the rest are counted). */
  private static final int SHOWN = 20;

  private ArchiveData() {}

  /** What a table held: rows and cells. */
  record Counted(TableName table, long rows, long cells) {}

  /**
   * Asserts that {@code actual}'s data tables hold exactly {@code expected}'s cells — nothing
   * missing, nothing extra, the same values (timestamps differ between import paths and are
   * ignored) — and that both answer alike for every {@code queryStep}-th of {@code uids}: the user,
   * its statuses (with no id twice) and its newest status by id. Returns what each table of {@code
   * expected} held, in {@link ArchiveService#dataTables()} order.
   */
  static List<Counted> assertSameData(
      Connection connection,
      ArchiveService expected,
      ArchiveService actual,
      List<String> uids,
      int queryStep)
      throws IOException {
    List<Counted> counted = new ArrayList<>();
    for (int i = 0; i < expected.dataTables().size(); i++) {
      counted.add(
          assertSameCells(connection, expected.dataTables().get(i), actual.dataTables().get(i)));
    }
    for (int i = 0; i < uids.size(); i += queryStep) {
      String uid = uids.get(i);
      assertThat(actual.user(uid)).as("user " + uid).isEqualTo(expected.user(uid)).isPresent();
      List<StatusRecord> statuses = expected.statuses(uid, 0, 1000);
      assertThat(actual.statuses(uid, 0, 1000))
          .as("statuses of " + uid)
          .isEqualTo(statuses)
          .extracting(StatusRecord::id)
          .doesNotHaveDuplicates();
      if (!statuses.isEmpty()) {
        long newest = statuses.get(0).id();
        assertThat(actual.status(newest)).as("status " + newest).contains(statuses.get(0));
      }
    }
    return counted;
  }

  /**
   * Walks both tables in key order side by side and fails listing what is missing, extra or
   * changed. A cell written twice with the same timestamp reads as one, so a duplicate shows only
   * where its copies differ (another row, another value).
   */
  private static Counted assertSameCells(
      Connection connection, TableName expected, TableName actual) throws IOException {
    List<String> differences = new ArrayList<>();
    long differing = 0;
    long rows = 0;
    long cells = 0;
    try (Table e = connection.getTable(expected);
        Table a = connection.getTable(actual);
        ResultScanner es = e.getScanner(new Scan().setCaching(1000));
        ResultScanner as = a.getScanner(new Scan().setCaching(1000))) {
      Iterator<Cell> ei = cells(es);
      Iterator<Cell> ai = cells(as);
      Cell x = next(ei);
      Cell y = next(ai);
      byte[] lastRow = null;
      while (x != null || y != null) {
        int cmp = x == null ? 1 : y == null ? -1 : compareColumns(x, y);
        String what = null;
        if (cmp < 0) {
          what = "missing " + show(x);
        } else if (cmp > 0) {
          what = "extra " + show(y);
        } else if (!CellUtil.matchingValue(x, y)) {
          what = "changed " + show(x) + " → " + Bytes.toStringBinary(CellUtil.cloneValue(y));
        }
        if (what != null) {
          differing++;
          if (differences.size() < SHOWN) {
            differences.add(what);
          }
        }
        if (cmp <= 0) {
          cells++;
          if (lastRow == null || !CellUtil.matchingRows(x, lastRow)) {
            rows++;
            lastRow = CellUtil.cloneRow(x);
          }
          x = next(ei);
        }
        if (cmp >= 0) {
          y = next(ai);
        }
      }
    }
    assertThat(differences)
        .as(differing + " cells of " + actual + " differ from " + expected + ", first ones")
        .isEmpty();
    return new Counted(expected, rows, cells);
  }

  /** Row, family, qualifier: a scan's order of the newest versions. */
  private static int compareColumns(Cell x, Cell y) {
    CellComparator c = CellComparator.getInstance();
    int cmp = c.compareRows(x, y);
    if (cmp == 0) {
      cmp = c.compareFamilies(x, y);
    }
    return cmp != 0 ? cmp : c.compareQualifiers(x, y);
  }

  private static Iterator<Cell> cells(ResultScanner scanner) {
    Iterator<Result> results = scanner.iterator();
    return new Iterator<>() {
      private Iterator<Cell> row = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!row.hasNext() && results.hasNext()) {
          row = List.of(results.next().rawCells()).iterator();
        }
        return row.hasNext();
      }

      @Override
      public Cell next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return row.next();
      }
    };
  }

  private static Cell next(Iterator<Cell> cells) {
    return cells.hasNext() ? cells.next() : null;
  }

  private static String show(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneRow(c))
        + " "
        + Bytes.toString(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + " = "
        + Bytes.toStringBinary(CellUtil.cloneValue(c));
  }
}
