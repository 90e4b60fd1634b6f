package org.casebook.archive;

/**
 * The reason file written next to a quarantined file ({@code NAME.reason}): one format, written
 * by both import modes and read back for the bulk-load report.
 */
final class Quarantine {
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
   * The files of {@code inputs} that a run moved to {@code quarantine}: gone from their place
   * and with a reason file there. Works on any Hadoop file system.
   */
  static java.util.List<ImportReport.Skipped> skipped(org.apache.hadoop.conf.Configuration conf,
                                                      org.apache.hadoop.fs.Path quarantine,
                                                      java.util.List<org.apache.hadoop.fs.Path> inputs) throws java.io.IOException {
    org.apache.hadoop.fs.FileSystem qfs = quarantine.getFileSystem(conf);
    java.util.List<ImportReport.Skipped> out = new java.util.ArrayList<>();
    for (org.apache.hadoop.fs.Path f : inputs) {
      org.apache.hadoop.fs.Path reasonFile = new org.apache.hadoop.fs.Path(quarantine, reasonFileName(f.getName()));
      if (!f.getFileSystem(conf).exists(f) && qfs.exists(reasonFile)) {
        try (java.io.InputStream in = qfs.open(reasonFile)) {
          Reason why = parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
          out.add(new ImportReport.Skipped(f.toString(), why.reason(), why.attempts(),
              new org.apache.hadoop.fs.Path(quarantine, f.getName()).toString()));
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
