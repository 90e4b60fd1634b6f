package org.casebook.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.casebook.bench.TrailsSteps.StepUsers;
import org.casebook.core.Json;
import org.casebook.core.cli.Progress;
import org.casebook.trails.Behaviours;
import org.casebook.trails.Event;
import org.casebook.trails.wire.LogParser;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * {@code bench trails}' PostgreSQL side: PostgreSQL 16 started for the run, loaded with COPY from
 * the same cleaned records as HBase, indexed as a DBA would for these queries, warmed up as long,
 * and the same queries for the same users (each step's own seed, {@link TrailsSteps}).
 */
final class TrailsPostgres {
  static final String HUNDRED_USERS_SQL =
      "SELECT uid, type, ts, fields FROM events WHERE uid = ANY(?) AND ts >= ? AND ts < ?"
          + " ORDER BY uid, ts";

  private final TrailsBenchmark.Options o;
  private final TrailsSteps steps;
  private final LocalDate firstDay;

  TrailsPostgres(TrailsBenchmark.Options options, TrailsSteps steps, LocalDate firstDay) {
    this.o = options;
    this.steps = steps;
    this.firstDay = firstDay;
  }

  /**
   * Loads the log's cleaned records into a PostgreSQL started for the run, then times its queries;
   * {@code activeExpected} is what HBase found for the 000 task; {@code afterLastCopy} runs once
   * the log has been read for the last time. Returns the bytes the table and its indexes take (also
   * a row of {@code table}).
   */
  Map<String, Object> run(
      Path log,
      long logBytes,
      Runnable afterLastCopy,
      BenchTable table,
      List<String> activeUsers,
      int activeExpected)
      throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(o.work.toAbsolutePath(), "512MB");
        java.sql.Connection c = pg.connect()) {
      long rows = load(c, log, logBytes, afterLastCopy, table);
      Map<String, Object> storage = bytesStored(c, rows, table);
      queries(c, table, activeUsers, activeExpected);
      return storage;
    }
  }

  /**
   * COPY and the indexes, timed as HBase's bulk load is: an untimed first load (unless {@code
   * --no-load-warmup}), then the median of {@code --load-rounds}, each into a fresh table; the last
   * round's table stays for the queries. Returns the rows loaded.
   */
  private long load(
      java.sql.Connection c, Path log, long logBytes, Runnable afterLastCopy, BenchTable table)
      throws IOException, SQLException {
    List<double[]> loads = new ArrayList<>();
    double firstPostgresLoad = 0;
    long rows = 0;
    for (int round = o.noLoadWarmup ? 1 : 0; round <= o.loadRounds; round++) {
      String label =
          round == 0
              ? "PostgreSQL load (warm-up)"
              : "PostgreSQL load " + round + "/" + o.loadRounds;
      createTable(c);
      long t0 = System.nanoTime();
      try (Progress p = Progress.start(label + ": COPY", logBytes, "bytes")) {
        rows = copy(c, log, p);
      }
      double loadSecs = (System.nanoTime() - t0) / 1e9;
      if (round == o.loadRounds) {
        afterLastCopy.run();
      }
      t0 = System.nanoTime();
      try (Statement st = c.createStatement()) {
        for (String sql : INDEXES) {
          timed(st, label, sql);
        }
      }
      double indexSecs = (System.nanoTime() - t0) / 1e9;
      if (round > 0) {
        loads.add(new double[] {loadSecs, indexSecs});
      } else {
        firstPostgresLoad = loadSecs + indexSecs;
      }
    }
    loads.sort(java.util.Comparator.comparingDouble(l -> l[0] + l[1]));
    double[] median = loads.get(loads.size() / 2);
    List<Double> totals = loads.stream().map(l -> l[0] + l[1]).toList();
    table.add("PostgreSQL: COPY load", rows, "rows", median[0], null, "same cleaned records");
    table.add(
        "PostgreSQL: build 2 indexes + ANALYZE",
        1,
        "tables",
        median[1],
        null,
        "(uid, ts), (uid, type, ts)");
    table.add(
        "PostgreSQL: load + index",
        rows,
        "rows",
        median[0] + median[1],
        null,
        (totals.size() == 1 ? "one run" : "median of " + TrailsSteps.runs(totals))
            + (o.noLoadWarmup
                ? ", no warm-up round"
                : String.format(
                    Locale.ROOT, " after an untimed first load of %.2f s", firstPostgresLoad)));
    return rows;
  }

  /** Runs one statement of the load, with a line when it starts and one when it ends. */
  private static void timed(Statement st, String label, String sql) throws SQLException {
    System.out.println(label + ": " + sql + " …");
    long t0 = System.nanoTime();
    st.execute(sql);
    System.out.printf(
        Locale.ROOT, "%s: %s done in %.1f s%n", label, sql, (System.nanoTime() - t0) / 1e9);
  }

  /**
   * The bytes PostgreSQL stores for the rows: {@code pg_total_relation_size} of the table (heap,
   * indexes, TOAST, free space and visibility maps), the heap and each index apart.
   */
  private static Map<String, Object> bytesStored(java.sql.Connection c, long rows, BenchTable table)
      throws SQLException {
    long total;
    long heap;
    long uidTs;
    long uidTypeTs;
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT pg_total_relation_size('events'), pg_relation_size('events'),"
                    + " pg_relation_size('events_uid_ts'), pg_relation_size('events_uid_type_ts')")) {
      rs.next();
      total = rs.getLong(1);
      heap = rs.getLong(2);
      uidTs = rs.getLong(3);
      uidTypeTs = rs.getLong(4);
    }
    long other = total - heap - uidTs - uidTypeTs;
    double perRecord = rows == 0 ? 0 : (double) total / rows;
    table.add(
        "PostgreSQL: bytes stored (heap + 2 indexes)",
        total,
        "bytes",
        0,
        null,
        String.format(
            Locale.ROOT,
            "%.1f B/record (%,d rows); heap %,d MB, (uid, ts) %,d MB, (uid, type, ts) %,d MB,"
                + " TOAST and maps %,d MB; pg_total_relation_size after ANALYZE",
            perRecord,
            rows,
            heap >> 20,
            uidTs >> 20,
            uidTypeTs >> 20,
            other >> 20));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("totalBytes", total);
    m.put("heapBytes", heap);
    m.put("indexUidTsBytes", uidTs);
    m.put("indexUidTypeTsBytes", uidTypeTs);
    m.put("otherBytes", other);
    m.put("rows", rows);
    m.put("bytesPerRecord", perRecord);
    return m;
  }

  /** The same queries as HBase's, for the same users, after a warm-up as long. */
  private void queries(
      java.sql.Connection c, BenchTable table, List<String> activeUsers, int activeExpected)
      throws Exception {
    Timestamp from = Timestamp.from(firstDay.atStartOfDay(ZoneOffset.UTC).toInstant());
    Timestamp to =
        Timestamp.from(firstDay.plusDays(o.days).atStartOfDay(ZoneOffset.UTC).toInstant());
    warmUp(c, from, to, new SplittableRandom(6));
    Latency one;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT type, ts, fields FROM events WHERE uid = ? AND ts >= ? AND ts < ? ORDER BY ts")) {
      ps.setTimestamp(2, from);
      ps.setTimestamp(3, to);
      one = steps.userStep(StepUsers.ONE_TRAIL, ps);
    }
    table.add(
        "PostgreSQL: one user's " + o.days + "-day trail",
        one.count(),
        "queries",
        0,
        one,
        "index (uid, ts)");
    Latency hundred;
    try (PreparedStatement ps = c.prepareStatement(HUNDRED_USERS_SQL)) {
      hundred =
          TrailsSteps.step(
                  o.multiUserSamples,
                  StepUsers.HUNDRED,
                  (users, timed) -> {
                    Array arr = c.createArrayOf("text", steps.hundredUsers(users).toArray());
                    ps.setArray(1, arr);
                    ps.setTimestamp(2, from);
                    ps.setTimestamp(3, to);
                    long s = System.nanoTime();
                    EmbeddedPostgres.drain(ps);
                    return System.nanoTime() - s;
                  })
              .latency();
    }
    table.add("PostgreSQL: 100 users' trails", hundred.count(), "queries", 0, hundred, "");
    List<Double> taskRuns = new ArrayList<>();
    int active = 0;
    for (int run = 0; run <= TrailsSteps.TASK_RUNS; run++) {
      long s = System.nanoTime();
      try (PreparedStatement find =
              c.prepareStatement(
                  "SELECT uid FROM events WHERE uid = ANY(?) AND ts >= ? AND ts < ? "
                      + "GROUP BY uid HAVING count(DISTINCT type) = 4");
          PreparedStatement fetch = c.prepareStatement(HUNDRED_USERS_SQL)) {
        find.setArray(1, c.createArrayOf("text", activeUsers.toArray()));
        find.setTimestamp(2, from);
        find.setTimestamp(3, to);
        List<String> found = new ArrayList<>();
        try (ResultSet rs = find.executeQuery()) {
          while (rs.next()) {
            found.add(rs.getString(1));
          }
        }
        active = found.size();
        fetch.setArray(1, c.createArrayOf("text", found.toArray()));
        fetch.setTimestamp(2, from);
        fetch.setTimestamp(3, to);
        EmbeddedPostgres.drain(fetch);
      }
      if (run > 0) {
        taskRuns.add((System.nanoTime() - s) / 1e9);
      }
    }
    table.add(
        "PostgreSQL: 000 task (GROUP BY + fetch)",
        o.activeUsers,
        "users",
        TrailsSteps.median(taskRuns),
        null,
        active
            + " active; median of "
            + TrailsSteps.runs(taskRuns)
            + (active == activeExpected
                ? " (same as HBase)"
                : " (HBase found " + activeExpected + ")"));
    Latency latest;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT type, ts, fields FROM events WHERE uid = ? ORDER BY ts DESC LIMIT 20")) {
      latest = steps.userStep(StepUsers.LATEST, ps);
    }
    table.add("PostgreSQL: latest 20", latest.count(), "queries", 0, latest, "");
  }

  /** PostgreSQL's side of the warm-up: its queries, for as long as HBase's. */
  private void warmUp(java.sql.Connection c, Timestamp from, Timestamp to, SplittableRandom rnd)
      throws SQLException {
    try (PreparedStatement trail =
            c.prepareStatement(
                "SELECT type, ts, fields FROM events WHERE uid = ? AND ts >= ? AND ts < ? ORDER BY ts");
        PreparedStatement latest =
            c.prepareStatement(
                "SELECT type, ts, fields FROM events WHERE uid = ? ORDER BY ts DESC LIMIT 20");
        PreparedStatement hundred = c.prepareStatement(HUNDRED_USERS_SQL)) {
      long until = System.nanoTime() + o.warmupSeconds * 1_000_000_000L;
      for (long n = 1; System.nanoTime() < until; n++) {
        if (n % 17 == 0) {
          hundred.setArray(1, c.createArrayOf("text", steps.hundredUsers(rnd).toArray()));
          hundred.setTimestamp(2, from);
          hundred.setTimestamp(3, to);
          EmbeddedPostgres.drain(hundred);
        }
        String uid = steps.sampledUser(rnd);
        trail.setString(1, uid);
        trail.setTimestamp(2, from);
        trail.setTimestamp(3, to);
        EmbeddedPostgres.drain(trail);
        latest.setString(1, uid);
        EmbeddedPostgres.drain(latest);
      }
    }
  }

  /**
   * The DBA's indexes, built after the load, then statistics: user + time serves trails, ranges and
   * latest-N; type in front of time serves account x behaviour x range.
   */
  static final List<String> INDEXES =
      List.of(
          "CREATE INDEX events_uid_ts ON events (uid, ts)",
          "CREATE INDEX events_uid_type_ts ON events (uid, type, ts)",
          "ANALYZE events");

  /** A fresh {@code events} table (dropped first if there is one). */
  static void createTable(java.sql.Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS events");
      st.execute(
          "CREATE TABLE events (uid text NOT NULL, type smallint NOT NULL, ts timestamptz NOT NULL, fields jsonb NOT NULL)");
    }
  }

  /** The indexes and statistics of a loaded {@code events} table. */
  static void index(java.sql.Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String sql : INDEXES) {
        st.execute(sql);
      }
    }
  }

  /** Streams the cleaned records into COPY, without progress. */
  static long copy(java.sql.Connection c, Path log) throws IOException, SQLException {
    return copy(c, log, null);
  }

  /**
   * Streams the cleaned records (LogParser, as HBase ingest does) into COPY, in chunks; {@code
   * progress}, if not null, counts the log's bytes read.
   */
  private static long copy(java.sql.Connection c, Path log, Progress progress)
      throws IOException, SQLException {
    CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
    long rows = 0;
    StringBuilder chunk = new StringBuilder(1 << 20);
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
      String raw;
      while ((raw = r.readLine()) != null) {
        if (progress != null) {
          progress.advance(raw.length() + 1L); // ISO-8859-1: one char per byte
        }
        String line = new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (line.indexOf('\uFFFD') >= 0) {
          continue; // invalid UTF-8: rejected by the HBase ingest too
        }
        LogParser.Parsed p = LogParser.parse(line, Behaviours.BUILT_INS);
        if (p.event().isEmpty()) {
          continue;
        }
        Event e = p.event().get();
        chunk
            .append(EmbeddedPostgres.csv(e.uid()))
            .append(',')
            .append(e.type().id())
            .append(',')
            .append(e.instant().toString())
            .append(',')
            .append(EmbeddedPostgres.csv(Json.write(e.fields())))
            .append('\n');
        rows++;
        if (chunk.length() > (1 << 20)) {
          copy.copyIn(
              "COPY events FROM STDIN WITH (FORMAT csv)", new StringReader(chunk.toString()));
          chunk.setLength(0);
        }
      }
    }
    if (chunk.length() > 0) {
      copy.copyIn("COPY events FROM STDIN WITH (FORMAT csv)", new StringReader(chunk.toString()));
    }
    return rows;
  }
}
