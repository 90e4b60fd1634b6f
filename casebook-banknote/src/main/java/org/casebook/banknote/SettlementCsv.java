package org.casebook.banknote;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A settlement as CSV (RFC 4180: comma-separated, CRLF line ends, a field quoted when it holds a
 * comma, a quote or a line break): a header line, then one line per device and denomination. The
 * {@code files} field lists each file as {@code source=notes}, separated by {@code ;}.
 */
public final class SettlementCsv {
  /** The header line's fields. */
  public static final List<String> HEADER =
      List.of(
          "branch",
          "day",
          "status",
          "device",
          "deviceKind",
          "currency",
          "denomination",
          "deposit",
          "withdrawal",
          "sorting",
          "counting",
          "suspects",
          "total",
          "files");

  private SettlementCsv() {}

  public static String write(Settlement s) {
    StringBuilder out = new StringBuilder();
    line(out, HEADER);
    String status = s.status().name().toLowerCase(java.util.Locale.ROOT);
    for (Settlement.Line l : s.lines()) {
      Settlement.Counts c = l.counts();
      line(
          out,
          List.of(
              s.branch(),
              s.day().toString(),
              status,
              l.device(),
              l.deviceKind().name().toLowerCase(java.util.Locale.ROOT),
              l.currency(),
              String.valueOf(l.denomination()),
              String.valueOf(c.deposit()),
              String.valueOf(c.withdrawal()),
              String.valueOf(c.sorting()),
              String.valueOf(c.counting()),
              String.valueOf(c.suspects()),
              String.valueOf(c.total()),
              l.files().stream()
                  .map(f -> f.source() + "=" + f.notes())
                  .collect(Collectors.joining(";"))));
    }
    return out.toString();
  }

  private static void line(StringBuilder out, List<String> fields) {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(field(fields.get(i)));
    }
    out.append("\r\n");
  }

  /** The field as written: quoted, its quotes doubled, when it holds a comma, quote or break. */
  static String field(String v) {
    if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
      return v;
    }
    return '"' + v.replace("\"", "\"\"") + '"';
  }
}
