package org.casebook.banknote.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.casebook.banknote.Settlement;

/** A settlement as the CLI prints it: the day's status, the lines, the devices, the late files. */
final class SettlementTable {
  private SettlementTable() {}

  static String render(Settlement s) {
    StringBuilder out = new StringBuilder();
    out.append("Settlement of branch ")
        .append(s.branch())
        .append(" on ")
        .append(s.day())
        .append(" (")
        .append(s.zone().getId())
        .append("): ")
        .append(s.status().name().toLowerCase(Locale.ROOT));
    if (s.closedAt() != null) {
      out.append(" at ").append(s.closedAt());
    }
    out.append('\n')
        .append(s.devices().size())
        .append(" device(s), ")
        .append(s.totals().total())
        .append(" notes, ")
        .append(s.totals().suspects())
        .append(" suspect\n\n");

    List<List<String>> lines = new ArrayList<>();
    lines.add(
        List.of(
            "device",
            "kind",
            "denomination",
            "deposit",
            "withdrawal",
            "sorting",
            "counting",
            "suspects",
            "total",
            "files"));
    for (Settlement.Line l : s.lines()) {
      lines.add(
          counts(
              l.device(),
              l.deviceKind().name().toLowerCase(Locale.ROOT),
              l.denomination() + " " + l.currency(),
              l.counts(),
              l.files().stream()
                  .map(f -> f.source() + " (" + f.notes() + ")")
                  .collect(Collectors.joining(", "))));
    }
    lines.add(counts("total", "", "", s.totals(), ""));
    table(out, lines, 3, 8);

    out.append('\n');
    List<List<String>> devices = new ArrayList<>();
    devices.add(List.of("device", "notes", "declared", "files"));
    for (Settlement.DeviceDay d : s.devices()) {
      devices.add(
          List.of(
              d.device(),
              String.valueOf(d.counts().total()),
              d.declared() == null ? "not yet" : d.declared().toString(),
              d.files().stream()
                  .map(
                      f ->
                          f.source()
                              + " ("
                              + f.notes()
                              + (f.late() ? ", late" : "")
                              + (f.recounted() ? ", recounted" : "")
                              + ")")
                  .collect(Collectors.joining(", "))));
    }
    table(out, devices, 1, 1);

    if (!s.lateFiles().isEmpty()) {
      out.append("\nLate files (stored at or after their device's declaration):\n");
      List<List<String>> late = new ArrayList<>();
      late.add(List.of("device", "source", "notes", "stored", "declared", "declared again"));
      for (Settlement.LateFile l : s.lateFiles()) {
        late.add(
            List.of(
                l.device(),
                l.source(),
                String.valueOf(l.notes()),
                l.stored().toString(),
                l.declared().toString(),
                l.redeclared() ? "yes" : "no"));
      }
      table(out, late, 2, 2);
    }
    return out.toString();
  }

  private static List<String> counts(
      String device, String kind, String denomination, Settlement.Counts c, String files) {
    return List.of(
        device,
        kind,
        denomination,
        String.valueOf(c.deposit()),
        String.valueOf(c.withdrawal()),
        String.valueOf(c.sorting()),
        String.valueOf(c.counting()),
        String.valueOf(c.suspects()),
        String.valueOf(c.total()),
        files);
  }

  /**
   * Columns padded to their widest cell; columns {@code [firstNumber, lastNumber]} right-aligned.
   */
  private static void table(
      StringBuilder out, List<List<String>> rows, int firstNumber, int lastNumber) {
    int columns = rows.get(0).size();
    int[] width = new int[columns];
    for (List<String> r : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    for (List<String> r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        String v = r.get(i);
        String pad = " ".repeat(width[i] - v.length());
        if (i > 0) {
          line.append("  ");
        }
        boolean number = i >= firstNumber && i <= lastNumber;
        line.append(number ? pad + v : i == columns - 1 ? v : v + pad);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
