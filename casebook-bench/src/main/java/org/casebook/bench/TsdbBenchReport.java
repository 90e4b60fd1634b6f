package org.casebook.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The figures of {@code bench tsdb}: rounds of a phase, their median, and the printed table. */
final class TsdbBenchReport {
  private TsdbBenchReport() {}

  static void addRound(
      Map<String, Map<String, Object>> figures,
      TsdbClient t,
      String phase,
      Map<String, Object> round) {
    @SuppressWarnings("unchecked") // only this method puts these lists
    List<Map<String, Object>> rounds =
        (List<Map<String, Object>>)
            figures.get(t.name()).computeIfAbsent(phase + " rounds", k -> new ArrayList<>());
    rounds.add(round);
  }

  /** The round with the median rate (the lower middle one of an even count). */
  static Map<String, Object> median(Object rounds) {
    @SuppressWarnings("unchecked") // built by addRound
    List<Map<String, Object>> list = new ArrayList<>((List<Map<String, Object>>) rounds);
    list.sort(java.util.Comparator.comparingDouble(m -> (double) m.get("pointsPerSecond")));
    Map<String, Object> median = new LinkedHashMap<>(list.get((list.size() - 1) / 2));
    median.put("rounds", list.size());
    median.put("minPointsPerSecond", list.get(0).get("pointsPerSecond"));
    median.put("maxPointsPerSecond", list.get(list.size() - 1).get("pointsPerSecond"));
    return median;
  }

  /**
   * Prints the figures of both systems side by side, with their ratio; then the rows of the later
   * steps, each printer given the table's row format.
   */
  static void print(
      Map<String, Map<String, Object>> f,
      java.util.Collection<String> queryNames,
      Map<String, Object> answers,
      List<java.util.function.Consumer<String>> laterSteps) {
    Map<String, Object> c = f.get("casebook");
    Map<String, Object> t = f.get("opentsdb");
    System.out.println();
    System.out.println(
        "bench tsdb: Casebook vs OpenTSDB 2.4.1 on the same embedded HBase (higher rate, lower"
            + " time and bytes are better)");
    String fmt = "%-44s %16s %16s %10s%n";
    System.out.printf(Locale.ROOT, fmt, "step", "Casebook", "OpenTSDB", "C / O");
    for (String phase : List.of("telnet1", "telnet4", "http", "httpSync")) {
      double cr = (double) ((Map<?, ?>) c.get(phase)).get("pointsPerSecond");
      double tr = (double) ((Map<?, ?>) t.get(phase)).get("pointsPerSecond");
      String label =
          switch (phase) {
            case "telnet1" -> "ingest, telnet, 1 connection (points/s)";
            case "telnet4" -> "ingest, telnet, 4 connections (points/s)";
            case "http" -> "ingest, HTTP 50/batch x 4 (points/s)";
            default -> "ingest, HTTP 50/batch x 4, ?sync (points/s)";
          };
      System.out.printf(
          Locale.ROOT,
          fmt,
          label,
          String.format(Locale.ROOT, "%,.0f", cr),
          String.format(Locale.ROOT, "%,.0f", tr),
          String.format(Locale.ROOT, "%.2f", cr / tr));
    }
    for (String q : queryNames) {
      Latency cl = (Latency) c.get("query " + q + " latency");
      Latency tl = (Latency) t.get("query " + q + " latency");
      for (double p : new double[] {50, 99}) {
        System.out.printf(
            Locale.ROOT,
            fmt,
            q + " p" + (int) p + " (ms)",
            String.format(Locale.ROOT, "%.2f", cl.millis(p)),
            String.format(Locale.ROOT, "%.2f", tl.millis(p)),
            String.format(Locale.ROOT, "%.2f", cl.millis(p) / tl.millis(p)));
      }
      System.out.printf(Locale.ROOT, "%-44s %s%n", "  same answer", answers.get(q));
    }
    double cb = (double) c.get("bytesPerPoint");
    double tb = (double) t.get("bytesPerPoint");
    System.out.printf(
        Locale.ROOT,
        fmt,
        "bytes per point on disk (compacted, HFiles)",
        String.format(Locale.ROOT, "%.2f", cb),
        String.format(Locale.ROOT, "%.2f", tb),
        String.format(Locale.ROOT, "%.2f", cb / tb));
    for (java.util.function.Consumer<String> step : laterSteps) {
      step.accept(fmt);
    }
    System.out.println(
        "Telnet: until every point is readable. HTTP: until every put is answered (without ?sync"
            + " queued, with ?sync durable).");
  }
}
