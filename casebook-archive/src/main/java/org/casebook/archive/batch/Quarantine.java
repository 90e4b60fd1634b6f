package org.casebook.archive.batch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.archive.ImportReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quarantine of bad files, for both import modes: the file is moved aside with a reason file
 * ({@code NAME.reason}) next to it, on any Hadoop file system (the local one included), and the
 * report reads the reason files back.
 */
final class Quarantine {
  private static final Logger LOG = LoggerFactory.getLogger(Quarantine.class);

  /** What a reason file says. */
  record Reason(String reason, int attempts) {}

  private Quarantine() {}

  static String reasonFileName(String fileName) {
    return fileName + ".reason";
  }

  static String text(String file, int attempts, String reason) {
    return "file: " + file + "\nattempts: " + attempts + "\nreason: " + reason + "\n";
  }

  /**
   * Moves {@code file} into {@code dir} and writes its reason file; idempotent when the file is
   * already there (a task attempt that quarantines again after a retry).
   */
  static ImportReport.Skipped move(
      Configuration conf, Path file, Path dir, String reason, int attempts) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    fs.mkdirs(dir);
    Path target = new Path(dir, file.getName());
    FileSystem source = file.getFileSystem(conf);
    if (source.exists(file)) {
      fs.delete(target, false);
      if (!source.rename(file, target)) {
        throw new IOException("could not move " + file + " to " + target);
      }
    }
    try (OutputStream out = fs.create(new Path(dir, reasonFileName(file.getName())), true)) {
      out.write(text(file.toString(), attempts, reason).getBytes(StandardCharsets.UTF_8));
    }
    LOG.warn("quarantined {} after {} attempt(s): {}", file, attempts, reason);
    return new ImportReport.Skipped(file.toString(), reason, attempts, target.toString());
  }

  /**
   * The files of {@code inputs} that a run moved to {@code quarantine}: gone from their place and
   * with a reason file there.
   */
  static List<ImportReport.Skipped> skipped(Configuration conf, Path quarantine, List<Path> inputs)
      throws IOException {
    FileSystem qfs = quarantine.getFileSystem(conf);
    List<ImportReport.Skipped> out = new ArrayList<>();
    for (Path f : inputs) {
      Path reasonFile = new Path(quarantine, reasonFileName(f.getName()));
      if (!f.getFileSystem(conf).exists(f) && qfs.exists(reasonFile)) {
        try (InputStream in = qfs.open(reasonFile)) {
          Reason why = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          out.add(
              new ImportReport.Skipped(
                  f.toString(),
                  why.reason(),
                  why.attempts(),
                  new Path(quarantine, f.getName()).toString()));
        }
      }
    }
    return out;
  }

  static Reason parse(String text) {
    String reason = text.substring(text.indexOf("reason: ") + 8).strip();
    int attempts = Integer.parseInt(text.replaceAll("(?s).*attempts: (\\d+).*", "$1"));
    return new Reason(reason, attempts);
  }
}
