package org.casebook.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code bench trails}' comparisons: HBase against the raw ceiling and against PostgreSQL. */
final class TrailsComparisons {
  private TrailsComparisons() {}

  /**
   * The comparisons printed at the end, also put under {@code comparisons} in {@code json}: the Put
   * ingest against the raw ceiling, each query's p50 and p99 and the loads and the 000 task against
   * PostgreSQL's, and the bytes stored per record on both sides, each against the targets.
   */
  static String ratios(BenchTable table, RawBenchmark.Figures raw, Map<String, Object> json) {
    Map<String, BenchTable.Row> rows = new LinkedHashMap<>();
    table.rows().forEach(r -> rows.put(r.step(), r));
    StringBuilder sb = new StringBuilder("comparisons:\n");
    Map<String, Object> r = new LinkedHashMap<>();
    BenchTable.Row ingest = rows.get("HBase ingest (events + tall + wide)");
    if (raw != null && ingest != null) {
      double ratio = ingest.rate() / raw.writeCellsPerSecond();
      sb.append(
          String.format(
              Locale.ROOT,
              "  ingest %,.0f cells/s = %.2fx the raw BufferedMutator rate (%,.0f cells/s); target >= 0.8x%n",
              ingest.rate(),
              ratio,
              raw.writeCellsPerSecond()));
      r.put("ingestVsRawWrite", ratio);
    }
    // The targets at 300k records: p50 within 3x of PostgreSQL's and p99 within 2x.
    pair(sb, r, rows, "trail, Scan", " (default plan)");
    pair(sb, r, rows, "trail, Gets", " (the seed's plan, kept for comparison)");
    pair(sb, r, rows, "100 users'", "");
    pair(sb, r, rows, "latest 20", " (wide, the default layout)");
    BenchTable.Row hbTask = rows.get("HBase: 000 task, direct");
    BenchTable.Row pgTask = rows.get("PostgreSQL: 000 task (GROUP BY + fetch)");
    if (hbTask != null && pgTask != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  000 task: HBase %.3f s, PostgreSQL %.3f s (HBase/PostgreSQL %.2fx, target <= 2x: %s)%n",
              hbTask.seconds(),
              pgTask.seconds(),
              hbTask.seconds() / pgTask.seconds(),
              met(hbTask.seconds() / pgTask.seconds() <= 2)));
      r.put("task000HBaseVsPostgresSeconds", List.of(hbTask.seconds(), pgTask.seconds()));
    }
    BenchTable.Row pgLoad = rows.get("PostgreSQL: load + index");
    BenchTable.Row bulk = rows.get("HBase bulk load (MapReduce, HFiles)");
    if (bulk != null && pgLoad != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  bulk load: HBase %.1f s (3 tables, MapReduce + HFiles), PostgreSQL %.1f s:"
                  + " HBase/PostgreSQL %.2fx, target <= 2x: %s%n",
              bulk.seconds(),
              pgLoad.seconds(),
              bulk.seconds() / pgLoad.seconds(),
              met(bulk.seconds() / pgLoad.seconds() <= 2)));
      r.put("bulkLoadHBaseVsPostgresSeconds", List.of(bulk.seconds(), pgLoad.seconds()));
    }
    if (ingest != null && pgLoad != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  loading through Puts: HBase %.1f s (3 tables), PostgreSQL %.1f s (COPY + indexes):"
                  + " HBase/PostgreSQL %.2fx%n",
              ingest.seconds(),
              pgLoad.seconds(),
              ingest.seconds() / pgLoad.seconds()));
      r.put("loadHBaseVsPostgresSeconds", List.of(ingest.seconds(), pgLoad.seconds()));
    }
    if (json.get("hbaseStorage") instanceof Map<?, ?> hb
        && json.get("postgresStorage") instanceof Map<?, ?> pg
        && hb.get("bytesPerRecord") instanceof Double hbPerRecord
        && pg.get("bytesPerRecord") instanceof Double pgPerRecord
        && pgPerRecord > 0) {
      double ratio = hbPerRecord / pgPerRecord;
      sb.append(
          String.format(
              Locale.ROOT,
              "  bytes per record, HBase ÷ PostgreSQL: %.1f B (3 tables' store files) / %.1f B"
                  + " (heap + 2 indexes) = %.2fx, target < 1x (fewer bytes than PostgreSQL): %s%n",
              hbPerRecord,
              pgPerRecord,
              ratio,
              met(ratio < 1)));
      r.put("bytesPerRecordHBaseVsPostgres", List.of(hbPerRecord, pgPerRecord));
    }
    json.put("comparisons", r);
    return sb.toString();
  }

  /** One query's p50 and p99 on both sides, against the targets (p50 <= 3x, p99 <= 2x). */
  private static void pair(
      StringBuilder sb,
      Map<String, Object> r,
      Map<String, BenchTable.Row> rows,
      String what,
      String remark) {
    BenchTable.Row hb = null;
    BenchTable.Row pg = null;
    String pgWhat = what.startsWith("trail,") ? "-day trail" : what;
    for (BenchTable.Row row : rows.values()) {
      if (row.latency() == null) {
        continue;
      }
      if (row.step().contains(what)
          && hb == null
          && (row.step().startsWith("HBase:") || row.step().startsWith("HBase 004 wide"))) {
        hb = row;
      } else if (row.step().startsWith("PostgreSQL") && row.step().contains(pgWhat)) {
        pg = row;
      }
    }
    if (hb == null || pg == null) {
      return;
    }
    double h50 = hb.latency().millis(50);
    double p50 = pg.latency().millis(50);
    double h99 = hb.latency().millis(99);
    double p99 = pg.latency().millis(99);
    sb.append(
        String.format(
            Locale.ROOT,
            "  %s%s: p50 HBase %.2f / PostgreSQL %.2f ms = %.2fx (<= 3x: %s), "
                + "p99 %.2f / %.2f ms = %.2fx (<= 2x: %s)%n",
            hb.step().replaceFirst("^HBase[^:]*: ", ""),
            remark,
            h50,
            p50,
            h50 / p50,
            met(h50 / p50 <= 3),
            h99,
            p99,
            h99 / p99,
            met(h99 / p99 <= 2)));
    r.put(what + " p50", List.of(h50, p50));
    r.put(what + " p99", List.of(h99, p99));
  }

  private static String met(boolean met) {
    return met ? "met" : "NOT met";
  }
}
