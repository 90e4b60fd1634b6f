package org.casebook.archive;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Weibo archive (seed 001): import of Weibo-API JSON files into the user and status tables,
 * with bad files set aside (SK-bad), import jobs run in the background, and the queries on the
 * result. Thread-safe.
 */
public final class ArchiveService {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveService.class);
  private static final String STATUSES_SCOPE = "archive.statuses";
  private final ArchiveStore store;
  private final Connection connection;
  private final ImportJob importer;
  private final ImportJobs jobs;

  /**
   * @param conf the MapReduce configuration of bulk loads (the LocalJobRunner unless it names a
   *     cluster)
   * @param scratch local scratch space (bulk-load work directories)
   * @param importRunner where REST import jobs run, one at a time; null when there are none (CLI,
   *     tool)
   */
  public ArchiveService(
      Connection connection,
      Configuration conf,
      java.nio.file.Path scratch,
      String namespace,
      Clock clock,
      ExecutorService importRunner) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.store = new ArchiveStore(connection, ArchiveSchema.in(namespace));
    this.importer =
        new ImportJob(
            this,
            store,
            connection,
            Objects.requireNonNull(conf, "conf is null"),
            Objects.requireNonNull(scratch, "scratch is null"));
    this.jobs =
        importRunner == null
            ? null
            : new ImportJobs(store, importRunner, Objects.requireNonNull(clock));
  }

  /**
   * The archive of a running system or a CLI command: its connection, configuration, data directory
   * and clock.
   */
  public static ArchiveService create(SystemContext ctx, boolean withImportJobs) {
    return new ArchiveService(
        ctx.connection(),
        ctx.configuration(),
        ctx.dataDir().resolve("tmp"),
        ArchiveSchema.DEFAULT_NAMESPACE,
        ctx.clock(),
        withImportJobs ? ctx.background("import") : null);
  }

  /** The meta table (the data tables are created by the first import, pre-split for its data). */
  static List<TableSpec> schemas(String namespace) {
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
        LOG.info(
            "archive {} already has layout {}; keeping it (requested {})",
            store.schema().namespace(),
            existing.get(),
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

  /**
   * Imports {@code request}'s files now: the split computation, the tables (an existing archive
   * keeps its regions), a bulk load or puts, bad files quarantined. Rerunning writes the same cells
   * again (no duplicates).
   */
  public ImportReport importFiles(ImportRequest request, Progress progress) {
    return importer.run(request, importer.list(request), progress);
  }

  /** The input's size in bytes (for a progress bar before the import starts). */
  public long inputBytes(ImportRequest request) {
    return importer.list(request).bytes();
  }

  /**
   * Starts {@code request} as a background job (one at a time: another while one runs is a
   * conflict).
   */
  public ImportJobStatus startImport(ImportRequest request) {
    return requireJobs().start(request, importer);
  }

  public ImportJobStatus importJob(String id) {
    return requireJobs().get(id);
  }

  /** This instance's import jobs, newest first. */
  public Page<ImportJobStatus> importJobs(PageRequest page) {
    return requireJobs().list(page);
  }

  private ImportJobs requireJobs() {
    if (jobs == null) {
      throw new IllegalStateException("this archive service runs no import jobs");
    }
    return jobs;
  }

  /**
   * A recorded {@code bench archive} result: when (ISO-8601, UTC), and its JSON report as written.
   */
  public record ExperimentResults(String recordedAt, JsonNode results) {}

  /** The newest {@code limit} recorded experiment results (see {@link ExperimentHooks}). */
  public List<ExperimentResults> experiments(int limit) {
    List<ExperimentResults> out = new ArrayList<>();
    for (Map.Entry<Long, byte[]> e : store.experiments(limit)) {
      try {
        out.add(
            new ExperimentResults(
                java.time.Instant.ofEpochMilli(e.getKey()).toString(),
                Json.mapper().readTree(e.getValue())));
      } catch (IOException unreadable) {
        throw StorageException.of(
            "read the experiment results recorded at " + java.time.Instant.ofEpochMilli(e.getKey()),
            unreadable);
      }
    }
    return out;
  }

  public Optional<UserRecord> user(String uid) {
    checkId(uid, "uid");
    return layout().flatMap(l -> store.user(l, uid, 10_000));
  }

  /** A user's statuses, newest first; the cursor is the last status id of the previous page. */
  public Page<StatusRecord> statuses(String uid, PageRequest page) {
    checkId(uid, "uid");
    long before =
        page.cursor().map(c -> Cursors.decode(STATUSES_SCOPE, c, r -> r.readLong())).orElse(0L);
    InvalidInputException.check(before >= 0, "cursor", "cursor is not valid for this listing");
    List<StatusRecord> fetched = statuses(uid, before, page.fetchSize());
    return Page.of(
        fetched,
        page.limit(),
        s -> Cursors.encode(STATUSES_SCOPE, KeyBuilder.create().addLong(s.id()).build()));
  }

  /** A user's statuses, newest first, strictly older than {@code beforeId} if positive. */
  List<StatusRecord> statuses(String uid, long beforeId, int limit) {
    return layout().map(l -> store.statuses(l, uid, beforeId, limit)).orElse(List.of());
  }

  public Optional<StatusRecord> status(long id) {
    InvalidInputException.check(id > 0, "id", "a status id is a positive integer");
    return layout().flatMap(l -> store.status(l, id));
  }

  private static void checkId(String id, String field) {
    Ids.check(id, field, 19);
    InvalidInputException.check(
        id.matches("[1-9][0-9]{0,18}"), field, field + " must be a positive integer id");
  }
}
