package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * {@code casebook bench trails-growth A.json B.json …}: how each trails step's time grows with the
 * records loaded, from {@code bench trails} result files of different sizes. Queries are compared
 * by their p50 and p99, timed steps (loads, the 000 task) by their seconds, and the bytes each side
 * stores per record where the files have them; the table gives each size's figure and the last
 * size's ÷ the first's, and two log–log charts (p50, p99) go next to the JSON.
 */
final class TrailsGrowth {
  /** One result file: the records it loaded and its steps' figures. */
  record Run(Path file, long records, Map<String, Figure> steps) {}

  /**
   * A step's figures; NaN where the step has none (a query has no seconds, a load no p50, only the
   * bytes stored have bytes per record).
   */
  record Figure(double p50Ms, double p99Ms, double seconds, double bytesPerRecord) {
    static Figure latency(double p50Ms, double p99Ms) {
      return new Figure(p50Ms, p99Ms, Double.NaN, Double.NaN);
    }

    static Figure seconds(double seconds) {
      return new Figure(Double.NaN, Double.NaN, seconds, Double.NaN);
    }

    static Figure bytesPerRecord(double bytes) {
      return new Figure(Double.NaN, Double.NaN, Double.NaN, bytes);
    }
  }

  /** The steps holding each side's bytes per record, from the files' storage sections. */
  static final String HBASE_BYTES = "HBase: bytes stored per record (3 tables)";

  static final String POSTGRES_BYTES = "PostgreSQL: bytes stored per record (heap + 2 indexes)";

  private TrailsGrowth() {}

  /** The runs, smallest first; every file must be a {@code bench trails} result. */
  static List<Run> read(List<Path> files) {
    List<Run> runs = new ArrayList<>();
    for (Path f : files) {
      JsonNode root = BenchResults.read(f);
      // The records HBase accepted: the Put ingest's, or the bulk load's when it was the only load.
      JsonNode accepted = root.path("ingest").path("accepted");
      if (!accepted.canConvertToLong()) {
        accepted = root.path("bulkLoad").path("accepted");
      }
      InvalidInputException.check(
          accepted.canConvertToLong() && root.path("results").isArray(),
          "file",
          f + " is not a bench trails result (no ingest.accepted, bulkLoad.accepted or results)");
      Map<String, Figure> steps = new LinkedHashMap<>();
      for (JsonNode r : root.get("results")) {
        JsonNode latency = r.get("latency");
        double seconds = r.path("seconds").asDouble(0);
        Figure fig =
            latency != null
                ? Figure.latency(latency.path("p50Ms").asDouble(), latency.path("p99Ms").asDouble())
                : Figure.seconds(seconds > 0 ? seconds : Double.NaN);
        steps.putIfAbsent(r.path("step").asText(), fig);
      }
      JsonNode hbaseBytes = root.path("hbaseStorage").path("bytesPerRecord");
      if (hbaseBytes.isNumber()) {
        steps.put(HBASE_BYTES, Figure.bytesPerRecord(hbaseBytes.asDouble()));
      }
      JsonNode postgresBytes = root.path("postgresStorage").path("bytesPerRecord");
      if (postgresBytes.isNumber()) {
        steps.put(POSTGRES_BYTES, Figure.bytesPerRecord(postgresBytes.asDouble()));
      }
      runs.add(new Run(f, accepted.asLong(), steps));
    }
    runs.sort(Comparator.comparingLong(Run::records));
    return runs;
  }

  /**
   * A figure's rows: a step and what is measured of it ("p50 ms", "p99 ms", "s" or "B/rec", bytes
   * stored per record).
   */
  record Row(String step, String measure, double[] values) {
    double growth() {
      double first = values[0];
      double last = values[values.length - 1];
      return Double.isNaN(first) || Double.isNaN(last) || first == 0 ? Double.NaN : last / first;
    }
  }

  static List<Row> rows(List<Run> runs) {
    Set<String> steps = new LinkedHashSet<>();
    runs.forEach(r -> steps.addAll(r.steps().keySet()));
    List<Row> out = new ArrayList<>();
    for (String step : steps) {
      addRow(out, runs, step, "p50 ms", Figure::p50Ms);
      addRow(out, runs, step, "p99 ms", Figure::p99Ms);
      addRow(out, runs, step, "s", Figure::seconds);
      addRow(out, runs, step, "B/rec", Figure::bytesPerRecord);
    }
    return out;
  }

