package org.casebook.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The summary every benchmark prints: one row per measured step. */
public final class BenchTable {
  /** One measured step: {@code count} operations in {@code seconds}, optional latencies, a note. */
  public record Row(
      String step, long count, String unit, double seconds, Latency latency, String note) {
    public double rate() {
      return seconds <= 0 ? 0 : count / seconds;
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("step", step);
      m.put("count", count);
      m.put("unit", unit);
      m.put("seconds", seconds);
      m.put("ratePerSecond", rate());
      if (latency != null) {
        m.put("latency", latency.toJson());
      }
      if (note != null && !note.isEmpty()) {
        m.put("note", note);
      }
      return m;
    }
  }

  private final String title;
  private final List<Row> rows = new ArrayList<>();

  public BenchTable(String title) {
    this.title = title;
  }

  public Row add(
      String step, long count, String unit, double seconds, Latency latency, String note) {
    Row r = new Row(step, count, unit, seconds, latency, note);
    rows.add(r);
    return r;
  }

  public List<Row> rows() {
    return List.copyOf(rows);
  }

  public String render() {
    StringBuilder sb = new StringBuilder(title).append(System.lineSeparator());
    sb.append(
        String.format(
            Locale.ROOT,
            "%-44s %11s %-6s %8s %12s %9s %9s %9s %9s  %s%n",
            "step",
            "count",
            "unit",
            "secs",
            "rate/s",
            "p50 ms",
            "p99 ms",
            "p99.9 ms",
            "max ms",
            "note"));
    for (Row r : rows) {
      Latency l = r.latency();
      String secs = r.seconds() > 0 ? String.format(Locale.ROOT, "%8.2f", r.seconds()) : "-";
      String rate = r.seconds() > 0 ? String.format(Locale.ROOT, "%,12.0f", r.rate()) : "-";
      sb.append(
          String.format(
              Locale.ROOT,
              "%-44s %,11d %-6s %8s %12s %9s %9s %9s %9s  %s%n",
              r.step(),
              r.count(),
              r.unit(),
              secs,
              rate,
              l == null ? "-" : fmt(l.millis(50)),
              l == null ? "-" : fmt(l.millis(99)),
              l == null ? "-" : fmt(l.millis(99.9)),
              l == null ? "-" : fmt(l.maxMillis()),
              r.note() == null ? "" : r.note()));
    }
    return sb.toString();
  }

  public List<Map<String, Object>> toJson() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(r.toJson());
    }
    return out;
  }

  private static String fmt(double ms) {
    return String.format(Locale.ROOT, ms < 10 ? "%.3f" : "%.1f", ms);
  }
}
