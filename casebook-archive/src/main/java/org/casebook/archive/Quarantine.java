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

  static Reason parse(String text) {
    String reason = text.substring(text.indexOf("reason: ") + 8).strip();
    int attempts = Integer.parseInt(text.replaceAll("(?s).*attempts: (\\d+).*", "$1"));
    return new Reason(reason, attempts);
  }
}
