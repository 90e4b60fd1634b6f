package org.casebook.trails;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.TableSpec;
import org.casebook.trails.batch.ActiveUsersRunner;
import org.casebook.trails.batch.ConditionMatchRunner;
import org.casebook.trails.batch.TrailsBulkLoad;

/**
 * Behaviour trails (seeds 000 and 004): ingest of behaviour logs ({@link TrailsIngest}, the bulk
 * load {@link TrailsBulkLoad}, or one upload of lines {@link LinesIngest}), the users × days ×
 * behaviours trail query (planned by {@link TrailPlanner}, run by {@link EventStore}), user-history
 * queries on the tall and wide designs ({@link HistoryStore}), and the seed-000 task (users who did
 * all four behaviours in a date range), directly or as MapReduce ({@link ActiveUsersRunner}), and
 * its generalisation, users whose events satisfy a {@link TrailCondition}, directly for listed
 * users or as MapReduce over every user ({@link ConditionMatchRunner}). Thread-safe.
 */
public final class TrailsService {
  /** Users per direct query of the seed-000 task. */
  private static final int ACTIVE_CHUNK = 500;

  /** The last instant a query may name (end of {@link TrailQuery#LAST_DATE}). */
  private static final long MAX_TS =
      TrailsKeys.startOfDay(TrailsKeys.epochDay(TrailQuery.LAST_DATE) + 1);

  /**
   * The most lines one upload ({@link #ingestLines}) takes: a bound on the work of one request
   * whatever its lines' length.
   */
  public static final int MAX_UPLOAD_LINES = 100_000;

  private final SystemContext context;
  private final String namespace;
  private final EventStore events;
  private final HistoryStore histories;
  private final IngestStore writes;
  private final ActiveUsersRunner mapReduce;
  private final ConditionMatchRunner matchJob;
  private final ErasureStore erasure;
  private final BehaviourRegistry registry;

  /** On the system's tables (namespace {@code trails}). */
  public TrailsService(SystemContext context) {
    this(context, TrailsSchema.DEFAULT_NAMESPACE);
  }

  /** On the trails tables of {@code namespace} (created with {@link #schemas}). */
  public TrailsService(SystemContext context, String namespace) {
    this.context = Objects.requireNonNull(context, "context is null");
    this.namespace = Objects.requireNonNull(namespace, "namespace is null");
    TrailsSchema schema = TrailsSchema.in(namespace);
    this.registry = new BehaviourRegistry(new BehaviourStore(context.connection(), schema));
    this.events = new EventStore(context, schema, registry);
    this.histories = new HistoryStore(context, schema, registry);
    this.writes = new IngestStore(context, schema);
    this.mapReduce = new ActiveUsersRunner(context.configuration(), namespace);
    this.matchJob = new ConditionMatchRunner(context.configuration(), namespace);
    this.erasure = new ErasureStore(context.connection(), schema);
  }

  /** The trails tables of {@code namespace}. */
  public static List<TableSpec> schemas(String namespace) {
    return TrailsSchema.in(namespace).tables();
  }

  /** The trails tables of {@code namespace}, keeping records {@code retentionDays} (0: forever). */
  public static List<TableSpec> schemas(String namespace, int retentionDays) {
    return TrailsSchema.in(namespace).tables(retentionDays);
  }

  /**
   * Cleans and stores a log file. Bad lines (malformed JSON, bad UTF-8, missing or mistyped fields,
   * lines over 1 MiB) are counted and written to the rejects file; they never stop the run. Column
   * ids come from the records, so ingesting a file again writes the same cells.
   */
  public IngestReport ingest(Path input, IngestOptions options, Progress progress) {
    return new TrailsIngest(writes, input, options, progress, registry).run();
  }

  /**
   * Cleans and stores one upload of log lines (seed 000: set-top boxes upload their logs to an open
   * API that loads them): the lines {@link #ingest} takes, under its rules, into the events table
   * and both history tables; returns once the cells are stored. Bad lines are counted and the first
   * of them listed; they never refuse the upload. Column ids come from the records, so sending the
   * same lines again writes the same cells.
   *
   * @throws InvalidInputException on {@code body} when {@code ndjson} is empty or has more than
   *     {@link #MAX_UPLOAD_LINES} lines (nothing is written)
   */
  public LinesReport ingestLines(byte[] ndjson) {
    return LinesIngest.run(writes, ndjson, MAX_UPLOAD_LINES, registry);
  }

