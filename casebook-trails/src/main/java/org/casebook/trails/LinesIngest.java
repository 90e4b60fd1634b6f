package org.casebook.trails;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import org.casebook.core.InvalidInputException;
import org.casebook.trails.wire.LogLines;

/**
 * The Put ingest of one uploaded body of log lines: the file ingest's line rules, tally and writers
 * ({@link LineTally}, {@link IngestStore}), on the caller's thread — the server bounds a body's
 * size, so workers would cost more than they save. The writers are closed before the report, so a
 * report means the cells are stored.
 */
final class LinesIngest {
  /** Rejected lines an upload's report lists; the rest are only counted. */
  static final int REJECTS_LISTED = 100;

  private LinesIngest() {}

  static LinesReport run(
      IngestStore store, byte[] ndjson, int maxLines, BehaviourLookup behaviours) {
    Objects.requireNonNull(ndjson, "ndjson is null");
    InvalidInputException.check(
        ndjson.length > 0, "body", "request body is empty; log lines (NDJSON) are required");
    // Counted before anything is written, so a refused body leaves nothing behind.
    long lines = LogLines.countLines(ndjson);
    InvalidInputException.check(
        lines <= maxLines,
        "body",
        "request body has " + lines + " lines; at most " + maxLines + " per request");
    LineTally tally = new LineTally(REJECTS_LISTED, behaviours);
    long lineNo = 0;
    try (IngestStore.Writers writers = store.writers(HistoryTables.BOTH)) {
      InputStream in = new ByteArrayInputStream(ndjson);
      byte[] line;
      while ((line = LogLines.readLine(in)) != null) {
        lineNo++;
        tally.clean(writers, lineNo, lineNo == 1 ? LogLines.withoutByteOrderMark(line) : line);
      }
    } catch (IOException e) {
      throw new IllegalStateException("reading an array failed", e);
    }
    List<LinesReport.Rejected> listed =
        tally.rejects().stream()
            .map(r -> new LinesReport.Rejected(r.line(), r.reason(), r.text()))
            .toList();
    return new LinesReport(
        lineNo,
        tally.accepted(),
        tally.rejected(),
        tally.cells(),
        tally.reasons(),
        listed,
        tally.rejected() - listed.size());
  }
}
