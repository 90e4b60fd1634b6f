package org.casebook.trails;

import java.nio.file.Path;
import java.util.Objects;
import org.casebook.core.InvalidInputException;

/**
 * How to ingest a log.
 *
 * @param rejectsFile where rejected lines go (line number, reason, the line)
 * @param history which history tables are written besides the events table
 * @param threads parser/writer threads
 */
public record IngestOptions(Path rejectsFile, HistoryTables history, int threads) {
  public IngestOptions {
    Objects.requireNonNull(rejectsFile, "rejectsFile is null");
    Objects.requireNonNull(history, "history is null");
    InvalidInputException.check(threads >= 1 && threads <= 64, "threads", "threads must be 1..64");
  }
}
