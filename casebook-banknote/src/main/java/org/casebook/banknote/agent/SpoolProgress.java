package org.casebook.banknote.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.casebook.core.LocalFileException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's record of how far a file got: {@code .casebook/progress/<name>} holds the count of
 * the file's notes the collector acknowledged, written atomically after each acknowledgement, so a
 * restarted agent resumes there.
 */
final class SpoolProgress {
  private static final Logger LOG = LoggerFactory.getLogger(SpoolProgress.class);

  private SpoolProgress() {}

  /** The notes acknowledged so far; 0 for a file not started (or a progress file unreadable). */
  static int read(Path progress) {
    if (!Files.exists(progress)) {
      return 0;
    }
    try {
      String s = Files.readString(progress, StandardCharsets.US_ASCII).trim();
      return s.isEmpty() ? 0 : Integer.parseInt(s);
    } catch (IOException e) {
      throw LocalFileException.of("read progress", progress, e);
    } catch (NumberFormatException e) {
      // A torn or edited progress file: resending from the start is safe (writes are idempotent).
      LOG.warn(
          "{}: progress unreadable ({}); sending the file from its start",
          progress,
          e.getMessage());
      return 0;
    }
  }

  /** Records {@code acked} notes acknowledged: a temporary file renamed over the old one. */
  static void write(Path progress, int acked) {
    Path tmp = progress.resolveSibling(progress.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, Integer.toString(acked), StandardCharsets.US_ASCII);
      try {
        Files.move(
            tmp, progress, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, progress, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw LocalFileException.of("write progress", progress, e);
    }
  }

  /** Forgets a file's progress (delivered or quarantined). */
  static void delete(Path progress) {
    try {
      Files.deleteIfExists(progress);
    } catch (IOException e) {
      throw LocalFileException.of("delete progress", progress, e);
    }
  }
}
