package org.casebook.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;

/**
 * The Weibo archive (seed 001): import of Weibo-API JSON files into the user and status tables,
 * with bad files set aside (SK-bad), import jobs run in the background, the queries on the result,
 * and the recorded results of seed 001's experiment. Thread-safe.
 */
public final class ArchiveService {
  private static final String STATUSES_SCOPE = "archive.statuses";

  private final ArchiveStore store;
  private final ImportJob importer;
  private final ImportJobs jobs;

  /**
   * @param holdBytes input files up to this size are parsed once and held while checked
   * @param importRunner where REST import jobs run, one at a time; null when there are none (CLI,
   *     tool)
   */
  private ArchiveService(
      SystemContext ctx, String namespace, long holdBytes, ExecutorService importRunner) {
    Objects.requireNonNull(ctx, "ctx is null");
    this.store = new ArchiveStore(ctx, namespace);
    this.importer = new ImportJob(store, ctx, holdBytes);
    this.jobs = importRunner == null ? null : new ImportJobs(store, importRunner, ctx.clock());
  }

  /**
   * The archive of a running system or a CLI command, as its context's settings say ({@code
   * archive.namespace}, {@code archive.hold-mb}; the defaults on a context that has none, a tool's
   * or a benchmark's): its connection, configuration, data directory and clock, and with {@code
   * withImportJobs} the background executor of REST import jobs.
   */
  public static ArchiveService create(SystemContext ctx, boolean withImportJobs) {
    return new ArchiveService(
        ctx,
        ArchiveSettings.valueIn(ctx, ArchiveSettings.NAMESPACE),
        (long) ArchiveSettings.valueIn(ctx, ArchiveSettings.HOLD_MB) << 20,
        withImportJobs ? ctx.background("import") : null);
  }

  /**
   * An archive in HBase namespace {@code namespace} on {@code ctx} (a Hadoop tool's archive, a
   * benchmark's own), without background import jobs.
   */
  public static ArchiveService inNamespace(SystemContext ctx, String namespace) {
    try {
      ArchiveSettings.checkNamespace(namespace);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("namespace", "namespace " + e.getMessage());
    }
    return new ArchiveService(
        ctx, namespace, (long) ArchiveSettings.HOLD_MB.defaultValue() << 20, null);
  }

  /** The archive's data tables (users, statuses, the status index), created or not. */
  public List<TableName> dataTables() {
    return store.schema().dataTables();
  }

  /** The recorded layout, if the tables have been created. */
  public Optional<Layout> layout() {
    return store.layout();
  }

  /**
   * Creates the data tables for {@code wanted} — split at its region ids, or not at all — unless
   * they exist; an existing archive keeps its layout (keys depend on it). Returns the layout in
   * force.
   */
  public Layout prepare(Layout wanted, boolean preSplit) {
    return prepare(preSplit ? ArchiveTables.regionIds(wanted) : ArchiveTables.unsplit(wanted));
  }

  /**
   * Creates the data tables as {@code tables} says (layout, split points, table settings) unless
   * they exist; an existing archive keeps its layout. Returns the layout in force.
   */
  public Layout prepare(ArchiveTables tables) {
    return store.prepare(Objects.requireNonNull(tables, "tables is null"));
  }

  /**
   * Imports {@code request}'s files now: the split computation, the tables (an existing archive
   * keeps its layout), a bulk load or puts, bad files quarantined. Rerunning writes the same cells
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
   * Records the results of a run of seed 001's experiment ({@code casebook bench archive}): {@code
   * resultsJson}, a JSON object, kept in the archive's {@code meta} table, where {@link
   * #experiments} (and the console's archive page) find it.
   */
  public void recordExperiment(Instant recordedAt, String resultsJson) {
    Objects.requireNonNull(recordedAt, "recordedAt is null");
    Objects.requireNonNull(resultsJson, "resultsJson is null");
    Object parsed;
    try {
      parsed = Json.mapper().readValue(resultsJson, Object.class);
    } catch (JsonProcessingException e) {
      throw new InvalidInputException(
          "results", "the results are not JSON: " + e.getOriginalMessage());
    }
    InvalidInputException.check(
        parsed instanceof Map<?, ?>, "results", "the results must be a JSON object");
    store.saveExperiment(recordedAt, resultsJson.getBytes(StandardCharsets.UTF_8));
  }

  /** The newest {@code limit} recorded experiment results, newest first. */
  public List<RecordedExperiment> experiments(int limit) {
    InvalidInputException.check(limit >= 1, "limit", "limit must be positive");
    return store.experiments(limit);
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
