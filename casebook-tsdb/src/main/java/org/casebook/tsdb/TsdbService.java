package org.casebook.tsdb;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.WriteGate;

/**
 * The time-series store (seed 002, OpenTSDB case) in domain terms: checked points in, queries out,
 * names and ids, compaction; on the context's shared HBase connection and clock. The protocols
 * (telnet lines, OpenTSDB's HTTP API) parse their requests into the records this takes.
 * Thread-safe.
 */
public final class TsdbService implements AutoCloseable {
  private static final String VERSION = "2.4.1";

  private final TsdbConfig config;
  private final Clock clock;
  private final UidStore uidStore;
  private final PointStore points;
  private final Uids uids;
  private final Compactor compactor;
  private final Rollups rollups;
  private final PointWriter writer;
  private final WriteGate writes;
  private final WriteGate.Registration flushOnPause;
  private final QueryRunner queries;
  private final SeriesIndex seriesIndex;
  private final SeriesLookup lookups;
  private final io.micrometer.core.instrument.Counter pointsDeleted;
  private final io.micrometer.core.instrument.Counter rowsPurged;
  private final Annotations annotations;
  private final TsdbStats stats;

  /**
   * The store as the system's settings in {@code context} say (their defaults on a context that is
   * not tsdb's, a tool's).
   */
  public TsdbService(SystemContext context) {
    this(context, TsdbConfig.from(context.settings().orDefaults("tsdb", TsdbConfig.SETTINGS)));
  }

  /**
   * The store in {@code config}'s namespace, its tables created if missing. The salt is a property
   * of the stored rows: the first use records it, and a later one with another count is refused.
   */
  public TsdbService(SystemContext context, TsdbConfig config) {
    Objects.requireNonNull(context, "context is null");
    this.config = Objects.requireNonNull(config, "config is null");
    this.clock = context.clock();
    TsdbSchema schema = TsdbSchema.in(config.namespace());
    schema.ensure(context.connection(), config.saltBuckets());
    this.uidStore = new UidStore(context.connection(), schema);
    int recorded = uidStore.recordedSaltBuckets(config.saltBuckets());
    if (recorded != config.saltBuckets()) {
      throw new InvalidInputException(
          "saltBuckets",
          "the tables in namespace "
              + config.namespace()
              + " were created with "
              + recorded
              + " salt buckets, not "
              + config.saltBuckets()
              + " (setting tsdb."
              + TsdbConfig.SALT_BUCKETS.name()
              + ")");
    }
    DataRowStore rows =
        new DataRowStore(context.connection(), schema, TsdbKeys.data(config.saltBuckets()));
    this.points =
        new PointStore(
            context.connection(), schema, rows, context.background("gather-" + config.namespace()));
    this.uids = new Uids(uidStore);
    // Before any write: the index's first use records the last metric that may have old data.
    this.seriesIndex =
        new SeriesIndex(
            new SeriesIndexStore(context.connection(), schema),
            uidStore.lastUid(UidKind.METRIC),
            SeriesIndex.CACHED_SERIES);
    this.rollups =
        new Rollups(
            rows,
            new RollupStore(context.connection(), schema, config.saltBuckets()),
            clock,
            config.compactionDelaySeconds(),
            context.metrics());
    this.compactor =
        new Compactor(
            rows,
            rollups,
            clock,
            config.compactionDelaySeconds(),
            config.backgroundCompaction(),
            context.metrics());
    this.writer = new PointWriter(points, uids, compactor, seriesIndex);
    this.queries =
        new QueryRunner(
            points,
            rollups,
            uids,
            compactor,
            clock,
            context.sideWork(),
            config.maxTags(),
            config.queryLimits());
    this.lookups = new SeriesLookup(queries, points, seriesIndex, clock, context.metrics());
    this.pointsDeleted = context.metrics().counter("casebook.tsdb.deleted.points");
    this.rowsPurged = context.metrics().counter("casebook.tsdb.retention.purged.rows");
    this.annotations =
        new Annotations(new AnnotationStore(context.connection(), schema), queries, uids);
    this.stats = new TsdbStats(context.metrics(), clock);
    this.writes = context.writes();
    // A backup's pause stores what was acknowledged before it (puts without sync are buffered).
    this.flushOnPause = writes.flushOnPause(writer::flush);
  }

  public TsdbConfig config() {
    return config;
  }

  /** The OpenTSDB version whose protocols this speaks. */
  public static String protocolVersion() {
    return VERSION;
  }

  /** What the telnet {@code version} command answers, line by line. */
  public static List<String> versionLines() {
    return List.of(
        "net.opentsdb.tools casebook-tsdb " + VERSION + " (OpenTSDB protocol)",
        "Built by casebook");
  }

