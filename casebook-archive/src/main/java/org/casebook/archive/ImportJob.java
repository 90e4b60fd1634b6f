package org.casebook.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.archive.batch.ArchiveBulkLoad;
import org.casebook.archive.batch.DryRunLoad;
import org.casebook.archive.batch.LoadPlan;
import org.casebook.archive.batch.PutLoad;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;

/**
 * The one import orchestration (CLI, REST job, {@code hadoop jar} tool): list the input, compute
 * the pre-split (seed 001 §2.2.1), prepare the tables, load by bulk load or puts (the loaders in
 * {@code batch}, which quarantine bad files in both modes), and report.
 */
final class ImportJob {
  /** The input files of a request and their total size. */
  record Listing(Path input, List<Path> files, long bytes) {}

  private final ArchiveStore store;
  private final SystemContext ctx;
  private final Configuration conf;
  private final long holdBytes;

  ImportJob(ArchiveStore store, SystemContext ctx, long holdBytes) {
    this.store = store;
    this.ctx = ctx;
    this.conf = ctx.configuration();
    this.holdBytes = holdBytes;
  }

  /**
   * Whether a file in an input directory is input: not hidden, not a quarantine reason or rejects
   * file.
   */
  static boolean isInputName(String name) {
    return !name.startsWith(".") && !name.endsWith(".reason") && !name.endsWith(".rejects");
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
        if (s.isFile() && isInputName(name) && !name.startsWith("_")) {
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
    // The master is asked for the RegionServers only when the regions are not given: an import
    // with its regions given starts while the master is down (or restarting).
    SplitPlan plan =
        request.regions() != null
            ? null
            : SplitPlan.compute(
                listing.bytes(), 1.5, request.regionSizeMb() << 20, store.regionServers());
    Layout wanted = new Layout(plan == null ? request.regions() : plan.regions(), true);
    // A dry run creates nothing: it measures with the archive's layout, or the one it would create.
    Layout layout =
        request.dryRun()
            ? store.layout().orElse(wanted)
            : store.prepare(ArchiveTables.regionIds(wanted));
    String computation =
        plan == null ? "--regions " + request.regions() + " given" : plan.explain();
    if (!layout.equals(wanted)) {
      computation +=
          "; the archive already had " + layout.regions() + " regions, kept (keys depend on them)";
    }
    Path quarantine =
        request.quarantine() != null
            ? new Path(request.quarantine())
            : new Path(listing.input().getParent(), "quarantine");
    LoadPlan load =
        new LoadPlan(
            store.schema().dataTables(),
            layout,
            listing.files(),
            quarantine,
            request.work() == null ? null : new Path(request.work()),
            ctx.dataDir().resolve("tmp"),
            request.attempts(),
            holdBytes,
            request.partitioning(),
            request.badRecords());
    LoadOutcome outcome;
    ImportReport.Estimate estimate = null;
    try {
      if (request.dryRun()) {
        DryRunLoad.Result dry = DryRunLoad.run(conf, load, progress);
        outcome = dry.outcome();
        estimate = dry.estimate();
      } else {
        outcome =
            request.mode() == ImportMode.PUT
                ? PutLoad.run(ctx, load, progress)
                : ArchiveBulkLoad.run(ctx, load, progress);
      }
    } catch (IOException e) {
      throw StorageException.of("import " + request.input(), e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("import " + request.input(), e);
    }
    return ImportReport.of(
        request.mode(), request.badRecords(), layout, computation, outcome, estimate);
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