  private static void addRow(
      List<Row> out,
      List<Run> runs,
      String step,
      String measure,
      java.util.function.ToDoubleFunction<Figure> of) {
    double[] values = new double[runs.size()];
    boolean any = false;
    for (int i = 0; i < values.length; i++) {
      Figure f = runs.get(i).steps().get(step);
      values[i] = f == null ? Double.NaN : of.applyAsDouble(f);
      any |= !Double.isNaN(values[i]);
    }
    if (any) {
      out.add(new Row(step, measure, values));
    }
  }

  static String table(List<Run> runs, List<Row> rows) {
    StringBuilder out = new StringBuilder();
    for (Run r : runs) {
      out.append(String.format(Locale.ROOT, "%,14d records: %s%n", r.records(), r.file()));
    }
    int width = Math.max(4, rows.stream().mapToInt(r -> r.step().length()).max().orElse(4));
    out.append(String.format(Locale.ROOT, "%-" + width + "s %-6s", "step", ""));
    for (Run r : runs) {
      out.append(String.format(Locale.ROOT, " %12s", records(r.records())));
    }
    out.append(String.format(Locale.ROOT, " %9s%n", "last÷first"));
    for (Row row : rows) {
      out.append(String.format(Locale.ROOT, "%-" + width + "s %-6s", row.step(), row.measure()));
      for (double v : row.values()) {
        out.append(
            String.format(
                Locale.ROOT,
                " %12s",
                Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.3f", v)));
      }
      double g = row.growth();
      out.append(
          String.format(
              Locale.ROOT,
              " %9s%n",
              Double.isNaN(g) ? "—" : String.format(Locale.ROOT, "%.2f×", g)));
    }
    return out.toString();
  }

  /**
   * A record count as a short label: 297k, 2.97M, 9.9M, 99M, 100M — three significant digits at
   * most, trailing zeros dropped.
   */
  static String records(double n) {
    String[] units = {"", "k", "M", "G"};
    int u = 0;
    double v = n;
    while (Math.abs(v) >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    java.math.MathContext three = new java.math.MathContext(3, java.math.RoundingMode.HALF_EVEN);
    java.math.BigDecimal d = new java.math.BigDecimal(v).round(three);
    if (d.abs().compareTo(java.math.BigDecimal.valueOf(1000)) >= 0 && u < units.length - 1) {
      d = new java.math.BigDecimal(v / 1000).round(three); // 999,600 is 1M, not 1000k
      u++;
    }
    return d.stripTrailingZeros().toPlainString() + units[u];
  }

  /** Two PNG charts, query p50 and p99 against records (log–log): the files written. */
  static List<Path> charts(List<Run> runs, List<Row> rows, Path jsonFile) {
    List<Path> written = new ArrayList<>();
    for (String measure : List.of("p50 ms", "p99 ms")) {
      List<LineChartPng.Series> series = new ArrayList<>();
      for (Row row : rows) {
        if (!row.measure().equals(measure)) {
          continue;
        }
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
          double v = row.values()[i];
          if (!Double.isNaN(v) && v > 0) {
            points.add(new double[] {runs.get(i).records(), v});
          }
        }
        if (!points.isEmpty()) {
          series.add(new LineChartPng.Series(row.step(), points));
        }
      }
      String suffix = measure.startsWith("p50") ? "-p50.png" : "-p99.png";
      Path png =
          jsonFile.resolveSibling(jsonFile.getFileName().toString().replace(".json", suffix));
      LineChartPng.write(
          png,
          "bench trails: query " + measure.replace(" ms", "") + " against records loaded",
          "records (log)",
          measure + " (log)",
          series,
          TrailsGrowth::records);
      written.add(png);
    }
    return written;
  }

  /** The growth table as JSON: sizes, and per row its values and growth. */
  static Map<String, Object> json(List<Run> runs, List<Row> rows) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("files", runs.stream().map(r -> r.file().toString()).toList());
    m.put("records", runs.stream().map(Run::records).toList());
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("step", r.step());
      row.put("measure", r.measure());
      List<Double> values = new ArrayList<>();
      for (double v : r.values()) {
        values.add(Double.isNaN(v) ? null : v);
      }
      row.put("values", values);
      row.put("growth", Double.isNaN(r.growth()) ? null : r.growth());
      out.add(row);
    }
    m.put("rows", out);
    return m;
  }
}
