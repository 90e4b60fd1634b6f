package org.casebook.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code bench docs}' comparisons: the load against the raw ceiling, the reads side by side. */
final class DocsBenchReport {
  private DocsBenchReport() {}

  /** The raw ceiling's row: the median of the timed rounds' rates (rows a second). */
  static double rawRow(
      BenchTable table, List<Double> rawRowsPerSecond, int rawRows, int rawCells, long meanBytes) {
    List<Double> sorted = rawRowsPerSecond.stream().sorted().toList();
    double raw = sorted.get((sorted.size() - 1) / 2);
    table.add(
        rawCells == 1
            ? "raw BufferedMutator write, one cell a row"
            : "raw BufferedMutator write, " + rawCells + " cells a row",
        rawRows,
        "rows",
        rawRows / raw,
        null,
        String.format(
            Locale.ROOT,
            "%.1f MB/s at %d B (median of %d, %.1f-%.1f)",
            raw * meanBytes / 1e6,
            meanBytes,
            sorted.size(),
            sorted.get(0) * meanBytes / 1e6,
            sorted.get(sorted.size() - 1) * meanBytes / 1e6));
    return raw;
  }

  static String comparisons(
      BenchTable table,
      Double rawCellsPerSecond,
      int rawCells,
      long meanBytes,
      Map<String, Object> json) {
    Map<String, BenchTable.Row> rows = new LinkedHashMap<>();
    table.rows().forEach(r -> rows.put(r.step(), r));
    StringBuilder sb = new StringBuilder("comparisons:\n");
    Map<String, Object> r = new LinkedHashMap<>();
    BenchTable.Row load = rows.get("Casebook: _bulk load");
    if (rawCellsPerSecond != null && load != null) {
      String cells = rawCells == 1 ? "" : ", " + rawCells + " cells a row";
      double rawBytes = rawCellsPerSecond * meanBytes;
      double loadBytes = load.rate() * meanBytes;
      double ratio = loadBytes / rawBytes;
      sb.append(
          String.format(
              Locale.ROOT,
              "  bulk load %.1f MB/s = %.2fx the raw BufferedMutator byte rate (%.1f MB/s, %d B"
                  + " values%s);%s%n",
              loadBytes / 1e6,
              ratio,
              rawBytes / 1e6,
              meanBytes,
              cells,
              rawCells == 1 ? " target >= 0.8x" : " the issue's target is against one cell"));
      r.put("bulkVsRawBytes", ratio);
    }
    BenchTable.Row read = rows.get("Casebook: read one document");
    if (read != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  single read p99 %.2f ms (target <= 5 ms)%n",
              read.latency().millis(99)));
      r.put("readP99Ms", read.latency().millis(99));
    }
    for (String what : List.of("read one document", "a blog with its 100 comments")) {
      BenchTable.Row hb = rows.get("Casebook: " + what);
      BenchTable.Row pg = rows.get("PostgreSQL: " + what);
      if (hb != null && pg != null) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  %s: Casebook p50 %.2f / p99 %.2f ms, PostgreSQL p50 %.2f / p99 %.2f ms%n",
                what,
                hb.latency().millis(50),
                hb.latency().millis(99),
                pg.latency().millis(50),
                pg.latency().millis(99)));
      }
    }
    json.put("comparisons", r);
    return sb.toString();
  }
}
