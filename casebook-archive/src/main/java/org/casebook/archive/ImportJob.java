package org.casebook.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;
import org.casebook.core.cli.Progress;

/**
 * The one bulk-import orchestration (CLI, REST job, {@code hadoop jar} tool): list the input,
 * compute the pre-split (seed 001 §2.2.1), prepare the tables, load by bulk load or puts, and
 * report, with bad files quarantined ({@link Quarantine}) in both modes.
 */
final class ImportJob {
  /** The input files of a request and their total size. */
  record Listing(Path input, List<Path> files, long bytes) {}

  private final ArchiveService service;
  private final ArchiveStore store;
  private final Connection connection;
  private final Configuration conf;
  private final java.nio.file.Path scratch;

  ImportJob(
      ArchiveService service,
      ArchiveStore store,
      Connection connection,
      Configuration conf,
      java.nio.file.Path scratch) {
    this.service = service;
    this.store = store;
    this.connection = connection;
    this.conf = conf;
    this.scratch = scratch;
  }

  /**
   * The input files: the file itself, or a directory's files that are not hidden, bookkeeping or
   * reason files.
   */
  Listing list(ImportRequest request) {
    Path input = new Path(request.input());
    try {
      FileSystem fs = input.getFileSystem(conf);
      input = fs.makeQualified(input);
      InvalidInputException.check(
          fs.exists(input), "input", "no such file or directory: " + request.input());
      List<Path> files = new ArrayList<>();
      long bytes = 0;
      for (FileStatus s : fs.listStatus(input)) {
        // Hadoop's own bookkeeping files start with '_' (_SUCCESS, _logs).
        String name = s.getPath().getName();
        if (s.isFile() && ArchiveService.isInputName(name) && !name.startsWith("_")) {
          files.add(s.getPath());
          bytes += s.getLen();
        }
      }
      InvalidInputException.check(
          !files.isEmpty(), "input", "no input files in " + request.input());
      files.sort(null);
      return new Listing(input, files, bytes);
    } catch (IOException e) {
      throw fileFailure("list", input, e);
    }
  }

  ImportReport run(ImportRequest request, Listing listing, Progress progress) {
    int servers;
    try (Admin admin = connection.getAdmin()) {
      servers = admin.getRegionServers().size();
    } catch (IOException e) {
      throw StorageException.of("count the region servers", e);
    }
    SplitPlan plan = SplitPlan.compute(listing.bytes(), 1.5, request.regionSizeMb() << 20, servers);
    Layout wanted =
        new Layout(request.regions() != null ? request.regions() : plan.regions(), true);
    Layout layout = service.prepare(wanted, true);
    String computation =
        request.regions() != null ? "--regions " + request.regions() + " given" : plan.explain();
    if (!layout.equals(wanted)) {
      computation +=
          "; the archive already had " + layout.regions() + " regions, kept (keys depend on them)";
    }
    Path quarantine =
        request.quarantine() != null
            ? new Path(request.quarantine())
            : new Path(listing.input().getParent(), "quarantine");
    try {
      return request.mode() == ImportMode.PUT
          ? withPuts(layout, listing.files(), quarantine, request.attempts(), computation, progress)
          : withBulkLoad(layout, listing.files(), quarantine, request, computation, progress);
    } catch (IOException e) {
      throw StorageException.of("import " + request.input(), e);
    }
  }

