package org.casebook.trails.wire;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.casebook.core.LocalFileException;

/**
 * The rejects file of an ingest run: a header, then {@code line<TAB>reason<TAB>line as read} per
 * rejected line, in line order (the same file from both ingest paths).
 */
public final class RejectsFile {
  private RejectsFile() {}

  /** A rejected line: its number, the full reason, and the line as read. */
  public record Reject(long line, String reason, String text) {}

  /** {@code s} on one line of a tab-separated rejects file. */
  public static String oneLine(String s) {
    return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  /** Writes the rejects file: a header, then one line per reject in line order. */
  public static void write(List<Reject> rejects, Path file) {
    List<Reject> sorted = new ArrayList<>(rejects);
    sorted.sort(Comparator.comparingLong(Reject::line));
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write("# line\treason\tline as read\n");
        for (Reject r : sorted) {
          w.write(r.line() + "\t" + oneLine(r.reason()) + "\t" + oneLine(r.text()) + "\n");
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("write", file, e);
    }
  }
}