  /** The service's clock: what relative query times ({@code 1h-ago}) count back from. */
  public long nowMs() {
    return clock.millis();
  }

  /** What a point is checked against now: the most tags, and how far ahead a timestamp may be. */
  public IncomingPoint.Limits limits() {
    return new IncomingPoint.Limits(
        config.maxTags(), clock.millis(), config.maxFutureSeconds() * 1000);
  }

  // ---- points in ----

  /**
   * Writes checked points, whichever protocol brought them: durable when this returns with {@code
   * sync}, else within the store's gathering period and one flush (under 200 ms), as OpenTSDB's.
   */
  public void write(List<IncomingPoint> points, boolean sync) {
    write(points, sync, writer.failureMark());
  }

  /** As {@link #write(List, boolean)}; a sync write fails if any write failed since the mark. */
  private void write(List<IncomingPoint> points, boolean sync, long failureMark) {
    try (WriteGate.Pass pass = writes.enter()) {
      writer.write(points);
      if (sync) {
        writer.flush(failureMark);
      }
    }
  }

  /**
   * Imports a file in OpenTSDB's bulk import format (a {@code put} line without {@code put}: {@code
   * metric timestamp value tagk=tagv …}), gzip if the name ends in {@code .gz}. Bad lines are
   * counted and the first few reported; the good ones are durable when this returns.
   */
  public ImportReport importFile(Path file, LongConsumer bytesRead) {
    // Marked once: the last batch's flush then fails if a periodic flush lost an earlier batch.
    long failureMark = writer.failureMark();
    return PointImport.run(
        file, this::limits, (batch, last) -> write(batch, last, failureMark), bytesRead);
  }

  // ---- queries ----

  /** The series reader (tests in this package). */
  QueryRunner queries() {
    return queries;
  }

  /** The answer to each sub-query of {@code query}, in order: its groups in OpenTSDB's order. */
  public List<List<QueryResult>> query(OpenTsdbQuery query) {
    return queries.run(query);
  }

  /**
   * OpenTSDB's expression query: its metrics answered as one query (under the same guardrails), its
   * expressions evaluated over their series.
   */
  public ExpressionAnswer query(ExpressionRequest request) {
    return request.answer(this);
  }

  /**
   * Answers {@code query} and deletes the points it selected, from its start to its end (both
   * included), as OpenTSDB's {@code delete=true}: refused unless the {@code allow-delete} setting
   * is on (OpenTSDB's {@code tsd.http.query.allow_delete}). OpenTSDB deletes every hour its scan
   * touches, whole; this deletes the range and no more. Rerun after a failure, it deletes what is
   * left.
   */
  public List<List<QueryResult>> queryAndDelete(OpenTsdbQuery query) {
    if (!config.allowDelete()) {
      throw new InvalidInputException(
          "delete",
          "Deleting data is not enabled (tsd.http.query.allow_delete=false; casebook setting"
              + " tsdb."
              + TsdbConfig.ALLOW_DELETE.name()
              + ")");
    }
    return delete(query).answer();
  }

  /**
   * Deletes the points {@code query} selects, from its start to its end (both included), whatever
   * the {@code allow-delete} setting (the operator's CLI): the answer as it was and the count.
   */
  public DeletedPoints delete(OpenTsdbQuery query) {
    DeletedPoints deleted;
    try (WriteGate.Pass pass = writes.enter()) {
      deleted = queries.delete(query);
    }
    pointsDeleted.increment(deleted.points());
    return deleted;
  }

  /**
   * Applies the retention setting once: for every metric a rule covers, deletes its rows of the
   * hours that ended before now minus its keep time (whole hours, so a point is kept up to an hour
   * longer). Returns the rows deleted per metric, metrics with none left out.
   */
  public Map<String, Long> purgeExpired() {
    Map<String, Long> out = new LinkedHashMap<>();
    if (config.retention().keepsEverything()) {
      return out;
    }
    long now = clock.millis();
    for (UidStore.UidName metric : uidStore.names(UidKind.METRIC, "", Integer.MAX_VALUE)) {
      java.util.OptionalLong keep = config.retention().keepMs(metric.name());
      if (keep.isEmpty()) {
        continue;
      }
      // The first hour kept is the one holding now - keep: every hour before it has ended.
      int firstKept = TsdbKeys.hourOf(Math.max(0, now - keep.getAsLong()));
      // No pass: whole rows of one table go, each atomically, so any snapshot holds a consistent
      // state (some expired hours left for the next pass at most).
      long rows = points.purgeBefore(metric.id(), firstKept);
      rollups.purgeBefore(metric.id(), firstKept);
      if (rows > 0) {
        out.put(metric.name(), rows);
        rowsPurged.increment(rows);
      }
    }
    return out;
  }