  /**
   * As {@link #ingest}, as a bulk load: a MapReduce job (the LocalJobRunner, or YARN when the
   * configuration names a cluster) writes HFiles that HBase then adopts, bypassing the region
   * servers' write path — faster for large logs, the same cells and the same rejects file ({@code
   * options.threads} is unused: the job's tasks are the parallelism). {@code workDir} is the local
   * scratch directory of a LocalJobRunner run (emptied and removed).
   */
  public IngestReport ingestBulk(
      Path input, IngestOptions options, Path workDir, Progress progress) {
    Objects.requireNonNull(input, "input is null");
    Objects.requireNonNull(options, "options is null");
    Objects.requireNonNull(workDir, "workDir is null");
    return TrailsBulkLoad.run(
        context, namespace, input, options, workDir, progress, registry.snapshot());
  }

  /**
   * Deletes every record of {@code uid} from the events table and both history tables: its trail,
   * history and latest 20 are empty afterwards, every other user's unchanged. Safe to run again.
   *
   * @return rows deleted per table
   * @throws NotFoundException when nothing of {@code uid} is stored
   */
  public Map<String, Long> deleteUser(String uid) {
    Ids.check(uid, "uid", Event.MAX_UID_CHARS);
    Map<String, Long> deleted = erasure.erase(uid);
    if (deleted.values().stream().allMatch(n -> n == 0)) {
      throw new NotFoundException("no records of user " + uid);
    }
    return deleted;
  }

  /**
   * Trails of every user in the query, each in time order (users without events included, empty).
   */
  public Map<String, Trail> trails(TrailQuery q) {
    return trails(q, PlanMode.AUTO);
  }

  public Map<String, Trail> trails(TrailQuery q, PlanMode plan) {
    return trails(q, Long.MIN_VALUE, Long.MAX_VALUE, plan);
  }

  /** As {@link #trails(TrailQuery)}, keeping only events with {@code fromTs <= ts < toTs}. */
  private Map<String, Trail> trails(TrailQuery q, long fromTs, long toTs, PlanMode plan) {
    Map<String, List<Event>> byUser = new LinkedHashMap<>();
    q.users().forEach(u -> byUser.put(u, new ArrayList<>()));
    for (Event e : events.read(TrailPlanner.plan(q, plan, registry.snapshot()))) {
      if (e.ts() >= fromTs && e.ts() < toTs) {
        byUser.get(e.uid()).add(e);
      }
    }
    Map<String, Trail> out = new LinkedHashMap<>();
    byUser.forEach(
        (u, list) -> {
          list.sort(Comparator.comparingLong(Event::ts).thenComparing(e -> e.type().id()));
          out.put(u, new Trail(u, list));
        });
    return out;
  }

  /** Account × behaviour × time range (seed 004 §4.1), {@code fromTs <= ts < toTs}. */
  public List<Event> range(String uid, Behaviour type, long fromTs, long toTs) {
    checkUid(uid);
    InvalidInputException.check(
        fromTs >= 0 && fromTs < MAX_TS, "from", "from must be between 1970 and 9999");
    InvalidInputException.check(toTs > fromTs, "to", "'to' must be after 'from'");
    long end = Math.min(toTs, MAX_TS);
    LocalDate from = TrailsKeys.date(TrailsKeys.epochDay(fromTs));
    LocalDate to = TrailsKeys.date(TrailsKeys.epochDay(end - 1));
    return trails(
            new TrailQuery(List.of(uid), from, to, Set.of(type), Set.of()),
            fromTs,
            end,
            PlanMode.AUTO)
        .get(uid)
        .events();
  }

  /**
   * The seed-000 task: users who did all four built-in behaviours in the range (declared ones
   * neither count nor are needed), with their trails (declared behaviours' events included).
   */
  public Map<String, Trail> active(List<String> users, LocalDate from, LocalDate to) {
    Map<String, Trail> out = new LinkedHashMap<>();
    for (int i = 0; i < users.size(); i += ACTIVE_CHUNK) {
      List<String> chunk = users.subList(i, Math.min(users.size(), i + ACTIVE_CHUNK));
      trails(new TrailQuery(chunk, from, to, Set.of(), Set.of()))
          .forEach(
              (u, t) -> {
                if (t.hasAllBuiltIns()) {
                  out.put(u, t);
                }
              });
    }
    return out;
  }

  /**
   * The seed-000 task as a MapReduce job ({@link org.casebook.trails.batch.ActiveUsersJob}) on the
   * context's HBase configuration: the LocalJobRunner when it names no cluster framework, YARN when
   * it does. {@code workDir} holds the user list and the job output (it must be on the job's file
   * system); {@code announce} hears where the job runs and its id.
   */
  public Map<String, Trail> activeMapReduce(
      List<String> users, LocalDate from, LocalDate to, Path workDir, Consumer<String> announce) {
    return mapReduce.run(users, from, to, workDir, announce, registry.snapshot());
  }

