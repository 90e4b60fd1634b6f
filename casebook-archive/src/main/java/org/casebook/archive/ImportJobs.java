package org.casebook.archive;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.ConflictException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.StorageException;
import org.casebook.core.cli.Progress;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST import jobs of one running archive: one at a time on the system's background executor,
 * kept in memory (the newest {@link #KEPT}), and each finished one also written to {@code meta} for
 * the record.
 */
final class ImportJobs {
  private static final Logger LOG = LoggerFactory.getLogger(ImportJobs.class);
  private static final String SCOPE = "archive.imports";

  /** Jobs kept in memory; older ones are only in {@code meta}. */
  static final int KEPT = 1000;

  private final ArchiveStore store;
  private final ExecutorService runner;
  private final Clock clock;
  private final AtomicLong sequence = new AtomicLong();

  /** By sequence number, newest first. */
  private final ConcurrentSkipListMap<Long, ImportJobStatus> jobs =
      new ConcurrentSkipListMap<>(java.util.Comparator.reverseOrder());

  private String running;

  ImportJobs(ArchiveStore store, ExecutorService runner, Clock clock) {
    this.store = store;
    this.runner = runner;
    this.clock = clock;
  }

  /**
   * Lists the input now (a missing or empty input is a 400 before anything starts), then runs in
   * the background.
   */
  synchronized ImportJobStatus start(ImportRequest request, ImportJob importer) {
    if (running != null) {
      throw new ConflictException(
          "import " + running + " is still running; start another when it has finished");
    }
    ImportJob.Listing listing = importer.list(request);
    Instant started = clock.instant();
    long seq = sequence.incrementAndGet();
    String id = started.toEpochMilli() + "-" + seq;
    ImportJobStatus status =
        new ImportJobStatus(
            id,
            ImportJobStatus.RUNNING,
            request.input(),
            request.mode().label(),
            started.toString(),
            null,
            null,
            null);
    jobs.put(seq, status);
    running = id;
    try {
      runner.execute(() -> run(seq, status, request, listing, importer));
    } catch (RejectedExecutionException e) {
      jobs.remove(seq);
      running = null;
      throw new IllegalStateException("the archive is shutting down; import not started", e);
    }
    while (jobs.size() > KEPT) {
      jobs.pollLastEntry();
    }
    return status;
  }

  private void run(
      long seq,
      ImportJobStatus status,
      ImportRequest request,
      ImportJob.Listing listing,
      ImportJob importer) {
    ImportJobStatus done;
    try (Progress progress =
        Progress.logging("archive import " + status.id(), listing.bytes(), "bytes")) {
      ImportReport report = importer.run(request, listing, progress);
      done = finished(status, ImportJobStatus.SUCCEEDED, report, null);
    } catch (RuntimeException | Error e) {
      LOG.warn("archive import {} failed", status.id(), e);
      done = finished(status, ImportJobStatus.FAILED, null, String.valueOf(e.getMessage()));
    }
    try {
      store.saveImport(
          Instant.parse(status.startedAt()).toEpochMilli(), status.id(), Json.writeBytes(done));
    } catch (StorageException e) {
      LOG.warn(
          "archive import {} finished but could not be recorded in meta: {}",
          status.id(),
          e.getMessage());
    }
    synchronized (this) {
      jobs.put(seq, done);
      running = null;
    }
  }

  private ImportJobStatus finished(
      ImportJobStatus s, String state, ImportReport report, String error) {
    return new ImportJobStatus(
        s.id(),
        state,
        s.input(),
        s.mode(),
        s.startedAt(),
        clock.instant().toString(),
        report,
        error);
  }

  ImportJobStatus get(String id) {
    for (ImportJobStatus s : jobs.values()) {
      if (s.id().equals(id)) {
        return s;
      }
    }
    throw new NotFoundException("no import job " + id + " in this server's memory");
  }

  Page<ImportJobStatus> list(PageRequest page) {
    Map<Long, ImportJobStatus> from =
        page.cursor()
            .map(c -> jobs.tailMap(Cursors.decode(SCOPE, c, r -> r.readLong()), false))
            .orElse(jobs);
    List<Map.Entry<Long, ImportJobStatus>> fetched = new ArrayList<>();
    for (Map.Entry<Long, ImportJobStatus> e : from.entrySet()) {
      if (fetched.size() == page.fetchSize()) {
        break;
      }
      fetched.add(Map.entry(e.getKey(), e.getValue()));
    }
    return Page.of(
            fetched,
            page.limit(),
            e -> Cursors.encode(SCOPE, KeyBuilder.create().addLong(e.getKey()).build()))
        .map(Map.Entry::getValue);
  }
}