  /**
   * Series of a metric whose tags include the given pairs ({@code *}: any value of the key), in
   * tsuid order: from the series index, or from the data rows while the metric is not indexed.
   */
  public LookupAnswer lookup(String metric, List<TagPair> tags, int limit) {
    return lookups.answer(metric, tags, limit);
  }

  /** The lookups (tests in this package). */
  SeriesLookup lookups() {
    return lookups;
  }

  /**
   * Indexes the series of every metric from its data rows (each read once, keys only), for data
   * written before the series index existed; {@code metricsDone} hears of each metric finished.
   */
  public ReindexReport reindex(LongConsumer metricsDone) {
    int to = TsdbKeys.hourOf(clock.millis()) + 24 * 366;
    List<byte[]> metrics = metricIds();
    // No pass: each index row is one idempotent put of its own, and a metric is marked complete
    // only after its rows, so any snapshot holds a consistent index (at worst a metric to redo).
    return seriesIndex.reindex(
        metrics, (id, tags) -> points.rowTags(id, 0, to, tags), clock, metricsDone);
  }

  /** The latest point of each series matching {@code metric{tags}} within {@code backScanHours}. */
  public List<LastAnswer> last(String metric, Map<String, String> tags, int backScanHours) {
    InvalidInputException.check(
        backScanHours >= 0 && backScanHours <= 24 * 366,
        "backScan",
        "backScan must be 0..8784 hours");
    List<LastAnswer> out = new ArrayList<>();
    for (QueryRunner.LastPoint p : queries.last(metric, tags, backScanHours)) {
      DataPoint d = p.point();
      String value = d.integer() ? Long.toString(d.longValue()) : Double.toString(d.doubleValue());
      out.add(new LastAnswer(p.metric(), d.timestampMs(), value, p.tags(), p.tsuid()));
    }
    return out;
  }

  /** The aggregator names, as {@code /api/aggregators} lists them. */
  public static List<String> aggregators() {
    return Aggregator.names();
  }

  /** The filter types with their descriptions and examples, as {@code /api/config/filters}. */
  public static Map<String, Map<String, String>> filterTypes() {
    return TagFilterType.configMap();
  }

  // ---- annotations ----

  /**
   * {@code answer} (of {@code query}) with its notes: each group's series' notes with {@code
   * seriesNotes}, the global notes in the query's range with {@code globalNotes} (OpenTSDB's {@code
   * noAnnotations} and {@code globalAnnotations}).
   */
  public AnnotatedAnswer annotate(
      OpenTsdbQuery query,
      List<List<QueryResult>> answer,
      boolean seriesNotes,
      boolean globalNotes) {
    List<List<List<Annotation>>> notes = new ArrayList<>(answer.size());
    for (int i = 0; i < answer.size(); i++) {
      List<QueryResult> groups = answer.get(i);
      notes.add(
          seriesNotes
              ? annotations.forGroups(
                  query.queries().get(i), groups, query.startMs(), query.endMs())
              : groups.stream().map(g -> List.<Annotation>of()).toList());
    }
    List<Annotation> globals =
        globalNotes ? annotations.globals(query.startMs(), query.endMs()) : List.of();
    return new AnnotatedAnswer(answer, notes, globals);
  }

  /**
   * Stores an annotation as OpenTSDB's {@code POST} (merged into the stored one) or, with {@code
   * overwrite}, {@code PUT}: the note as stored, or empty when the request changes nothing (then
   * nothing is written).
   */
  public Optional<Annotation> saveAnnotation(AnnotationChange change, boolean overwrite) {
    try (WriteGate.Pass pass = writes.enter()) {
      return annotations.save(change, overwrite);
    }
  }

  /** Stores many annotations (all checked first): those stored, unchanged ones left out. */
  public List<Annotation> saveAnnotations(List<AnnotationChange> changes, boolean overwrite) {
    try (WriteGate.Pass pass = writes.enter()) {
      return annotations.saveAll(changes, overwrite);
    }
  }

  /** The annotation of {@code tsuid} (empty: global) starting at {@code startTime}. */
  public Optional<Annotation> annotation(String tsuid, long startTime) {
    return annotations.get(tsuid, startTime);
  }

  /** Deletes the annotation of {@code tsuid} (empty: global) at {@code startTime}, if any. */
  public void deleteAnnotation(String tsuid, long startTime) {
    try (WriteGate.Pass pass = writes.enter()) {
      annotations.delete(tsuid, startTime);
    }
  }