  /**
   * The put path: each file is read completely before any of it is written through BufferedMutators
   * ({@link ArchiveReader#readAllOrNothing}), so a bad file writes nothing. The time includes
   * flushing the tables' memstores, so the data ends where a bulk load puts it: in HFiles.
   * Reimporting writes the same cells again (no duplicates).
   */
  private ImportReport withPuts(
      Layout layout,
      List<Path> files,
      Path quarantine,
      int attempts,
      String computation,
      Progress progress)
      throws IOException {
    long t0 = System.nanoTime();
    long[] counts = new long[3];
    long bytes = 0;
    int loaded = 0;
    List<ImportReport.Skipped> skipped = new ArrayList<>();
    double writeSeconds;
    try (ArchiveStore.Writers writers = store.writers()) {
      for (Path file : files) {
        progress.detail(file.getName());
        FileSystem fs = file.getFileSystem(conf);
        long size = fs.getFileStatus(file).getLen();
        String failure =
            ArchiveReader.readAllOrNothing(
                    () -> fs.open(file, 1 << 16),
                    size,
                    attempts,
                    ArchiveReader.DEFAULT_HOLD_BYTES,
                    new ArchiveReader.Sink() {
                      @Override
                      public void user(UserRecord user) throws IOException {
                        counts[2] += writers.user(layout, user);
                        counts[0]++;
                      }

                      @Override
                      public void status(StatusRecord status) throws IOException {
                        counts[2] += writers.status(layout, status);
                        counts[1]++;
                      }
                    })
                .orElse(null);
        if (failure != null) {
          skipped.add(Quarantine.move(conf, file, quarantine, failure, attempts));
          continue;
        }
        loaded++;
        bytes += size;
        progress.advance(size);
      }
      writers.flush();
      writeSeconds = (System.nanoTime() - t0) / 1e9;
      progress.detail("flushing memstores");
      store.flushDataTables();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put("write", writeSeconds);
    phases.put("memstoreFlush", seconds - writeSeconds);
    return ImportReport.of(
        ImportMode.PUT,
        layout,
        computation,
        loaded,
        skipped,
        counts[0],
        counts[1],
        counts[2],
        bytes,
        0,
        0,
        phases,
        seconds);
  }

  /**
   * The bulk-load path ({@link ArchiveBulkLoad}): one MapReduce job writes HFiles for the three
   * pre-split tables and they are bulk-loaded; the LocalJobRunner unless the configuration names a
   * cluster framework. The job quarantines bad files; the report lists them from their reason
   * files.
   */
  private ImportReport withBulkLoad(
      Layout layout,
      List<Path> files,
      Path quarantine,
      ImportRequest request,
      String computation,
      Progress progress)
      throws IOException {
    if (request.work() != null) {
      return bulkLoadReport(
          layout, files, quarantine, request, computation, progress, new Path(request.work()));
    }
    // Our own scratch directory: held with a lock while the job runs, deleted afterwards, and
    // left-overs of runs that were killed are removed by the next one.
    ScratchDirs.removeAbandoned(scratch, SCRATCH_PREFIX);
    try (ScratchDirs.Held dir = ScratchDirs.create(scratch, SCRATCH_PREFIX)) {
      return bulkLoadReport(
          layout,
          files,
          quarantine,
          request,
          computation,
          progress,
          new Path(ImportRequest.localUri(dir.path())));
    }
  }

  private static final String SCRATCH_PREFIX = "archive-bulkload-";

  private ImportReport bulkLoadReport(
      Layout layout,
      List<Path> files,
      Path quarantine,
      ImportRequest request,
      String computation,
      Progress progress,
      Path work)
      throws IOException {
    ArchiveBulkLoad.Outcome o;
    try {
      o =
          ArchiveBulkLoad.run(
              connection,
              conf,
              store.schema(),
              layout,
              files,
              work,
              quarantine,
              request.attempts(),
              ArchiveBulkLoad.Partitioning.REGIONS,
              progress);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("bulk load " + request.input(), e);
    }
    List<ImportReport.Skipped> skipped = Quarantine.skipped(conf, quarantine, files);
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put("job", o.jobSeconds());
    phases.put("load", o.loadSeconds());
    return ImportReport.of(
        ImportMode.BULKLOAD,
        layout,
        computation,
        (int) o.filesLoaded(),
        skipped,
        o.users(),
        o.statuses(),
        o.cells(),
        o.bytes(),
        o.hfiles(),
        o.hfileSplits(),
        phases,
        o.seconds());
  }

  /**
   * A local file's failure is the machine's ({@link LocalFileException}); a cluster file system's
   * is storage.
   */
  static RuntimeException fileFailure(String what, Path path, IOException e) {
    if ("file".equals(path.toUri().getScheme())) {
      return LocalFileException.of(what, java.nio.file.Path.of(path.toUri()), e);
    }
    return StorageException.of(what + " " + path, e);
  }
}
