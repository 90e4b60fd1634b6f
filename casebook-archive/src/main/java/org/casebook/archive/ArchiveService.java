package org.casebook.archive;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Weibo archive (seed 001): import of Weibo-API JSON files into the user and status tables,
 * with bad files set aside (SK-bad), and the queries on the result. Thread-safe.
 */
public final class ArchiveService {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveService.class);
  private final ArchiveStore store;
  private final Connection connection;

  public ArchiveService(Connection connection) {
    this(connection, ArchiveSchema.DEFAULT_NAMESPACE);
  }

  public ArchiveService(Connection connection, String namespace) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.store = new ArchiveStore(connection, ArchiveSchema.in(namespace));
  }

  /** The meta table (the data tables are created by the first import, pre-split for its data). */
  public static List<TableSpec> schemas(String namespace) {
    return List.of(ArchiveSchema.in(namespace).metaSpec());
  }

  /** The recorded layout, if an import has created the tables. */
  public Optional<Layout> layout() {
    return store.layout();
  }

  /**
   * Creates the data tables for {@code wanted} unless they exist; an existing archive keeps its
   * layout (keys depend on it). Returns the layout in force.
   */
  public Layout prepare(Layout wanted, boolean preSplit) {
    SchemaManager schemas = new SchemaManager(connection);
    schemas.ensure(store.schema().metaSpec());
    Optional<Layout> existing = store.layout();
    if (existing.isPresent()) {
      if (!existing.get().equals(wanted)) {
        LOG.info("archive {} already has layout {}; keeping it (requested {})", store.schema().namespace(), existing.get(),
            wanted);
      }
      schemas.ensureAll(store.schema().dataSpecs(existing.get().regions(), preSplit));
      return existing.get();
    }
    schemas.ensureAll(store.schema().dataSpecs(wanted.regions(), preSplit));
    store.saveLayout(wanted);
    return wanted;
  }

  /** Whether a file in an input directory is input: not hidden, not a quarantine reason file. */
  static boolean isInputName(String name) {
    return !name.startsWith(".") && !name.endsWith(".reason");
  }

  /** The JSON files of a directory (or the file itself), in name order. */
  public static List<Path> inputFiles(Path input) {
    InvalidInputException.check(Files.exists(input), "input", "no such file or directory: " + input);
    if (Files.isRegularFile(input)) {
      return List.of(input);
    }
    try (java.util.stream.Stream<Path> s = Files.list(input)) {
      return s.filter(Files::isRegularFile).filter(p -> isInputName(p.getFileName().toString())).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + input + ": " + e.getMessage(), e);
    }
  }

  /**
   * The put path: each file is read completely before any of it is written through
   * BufferedMutators ({@link ArchiveReader#readAllOrNothing}), so a bad file writes nothing. A file whose reading fails {@code attempts}
   * times is moved to {@code quarantine} with a {@code .reason} file; the others load completely.
   * The time includes flushing the tables' memstores, so the data ends where a bulk load puts it:
   * in HFiles. Reimporting writes the same cells again (no duplicates).
   */
  public ImportReport importWithPuts(List<Path> files, Path quarantine, int attempts, String splitComputation,
                                     Progress progress) {
    InvalidInputException.check(attempts >= 1 && attempts <= 10, "attempts", "attempts must be 1..10");
    Layout layout = requireLayout();
    long t0 = System.nanoTime();
    long[] counts = new long[3];
    long bytes = 0;
    int loaded = 0;
    List<ImportReport.Skipped> skipped = new ArrayList<>();
    double writeSeconds;
    try (ArchiveStore.Writers writers = store.writers()) {
      for (Path file : files) {
        progress.detail(file.getFileName().toString());
        long size = size(file);
        String failure = ArchiveReader.readAllOrNothing(() -> new BufferedInputStream(Files.newInputStream(file), 1 << 16),
            size, attempts, ArchiveReader.DEFAULT_HOLD_BYTES, new ArchiveReader.Sink() {
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
            }).orElse(null);
        if (failure != null) {
          skipped.add(quarantine(file, quarantine, failure, attempts));
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
    } catch (IOException e) {
      throw new UncheckedIOException("import failed: " + e.getMessage(), e);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    return new ImportReport("put", layout, splitComputation, loaded, skipped, counts[0], counts[1], counts[2], bytes, 0, 0,
        Map.of("write", writeSeconds, "memstoreFlush", seconds - writeSeconds), seconds);
  }

  /**
   * The bulk-load path ({@link ArchiveBulkLoad}): one MapReduce job writes HFiles for the three
   * pre-split tables and they are bulk-loaded; the LocalJobRunner unless {@code conf} names a
   * cluster framework. Bad files are quarantined by the job with a reason file; the report lists them.
   */
  public ImportReport importWithBulkLoad(List<Path> files, Path quarantine, int attempts, String splitComputation,
                                         org.apache.hadoop.conf.Configuration conf, Path work, Progress progress) {
    InvalidInputException.check(attempts >= 1 && attempts <= 10, "attempts", "attempts must be 1..10");
    Layout layout = requireLayout();
    try {
      List<org.apache.hadoop.fs.Path> inputs = hadoopPaths(files);
      org.apache.hadoop.fs.Path quarantineDir = new org.apache.hadoop.fs.Path(quarantine.toAbsolutePath().toUri());
      ArchiveBulkLoad.Outcome o = ArchiveBulkLoad.run(connection, conf, store.schema(), layout, inputs,
          new org.apache.hadoop.fs.Path(work.toAbsolutePath().toUri()), quarantineDir, attempts,
          ArchiveBulkLoad.Partitioning.REGIONS, progress);
      List<ImportReport.Skipped> skipped = Quarantine.skipped(conf, quarantineDir, inputs);
      return new ImportReport("bulkload", layout, splitComputation, (int) o.filesLoaded(), skipped, o.users(), o.statuses(),
          o.cells(), o.bytes(), o.hfiles(), o.hfileSplits(), Map.of("job", o.jobSeconds(), "load", o.loadSeconds()), o.seconds());
    } catch (IOException e) {
      throw new UncheckedIOException("bulk load failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new java.io.InterruptedIOException("bulk load interrupted"));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("bulk load failed: " + e.getMessage(), e);
    }
  }

  static List<org.apache.hadoop.fs.Path> hadoopPaths(List<Path> files) {
    return files.stream().map(f -> new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri())).toList();
  }

  private Layout requireLayout() {
    return store.layout().orElseThrow(() -> new NotFoundException(
        "archive " + store.schema().namespace() + " has no tables yet; prepare it first"));
  }

  /** Moves a bad file aside with a reason file next to it. */
  static ImportReport.Skipped quarantine(Path file, Path quarantine, String reason, int attempts) {
    try {
      Files.createDirectories(quarantine);
      Path target = quarantine.resolve(file.getFileName());
      Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
      Files.writeString(quarantine.resolve(Quarantine.reasonFileName(file.getFileName().toString())),
          Quarantine.text(file.toString(), attempts, reason), StandardCharsets.UTF_8);
      LOG.warn("quarantined {} after {} attempt(s): {}", file, attempts, reason);
      return new ImportReport.Skipped(file.toString(), reason, attempts, target.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("could not quarantine " + file + ": " + e.getMessage(), e);
    }
  }

  public Optional<UserRecord> user(String uid) {
    checkId(uid, "uid");
    return layout().flatMap(l -> store.user(l, uid, 10_000));
  }

  /** A user's statuses, newest first, strictly older than {@code beforeId} if positive. */
  public List<StatusRecord> statuses(String uid, long beforeId, int limit) {
    checkId(uid, "uid");
    InvalidInputException.check(limit >= 1 && limit <= 1000, "limit", "limit must be 1..1000");
    return layout().map(l -> store.statuses(l, uid, beforeId, limit)).orElse(List.of());
  }

  public Optional<StatusRecord> status(long id) {
    InvalidInputException.check(id > 0, "id", "a status id is a positive integer");
    return layout().flatMap(l -> store.status(l, id));
  }

  private static void checkId(String id, String field) {
    InvalidInputException.check(id != null && id.matches("[1-9][0-9]{0,18}"), field, field + " must be a positive integer id");
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