  /**
   * Deletes the annotations starting in {@code [fromMs, toMs]} of each tsuid, and the global ones
   * with {@code global}: how many.
   */
  public long deleteAnnotations(List<String> tsuids, boolean global, long fromMs, long toMs) {
    try (WriteGate.Pass pass = writes.enter()) {
      return annotations.deleteRange(tsuids, global, fromMs, toMs);
    }
  }

  /** The global annotations starting (and ending, when they end) in {@code [fromMs, toMs]}. */
  public List<Annotation> globalAnnotations(long fromMs, long toMs) {
    return annotations.globals(fromMs, toMs);
  }

  /**
   * A time as queries take it ({@code 1h-ago}, epoch seconds or milliseconds, {@code
   * yyyy/MM/dd-HH:mm:ss} in UTC), in epoch milliseconds; errors name {@code field}.
   */
  public long parseTime(String text, String field) {
    return QueryTimes.parse(text, field, clock.millis(), QueryTimes.zone(null));
  }

  // ---- the process ----

  /** {@code /api/stats}: every figure the process's meters hold now. */
  public List<StatPoint> stats() {
    return stats.points();
  }

  // ---- names ----

  /** Names of a kind ({@code metrics}, {@code tagk}, {@code tagv}) starting with {@code q}. */
  public List<String> suggest(String type, String q, int max) {
    UidKind kind = kind(type);
    List<String> out = new ArrayList<>();
    for (UidStore.UidName n : uidStore.names(kind, q == null ? "" : q, max)) {
      out.add(n.name());
    }
    return out;
  }

  /** Assigns ids to new names; a name that has one is an error in the result, as OpenTSDB does. */
  public UidAssignment assign(String type, List<String> names) {
    UidKind kind = kind(type);
    Map<String, String> assigned = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    for (String name : names) {
      try {
        Tags.checkName(kind.singular() + " name", name, type);
        try (WriteGate.Pass pass = writes.enter()) {
          assigned.put(name, TsdbKeys.hex(uids.assign(kind, name, true)));
        }
      } catch (InvalidInputException | ConflictException e) {
        errors.put(name, e.getMessage());
      }
    }
    return new UidAssignment(kind.apiName(), assigned, errors);
  }

  /** Every name of a kind matching a regular expression, with its id in hex. */
  public Map<String, String> grep(String type, String regex, int max) {
    UidKind kind = kind(type);
    Pattern p;
    try {
      p = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new InvalidInputException("regex", "not a regular expression: " + e.getDescription());
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (UidStore.UidName n : uidStore.names(kind, "", Integer.MAX_VALUE)) {
      if (p.matcher(n.name()).find()) {
        out.put(n.name(), TsdbKeys.hex(n.id()));
        if (out.size() >= max) {
          break;
        }
      }
    }
    return out;
  }

  /** Renames a name of a kind; its id, and so its data, stay. */
  public void rename(String type, String oldName, String newName) {
    UidKind kind = kind(type);
    Tags.checkName(kind.singular() + " name", newName, "name");
    try (WriteGate.Pass pass = writes.enter()) {
      uids.rename(kind, oldName, newName);
    }
  }

  private static UidKind kind(String type) {
    UidKind k = type == null ? null : UidKind.fromApiName(type);
    if (k == null) {
      throw new InvalidInputException(
          "type", "Invalid 'type' parameter: '" + type + "' (metrics, tagk or tagv)");
    }
    return k;
  }

  // ---- compaction ----

  /**
   * Compacts the rows of finished hours written or read since start, then rolls up the hours that
   * finished since the last pass: rows compacted.
   */
  public int compactDue() {
    // No pass: a row is compacted by one atomic row mutation, which a snapshot holds whole; a
    // rollup is rewritten whole from its row, and its progress recorded after it.
    int rows = compactor.runDue();
    rollups.pass(this::metricIds, false);
    return rows;
  }

  /** Compacts every finished hour in the table and rolls up every finished hour: rows compacted. */
  public int compactAll() {
    writer.flush();
    int rows = compactor.runAll();
    rollups.pass(this::metricIds, true);
    return rows;
  }

  private List<byte[]> metricIds() {
    List<byte[]> ids = new ArrayList<>();
    uidStore.names(UidKind.METRIC, "", Integer.MAX_VALUE).forEach(m -> ids.add(m.id()));
    return ids;
  }

  int compactionBacklog() {
    return compactor.pending();
  }

  long asyncWriteFailures() {
    return points.asyncFailures();
  }

  /** Stores what is still gathered and flushes the write buffer. */
  @Override
  public void close() {
    flushOnPause.close();
    points.close();
  }
}