  /**
   * The users among {@code users} whose events from {@code from} to {@code to} satisfy {@code
   * query} ({@link TrailCondition}), in the order given (a user named twice answers once). Reads in
   * chunks of users with the multi-user SCAN plan: one bounded range per user, one Scan per events
   * region, only the behaviours the condition names decoded.
   *
   * @throws InvalidInputException on {@code query}, {@code users}, {@code from} or {@code to}
   */
  public List<String> match(String query, List<String> users, LocalDate from, LocalDate to) {
    TrailCondition condition = TrailCondition.parse(query, registry);
    InvalidInputException.check(users != null, "users", "users (a list of user ids) is required");
    TrailQuery.checkRange(from, to);
    List<String> distinct = List.copyOf(new LinkedHashSet<>(users));
    InvalidInputException.check(!distinct.isEmpty(), "users", "at least one user is required");
    List<String> out = new ArrayList<>();
    for (int i = 0; i < distinct.size(); i += ACTIVE_CHUNK) {
      List<String> chunk = distinct.subList(i, Math.min(distinct.size(), i + ACTIVE_CHUNK));
      TrailQuery q = new TrailQuery(chunk, from, to, condition.behaviours(), Set.of());
      trails(q, PlanMode.SCAN)
          .forEach(
              (u, t) -> {
                if (condition.matches(t.events())) {
                  out.add(u);
                }
              });
    }
    return out;
  }

  /**
   * {@link #match} over every user with an event stored (on any day), as a MapReduce job ({@link
   * org.casebook.trails.batch.ConditionMatchJob}): one map task per events region, the
   * LocalJobRunner when the context's configuration names no cluster framework, YARN when it does.
   * Users in uid order. {@code workDir} holds the job output; {@code announce} hears where the job
   * runs.
   *
   * @throws InvalidInputException on {@code query}, {@code from} or {@code to}, before any job runs
   */
  public List<String> matchMapReduce(
      String query, LocalDate from, LocalDate to, Path workDir, Consumer<String> announce) {
    TrailCondition condition = TrailCondition.parse(query, registry);
    TrailQuery.checkRange(from, to);
    Objects.requireNonNull(workDir, "workDir is null");
    return matchJob.run(condition, from, to, workDir, announce, registry.snapshot());
  }

  /** One page of a user's records, newest first ({@code next} resumes after the last one). */
  public Page<Event> latest(String uid, PageRequest page, HistoryLayout layout) {
    checkUid(uid);
    Objects.requireNonNull(page, "page is null");
    Objects.requireNonNull(layout, "layout is null");
    return histories.latest(uid, page, layout);
  }

  public List<Event> at(String uid, long ts, HistoryLayout layout) {
    checkUid(uid);
    InvalidInputException.check(ts >= 0, "ts", "ts must not be before 1970");
    return histories.at(uid, ts, layout);
  }

  public List<Event> all(String uid, int limit, HistoryLayout layout) {
    checkUid(uid);
    InvalidInputException.check(
        limit >= 1 && limit <= 1_000_000, "limit", "limit must be 1..1000000");
    return histories.all(uid, limit, layout);
  }

  /**
   * Declares a behaviour, or adds fields to a declared one ({@link BehaviourRegistry#declare}):
   * lines of its type are accepted by every ingest from then on, and every query reads it.
   */
  public Behaviour declareBehaviour(String name, List<Behaviour.Field> fields) {
    return registry.declare(name, fields);
  }

  /** Every behaviour, the built-ins and the declared ones, by id. */
  public List<Behaviour> behaviours() {
    return registry.list();
  }

  /** One behaviour by name; a 404 if it is neither built in nor declared. */
  public Behaviour behaviour(String name) {
    return registry.get(name);
  }

  /**
   * The behaviours of {@code labels} (any case), each known to the registry, or a 400 on {@code
   * field}; empty when none are named (a query then reads every behaviour).
   */
  public Set<Behaviour> parseBehaviours(List<String> labels, String field) {
    Set<Behaviour> out = new LinkedHashSet<>();
    for (String l : labels) {
      Behaviour b =
          registry
              .byLabel(l == null ? null : l.trim().toLowerCase(Locale.ROOT))
              .orElseGet(() -> registry.snapshot().parse(l, field));
      out.add(b);
    }
    return out;
  }

  private static void checkUid(String uid) {
    Ids.check(uid, "uid", Event.MAX_UID_CHARS);
  }
}
