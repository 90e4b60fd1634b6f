package org.casebook.archive.batch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.archive.ImportReport;
import org.casebook.archive.wire.ArchiveReader;

/**
 * The records a salvaged file set aside: {@code NAME.rejects} in the quarantine, one JSON object a
 * line ({@link ArchiveReader.Rejected}). Each read of a file rewrites it from the start, and a read
 * that sets nothing aside removes it, so it always describes the file's latest read and a rerun
 * leaves the same lines, not twice as many.
 */
final class RejectsFile implements ArchiveReader.Rejects, AutoCloseable {
  private final FileSystem fs;
  private final Path path;
  private OutputStream out;

  RejectsFile(Configuration conf, Path quarantine, Path file) throws IOException {
    this.fs = quarantine.getFileSystem(conf);
    this.path = new Path(quarantine, fileName(file.getName()));
  }

  static String fileName(String inputName) {
    return inputName + ".rejects";
  }

  @Override
  public void reject(ArchiveReader.Rejected rejected) throws IOException {
    if (out == null) {
      fs.mkdirs(path.getParent());
      out = fs.create(path, true);
    }
    out.write(rejected.toJsonLine());
  }

  /** Closes the file, or removes the one an earlier read left if this one set nothing aside. */
  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    } else if (fs.exists(path)) {
      fs.delete(path, false);
    }
  }

  /**
   * The files of {@code inputs} still in place whose last read set records aside, read back from
   * their rejects files.
   */
  static List<ImportReport.Salvaged> salvaged(
      Configuration conf, Path quarantine, List<Path> inputs) throws IOException {
    FileSystem qfs = quarantine.getFileSystem(conf);
    List<ImportReport.Salvaged> out = new ArrayList<>();
    for (Path f : inputs) {
      Path rejects = new Path(quarantine, fileName(f.getName()));
      if (!f.getFileSystem(conf).exists(f) || !qfs.exists(rejects)) {
        continue;
      }
      Map<String, Long> byReason = new TreeMap<>();
      long n = 0;
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(qfs.open(rejects), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (!line.isBlank()) {
            String reason = ArchiveReader.Rejected.fromJsonLine(line).reason();
            byReason.merge(reason, 1L, Long::sum);
            n++;
          }
        }
      }
      out.add(new ImportReport.Salvaged(f.toString(), n, byReason, rejects.toString()));
    }
    return out;
  }
}
